package dev.paddock.merge.conflict;

/**
 * How a conflict hunk is judged (issue 6, seed 000 §6.6). The first five are safe: a resolution can be
 * proposed (and applied automatically when the repository allows it); {@link #HUMAN} always goes to a person.
 */
public enum HunkClass {
    /** Both sides made the same change. */
    IDENTICAL,
    /** One side left the lines as in base: the other side's change wins. */
    ONE_SIDE_EQUALS_BASE,
    /** The two sides differ only in whitespace or formatting. */
    WHITESPACE_ONLY,
    /** Both sides changed an import block: the union, sorted, resolves it. */
    IMPORT_BLOCK,
    /** The two sides edited different lines that git still left in one conflict. */
    NON_OVERLAPPING,
    /** Anything else, and any hunk touching a method signature or a lock/release pair. */
    HUMAN;

    /** Whether a resolution may be proposed without a person. */
    public boolean isSafe() {
        return this != HUMAN;
    }

    /** A few words for people (the events feed): e.g. {@code import-block union}. */
    public String describe() {
        return switch (this) {
            case IDENTICAL -> "identical change on both sides";
            case ONE_SIDE_EQUALS_BASE -> "one side equal to base";
            case WHITESPACE_ONLY -> "whitespace/format-only";
            case IMPORT_BLOCK -> "import-block union";
            case NON_OVERLAPPING -> "non-overlapping edits";
            case HUMAN -> "a person's decision";
        };
    }

    /** The name used in JSON and the store: lower case with underscores. */
    public String id() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
