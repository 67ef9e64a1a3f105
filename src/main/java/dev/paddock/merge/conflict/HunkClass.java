package dev.paddock.merge.conflict;

/**
 * How a conflict hunk is judged. A class is safe when its proposal is what a careful person would write with near
 * certainty ({@code docs/decisions/0010-what-safe-means-for-a-conflict-hunk.md}): only then is the proposal
 * offered as a resolution; every other hunk is {@link #HUMAN} (or {@link #LOCKFILE}) with a suggestion ranked
 * first ({@link #IMPORT_BLOCK}, {@link #LOCKFILE} and {@link #HUMAN} are not safe). Whether a safe class may also be
 * applied without a person is {@link #appliesAutomatically()}.
 */
public enum HunkClass {
    /** Both sides made the same change. */
    IDENTICAL,
    /** One side left the lines as in base: the other side's change wins. */
    ONE_SIDE_EQUALS_BASE,
    /** The two sides differ only in whitespace, and the file's style or the side that reformatted decides. */
    WHITESPACE_ONLY,
    /**
     * Only import lines changed: the suggestion merges the block line by line (additions kept in the block's order,
     * deletions kept deleted, nothing twice), but people's merges show it is not certain enough to be safe.
     */
    IMPORT_BLOCK,
    /** The two sides edited different lines, with an untouched line between every edit of one and of the other. */
    NON_OVERLAPPING,
    /** A lockfile or generated file: one side is taken whole and the file is regenerated, never merged as text. */
    LOCKFILE,
    /** Anything else, and any hunk touching a method signature or a lock/release pair. */
    HUMAN;

    /** Whether a resolution may be proposed as the hunk's resolution (not just suggested to a person). */
    public boolean isSafe() {
        return this == IDENTICAL || this == ONE_SIDE_EQUALS_BASE || this == WHITESPACE_ONLY || this == NON_OVERLAPPING;
    }

    /**
     * Whether {@code auto-resolve apply} may apply this class's proposals (and only after the repository's test
     * command passed on the result): the classes whose proposals matched the person's merge in at least 99% of the
     * conflict corpus ({@code ConflictCorpusBench} checks that they still do).
     */
    public boolean appliesAutomatically() {
        return this == ONE_SIDE_EQUALS_BASE;
    }

    /** A few words for people (the events feed): e.g. {@code import-block merge}. */
    public String describe() {
        return switch (this) {
            case IDENTICAL -> "identical change on both sides";
            case ONE_SIDE_EQUALS_BASE -> "one side equal to base";
            case WHITESPACE_ONLY -> "whitespace-only, decided by the file's style";
            case IMPORT_BLOCK -> "import block (line-by-line merge suggested)";
            case NON_OVERLAPPING -> "non-overlapping edits";
            case LOCKFILE -> "lockfile: take a side and regenerate";
            case HUMAN -> "a person's decision";
        };
    }

    /** The name used in JSON and the store: lower case with underscores. */
    public String id() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
