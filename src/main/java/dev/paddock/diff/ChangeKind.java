package dev.paddock.diff;

/** How one file changed between the two sides of a sandbox's diff. */
public enum ChangeKind {
    ADDED,
    MODIFIED,
    DELETED,
    RENAMED,
    COPIED,
    /** A file that became a symbolic link (or a link that became a file): the old content deleted, the new added. */
    TYPE_CHANGED
}
