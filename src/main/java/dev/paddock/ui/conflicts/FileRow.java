package dev.paddock.ui.conflicts;

import dev.paddock.merge.conflict.ConflictFile;
import dev.paddock.merge.conflict.FileConflictKind;
import java.util.List;

/**
 * One conflicted file as the three-way view's file list shows it.
 *
 * @param unresolved hunks not resolved yet (text kinds)
 * @param resolved   whether its resolution was handed to the merge queue
 */
public record FileRow(
        String path, FileConflictKind kind, int hunks, int unresolved, boolean resolved, boolean needsHuman) {
    /** Whether the file has text to merge (content or add/add). */
    public boolean isText() {
        return !kind.needsHuman();
    }

    /** The row of {@code f}, with the hunks {@code r} (its starting result; null for kinds without text) leaves. */
    static FileRow of(ConflictFile f, FileResolution r, boolean resolved) {
        return new FileRow(
                f.path(), f.kind(), f.hunks().size(), r == null ? 0 : r.unresolved(), resolved, f.needsHuman());
    }

    /** This row, its resolution handed to the merge queue. */
    FileRow markedResolved() {
        return new FileRow(path, kind, hunks, unresolved, true, needsHuman);
    }

    /** This row unresolved again, with the hunks its result {@code r} leaves (null: as it was). */
    FileRow reopened(FileResolution r) {
        return new FileRow(path, kind, hunks, r == null ? unresolved : r.unresolved(), false, needsHuman);
    }

    /** The first unresolved row after {@code i}, wrapping around (it may be {@code i} itself), or -1. */
    static int nextUnresolved(List<FileRow> rows, int i) {
        for (int k = 1; k <= rows.size(); k++) {
            int next = (i + k) % rows.size();
            if (!rows.get(next).resolved()) {
                return next;
            }
        }
        return -1;
    }
}
