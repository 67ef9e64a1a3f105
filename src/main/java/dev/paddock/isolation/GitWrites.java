package dev.paddock.isolation;

import java.util.List;

/**
 * What of a repository's common {@code .git} directory an isolated run (bubblewrap or a container) may write,
 * beyond its own worktree and that worktree's admin directory (HEAD, index, its reflog). The rest of the common
 * directory (config, packed refs, other worktrees' admin directories, {@code gc.pid}) is always read-only.
 */
public enum GitWrites {
    /** An agent: commits on its branch need new objects, a moved ref and its reflog. */
    COMMIT(List.of("objects", "refs", "logs")),
    /**
     * The merge queue's test run in a detached merge worktree: new objects only (git add, stash, a scratch commit
     * on the detached HEAD). No ref: a test cannot move base or any branch, base moves only by the queue's
     * compare-and-set.
     */
    OBJECTS(List.of("objects"));

    private final List<String> dirs;

    GitWrites(List<String> dirs) {
        this.dirs = dirs;
    }

    /** The writable folders, relative to the common directory. */
    public List<String> dirs() {
        return dirs;
    }
}
