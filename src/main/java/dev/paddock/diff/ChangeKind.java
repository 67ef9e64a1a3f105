package dev.paddock.diff;

/** How one file changed between the two sides of a sandbox's diff. */
public enum ChangeKind {
    ADDED,
    MODIFIED,
    DELETED,
    RENAMED,
    COPIED
}
