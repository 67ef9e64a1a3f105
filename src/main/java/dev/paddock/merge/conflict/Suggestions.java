package dev.paddock.merge.conflict;

import java.util.List;

/**
 * The suggestion ranked first for a hunk a person decides, with its confidence and reason: both sides' edits for
 * edits that only touch, else the side the corpus of real merges shows people keep most often in such hunks (ours;
 * see {@link Confidence}).
 */
final class Suggestions {
    private Suggestions() {}

    /** Edits of the two sides that touch (no unchanged line between them) without changing a common line. */
    static HunkClassifier.Judgement adjacent(
            List<String> base, List<String> ours, List<String> theirs, List<String> both) {
        return new HunkClassifier.Judgement(
                HunkClass.HUMAN,
                null,
                "The sides changed neighbouring lines (no"
                        + " unchanged line between their edits), which often belong together, so a person decides. Suggested:"
                        + " both changes applied.",
                both,
                Confidence.ADJACENT);
    }

    /** Edits of the two sides that change the same base lines, or insert at the same place. */
    static HunkClassifier.Judgement overlapping(List<String> base, List<String> ours, List<String> theirs) {
        return new HunkClassifier.Judgement(
                HunkClass.HUMAN,
                null,
                "Both sides changed the same lines differently."
                        + " Suggested: ours (in real merges people keep ours more often than theirs in such hunks).",
                ours,
                Confidence.OVERLAP);
    }

    /**
     * Separated edits whose merge would hold {@code line} more often than either side does (both sides added it at
     * different places, or one side moved it): not proven, so a person decides; both changes are still suggested
     * (a changelog's repeated headings are such lines).
     */
    static HunkClassifier.Judgement addedTwice(String line, List<String> both) {
        return new HunkClassifier.Judgement(
                HunkClass.HUMAN,
                null,
                "The sides changed different lines, but applying"
                        + " both would write the line \"" + line
                        + "\" more often than either side has it (added by both at"
                        + " different places, or moved), so a person decides. Suggested: both changes applied; check that"
                        + " line.",
                both,
                Confidence.ADJACENT);
    }
}
