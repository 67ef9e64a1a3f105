package dev.paddock.merge.conflict;

import java.util.List;

/**
 * One conflict hunk of a file: where it is in base, ours (the base branch) and theirs (the agent's branch),
 * the lines of each side, its class, its proposed resolution when the class is safe, and otherwise the suggestion
 * ranked first for a person.
 *
 * @param index       0-based position of the hunk in its file
 * @param base        lines of the hunk in the base version (merge base)
 * @param ours        lines of the hunk in ours
 * @param theirs      lines of the hunk in theirs
 * @param baseLines   the base lines of the range, without line terminators
 * @param oursLines   the ours lines of the range
 * @param theirsLines the theirs lines of the range
 * @param hunkClass   how it is judged
 * @param proposed    the lines that would replace the hunk; {@code null} unless the class is safe
 * @param why         why it got its class and what the proposal or suggestion is, in words (for people)
 * @param suggested   the resolution ranked first: the proposal of a safe hunk, else a suggestion for a person
 *                    ({@code null} when there is none, e.g. a lockfile, which is regenerated rather than merged)
 * @param confidence  how likely the first suggestion is what a careful person writes, 0 to 1 (the share of such
 *                    proposals that matched the person's merge in the conflict corpus; see decision record 0010)
 */
public record ConflictHunk(
        int index,
        LineRange base,
        LineRange ours,
        LineRange theirs,
        List<String> baseLines,
        List<String> oursLines,
        List<String> theirsLines,
        HunkClass hunkClass,
        List<String> proposed,
        String why,
        List<String> suggested,
        double confidence) {
    public ConflictHunk {
        baseLines = List.copyOf(baseLines);
        oursLines = List.copyOf(oursLines);
        theirsLines = List.copyOf(theirsLines);
        proposed = proposed == null ? null : List.copyOf(proposed);
        suggested = suggested == null ? proposed : List.copyOf(suggested);
        if (confidence < 0 || confidence > 1 || Double.isNaN(confidence)) {
            throw new IllegalArgumentException("a confidence is between 0 and 1, not " + confidence);
        }
    }

    /** A hunk whose suggestion is its proposal, with full confidence when there is one. */
    public ConflictHunk(
            int index,
            LineRange base,
            LineRange ours,
            LineRange theirs,
            List<String> baseLines,
            List<String> oursLines,
            List<String> theirsLines,
            HunkClass hunkClass,
            List<String> proposed,
            String why) {
        this(
                index,
                base,
                ours,
                theirs,
                baseLines,
                oursLines,
                theirsLines,
                hunkClass,
                proposed,
                why,
                proposed,
                proposed == null ? 0 : 1);
    }
}
