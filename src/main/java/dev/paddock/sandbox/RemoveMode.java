package dev.paddock.sandbox;

/**
 * How to remove a sandbox whose worktree holds work (strict by default).
 */
public enum RemoveMode {
    /** Refuse when anything would be lost (uncommitted files, unmerged commits). */
    STRICT,
    /** Commit the uncommitted files on the sandbox's branch first, keep the branch, then remove the worktree. */
    COMMIT,
    /** Remove the worktree whatever it holds (the branch is still kept unless asked otherwise). */
    FORCE
}
