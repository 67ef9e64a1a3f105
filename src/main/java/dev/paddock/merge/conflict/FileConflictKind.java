package dev.paddock.merge.conflict;

/** What kind of conflict a file has (the {@code conflicts.kind} column). Only {@link #CONTENT} has hunks. */
public enum FileConflictKind {
    /** Both sides changed the text: conflict hunks. */
    CONTENT,
    /** Both sides added the file with different text (hunks against an empty base). */
    ADD_ADD,
    /** One side deleted the file, the other changed it. */
    DELETE_MODIFY,
    /** Both sides renamed the file differently. */
    RENAME_RENAME,
    /** A binary file changed on both sides. */
    BINARY;

    /** Whether only a person can resolve this kind (everything but text conflicts). */
    public boolean needsHuman() {
        return this != CONTENT && this != ADD_ADD;
    }

    /** The name used in JSON and the store: lower case with underscores. */
    public String id() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
