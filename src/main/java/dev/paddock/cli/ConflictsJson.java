package dev.paddock.cli;

import dev.paddock.merge.conflict.ConflictFile;
import dev.paddock.merge.conflict.ConflictHunk;
import dev.paddock.merge.conflict.ConflictReport;
import dev.paddock.merge.conflict.LineRange;
import java.util.List;

/**
 * The JSON shape of {@code paddock conflicts classify}. Line ranges are for people: {@code start} and
 * {@code end} are 1-based and inclusive; an empty range (an insertion point) has {@code count} 0 and
 * {@code end = start - 1}, meaning "before line {@code start}". Kinds and classes are lower case with
 * underscores ({@code delete_modify}, {@code non_overlapping}).
 *
 * @param lineNumbers how to read the ranges, spelled out in every document
 * @param ours        commit id of ours
 * @param theirs      commit id of theirs
 * @param base        commit id of the merge base (null for unrelated histories)
 * @param clean       whether the merge has no conflict
 * @param allSafe     whether every hunk has a proposed resolution and no file needs a person
 * @param files       the conflicted files, sorted by path
 */
record ConflictsJson(
        String lineNumbers,
        String ours,
        String theirs,
        String base,
        boolean clean,
        boolean allSafe,
        List<FileJson> files) {
    static final String LINE_NUMBERS =
            "1-based, inclusive; an empty range has count 0 and end = start - 1" + " (an insertion before line start)";

    /**
     * One conflicted file.
     *
     * @param path       repository-relative path
     * @param kind       content, add_add, delete_modify, rename_rename or binary
     * @param needsHuman whether a person must decide part of it
     * @param hunks      its hunks (empty for kinds without text)
     */
    record FileJson(String path, String kind, boolean needsHuman, List<HunkJson> hunks) {}

    /**
     * One hunk.
     *
     * @param index      0-based position of the hunk in its file
     * @param hunkClass  identical, one_side_equals_base, whitespace_only, import_block, non_overlapping, lockfile
     *                   or human
     * @param safe       whether a resolution is proposed
     * @param autoApply  whether {@code auto-resolve apply} may apply it (after the tests pass on the result)
     * @param confidence how likely the first suggestion is what a careful person writes, 0 to 1
     * @param why        the reason, in words: why this class, and what the proposal or suggestion does
     * @param proposed   the lines that would replace the hunk, null when a person must decide
     * @param suggested  the resolution ranked first (the proposal when safe), null when there is none (a lockfile
     *                   is regenerated instead)
     */
    record HunkJson(
            int index,

            @com.fasterxml.jackson.annotation.JsonProperty("class")
            String hunkClass,

            boolean safe,
            boolean autoApply,
            double confidence,
            String why,
            RangeJson base,
            RangeJson ours,
            RangeJson theirs,
            List<String> baseLines,
            List<String> oursLines,
            List<String> theirsLines,
            List<String> proposed,
            List<String> suggested) {}

    /** A 1-based inclusive line range and its line count. */
    record RangeJson(int start, int end, int count) {
        static RangeJson of(LineRange r) {
            return new RangeJson(r.start() + 1, r.end(), r.length());
        }
    }

    static ConflictsJson of(ConflictReport r) {
        return new ConflictsJson(
                LINE_NUMBERS,
                r.ours(),
                r.theirs(),
                r.base(),
                r.isClean(),
                r.allSafe(),
                r.files().stream().map(ConflictsJson::file).toList());
    }

    private static FileJson file(ConflictFile f) {
        return new FileJson(
                f.path(),
                f.kind().id(),
                f.needsHuman(),
                f.hunks().stream().map(ConflictsJson::hunk).toList());
    }

    private static HunkJson hunk(ConflictHunk h) {
        return new HunkJson(
                h.index(),
                h.hunkClass().id(),
                h.hunkClass().isSafe(),
                h.hunkClass().appliesAutomatically() && h.proposed() != null,
                Math.round(h.confidence() * 100) / 100.0,
                h.why(),
                RangeJson.of(h.base()),
                RangeJson.of(h.ours()),
                RangeJson.of(h.theirs()),
                h.baseLines(),
                h.oursLines(),
                h.theirsLines(),
                h.proposed(),
                h.suggested());
    }
}
