package dev.paddock.merge.conflict;

/**
 * The confidence of each kind of proposal or suggestion: the share of such proposals that matched, line for line,
 * what the person who made the merge committed, in the conflict corpus of real merges of public repositories
 * ({@code ConflictCorpusBench}; figures and method in docs/decisions/0010-what-safe-means-for-a-conflict-hunk.md).
 * A class with fewer than 20 corpus hunks is given at most 0.9: too few to claim more.
 */
final class Confidence {
    static final double ADJACENT = 0.5;
    static final double SUPERSET = 0.5;
    static final double OVERLAP = 0.3;
    static final double IMPORT_SUGGESTION = 0.5;
    static final double WHITESPACE_UNDECIDED = 0.5;
    /** At most this for a suggestion that touches a signature or a lock: a person checks it. */
    static final double RISKY = 0.5;

    private Confidence() {
    }

    /** The confidence of a safe class's proposal (a lockfile's: that regenerating gives the right file). */
    static double of(HunkClass c) {
        return switch (c) {
            case IDENTICAL -> 1.0;
            case ONE_SIDE_EQUALS_BASE -> 1.0;
            case WHITESPACE_ONLY -> 0.9;
            case IMPORT_BLOCK -> 0.9;
            case NON_OVERLAPPING -> 0.9;
            case LOCKFILE -> 0.9;
            case HUMAN -> 0.0;
        };
    }
}
