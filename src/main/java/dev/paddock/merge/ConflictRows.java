package dev.paddock.merge;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.paddock.common.Json;
import dev.paddock.merge.conflict.ConflictFile;
import dev.paddock.merge.conflict.ConflictHunk;
import dev.paddock.merge.conflict.ConflictReport;
import dev.paddock.merge.conflict.FileConflictKind;
import dev.paddock.merge.conflict.HunkClass;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a {@link ConflictReport} into rows of {@code conflicts}: kind, one class per file (the class its hunks
 * share, {@code safe} when they differ but all are safe, {@code human} when a person must decide) and the hunks
 * as JSON. Paths git left unmerged that the report lacks are added as content conflicts without hunks.
 */
final class ConflictRows {
    private ConflictRows() {}

    static List<MergeStore.StoredConflict> of(long entryId, ConflictReport report, List<String> unmerged) {
        Map<String, MergeStore.StoredConflict> rows = new LinkedHashMap<>();
        for (ConflictFile f : report.files()) {
            rows.put(
                    f.path(),
                    new MergeStore.StoredConflict(
                            0, entryId, f.path(), f.kind().id(), classOf(f), hunksJson(f.hunks()), null, null, null));
        }
        for (String p : unmerged) {
            rows.putIfAbsent(
                    p,
                    new MergeStore.StoredConflict(
                            0,
                            entryId,
                            p,
                            FileConflictKind.CONTENT.id(),
                            HunkClass.HUMAN.id(),
                            "[]",
                            null,
                            null,
                            null));
        }
        List<MergeStore.StoredConflict> out = new ArrayList<>(rows.values());
        out.sort(java.util.Comparator.comparing(MergeStore.StoredConflict::path));
        return out;
    }

    /**
     * The file's class: the hunks' common class (e.g. {@code import_block} or {@code lockfile}, which a person or
     * a regenerate command decides), else human when a person must decide, else {@code safe}; human for a kind
     * without hunks.
     */
    static String classOf(ConflictFile f) {
        if (f.kind().needsHuman() || f.hunks().isEmpty()) {
            return HunkClass.HUMAN.id();
        }
        HunkClass first = f.hunks().get(0).hunkClass();
        if (f.hunks().stream().allMatch(h -> h.hunkClass() == first)) {
            return first.id();
        }
        return f.needsHuman() ? HunkClass.HUMAN.id() : "safe";
    }

    static String hunksJson(List<ConflictHunk> hunks) {
        try {
            return Json.mapper().writeValueAsString(hunks);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("conflict hunks are not serialisable", e);
        }
    }
}
