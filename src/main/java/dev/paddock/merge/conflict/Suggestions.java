package dev.paddock.merge.conflict;

import java.util.List;

/**
 * The suggestion ranked first for a hunk a person decides, with its confidence and reason: both sides' edits for
 * edits that only touch, the side that contains the other's lines, else the side the corpus of real merges shows
 * people keep most often in such hunks (see {@link Confidence}).
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
        if (contains(theirs, ours)) {
            return new HunkClassifier.Judgement(HunkClass.HUMAN, null, "Both sides changed the same lines"
                    + " differently. Suggested: theirs, which has every line of ours and more.", theirs,
                    Confidence.SUPERSET);
        }
        if (contains(ours, theirs)) {
            return new HunkClassifier.Judgement(HunkClass.HUMAN, null, "Both sides changed the same lines"
                    + " differently. Suggested: ours, which has every line of theirs and more.", ours,
                    Confidence.SUPERSET);
        }
        return new HunkClassifier.Judgement(HunkClass.HUMAN, null, "Both sides changed the same lines differently."
                + " Suggested: theirs (in real merges people keep theirs more often than ours in such hunks).",
                theirs, Confidence.OVERLAP);
    }

    /** Whether {@code big} has every line of {@code small}, in order (and more lines). */
    static boolean contains(List<String> big, List<String> small) {
        if (big.size() <= small.size()) {
            return false;
        }
        int j = 0;
        for (int i = 0; i < big.size() && j < small.size(); i++) {
            if (big.get(i).equals(small.get(j))) {
                j++;
            }
        }
        return j == small.size();
    }
}
