package dev.paddock.merge.conflict;

import java.util.List;

/**
 * The suggestion ranked first for a hunk a person decides, with its confidence and reason: both sides' edits for
 * edits that only touch, else the side the corpus of real merges shows people keep most often in such hunks (ours;
 * see {@link Confidence}).
 */
final class Suggestions {
    private Suggestions() {
    }

    /** Edits of the two sides that touch (no unchanged line between them) without changing a common line. */
    static HunkClassifier.Judgement adjacent(List<String> base, List<String> ours, List<String> theirs,
                                             List<String> both) {
        return new HunkClassifier.Judgement(HunkClass.HUMAN, null, "The sides changed neighbouring lines (no"
                + " unchanged line between their edits), which often belong together, so a person decides. Suggested:"
                + " both changes applied.", both, Confidence.ADJACENT);
    }

    /** Edits of the two sides that change the same base lines, or insert at the same place. */
    static HunkClassifier.Judgement overlapping(List<String> base, List<String> ours, List<String> theirs) {
        return new HunkClassifier.Judgement(HunkClass.HUMAN, null, "Both sides changed the same lines differently."
                + " Suggested: ours (in real merges people keep ours more often than theirs in such hunks).",
                ours, Confidence.OVERLAP);
    }

    /** Edits that do not overlap but would write {@code line} twice: both sides added it, at different places. */
    static HunkClassifier.Judgement addedTwice(String line, List<String> ours) {
        return new HunkClassifier.Judgement(HunkClass.HUMAN, null, "Both sides added the line \"" + line + "\" at"
                + " different places; applying both would write it twice (a line moved on one side, or added by"
                + " both), so a person decides. Suggested: ours.", ours, Confidence.OVERLAP);
    }
}
