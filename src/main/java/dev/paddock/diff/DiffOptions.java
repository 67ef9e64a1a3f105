package dev.paddock.diff;

/**
 * What diff to compute.
 *
 * @param ignoreWhitespace whether changes of whitespace alone are left out
 * @param commit null for the sandbox's whole change (its base against its worktree's state, untracked files
 *     included); a commit id on its branch for that commit against its parent
 * @param snapshot for the whole change: null for the worktree as it is now; else the {@link SandboxDiff#snapshot()}
 *     of a file list read before, so that a file's patch shows the state its list showed
 */
public record DiffOptions(boolean ignoreWhitespace, String commit, String snapshot) {
    /** The worktree as it is now, or one commit. */
    public DiffOptions(boolean ignoreWhitespace, String commit) {
        this(ignoreWhitespace, commit, null);
    }

    /** The whole change, whitespace counted. */
    public static DiffOptions whole() {
        return new DiffOptions(false, null, null);
    }

    /** These options on the state a file list showed ({@link SandboxDiff#snapshot()}). */
    public DiffOptions at(String snapshotId) {
        return new DiffOptions(ignoreWhitespace, commit, snapshotId);
    }
}
