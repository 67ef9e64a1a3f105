package dev.paddock.merge.conflict;

/**
 * The confidence of each kind of proposal or suggestion: how often such a proposal matched, line for line, what the
 * person who made the merge committed in the conflict corpus of real merges of public repositories (485 hunks),
 * as {@code (matched + 1) / (proposals + 2)}, so a handful of hunks never claims certainty. Kinds the corpus has
 * no hunk of carry the confidence of their construction, said where they are. {@code ConflictCorpusBench} measures
 * them; figures and method in docs/decisions/0010-what-safe-means-for-a-conflict-hunk.md.
 */
final class Confidence {
    /** Both sides' edits applied where they touch: 26 of 50. */
    static final double ADJACENT = 0.52;
    /** Ours where both sides changed the same lines: 137 of 287. */
    static final double OVERLAP = 0.48;
    /** The line-by-line merge of an import block: 7 of 16. */
    static final double IMPORT_SUGGESTION = 0.44;
    /** Ours' lines, when both sides added an import of the same name or module: 1 of 1. */
    static final double IMPORT_CLASH = 0.67;
    /** Ours, where the sides differ only in whitespace and nothing decides: 1 of 1. */
    static final double WHITESPACE_UNDECIDED = 0.67;
    /** One side's insertion, where the other side changed the lines next to it: 4 of 6. */
    static final double LONE_INSERTION = 0.63;
    /** The side that changed the text, where the other only changed whitespace: 4 of 5. */
    static final double WHITESPACE_AGAINST_CHANGE = 0.71;
    /** At most this for a suggestion that touches a signature or a lock (15 of 29): a person checks it. */
    static final double RISKY = 0.52;

    private Confidence() {}

    /** The confidence of a class's proposal (a lockfile's: that regenerating ours' file gives the right one). */
    static double of(HunkClass c) {
        return switch (c) {
            case IDENTICAL -> 1.0; // the proposal is both sides' text: nothing to choose (no corpus hunk)
            case ONE_SIDE_EQUALS_BASE -> 0.92; // 10 of 10
            case WHITESPACE_ONLY -> 0.9; // decided by a reformatting or the file's style (no corpus hunk)
            case NON_OVERLAPPING -> 0.9; // an untouched line between the sides' own edits, shared ones kept once,
            // no line written twice (no corpus hunk)
            case IMPORT_BLOCK -> IMPORT_SUGGESTION;
            case LOCKFILE -> 0.9; // the tool writes the file (not measured: the corpus has the person's text only)
            case HUMAN -> 0.0;
        };
    }
}
