package dev.paddock.diff;

/**
 * One line of a hunk.
 *
 * @param kind context, added or deleted
 * @param oldLine its 1-based line number on the old side; 0 for an added line
 * @param newLine its 1-based line number on the new side; 0 for a deleted line
 * @param text the line without its line break
 */
public record DiffLine(Kind kind, int oldLine, int newLine, String text) {

    /** What a line of a hunk is. */
    public enum Kind {
        CONTEXT,
        ADDED,
        DELETED
    }
}
