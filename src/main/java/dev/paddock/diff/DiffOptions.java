package dev.paddock.diff;

/**
 * What diff to compute.
 *
 * @param ignoreWhitespace whether changes of whitespace alone are left out
 * @param commit null for the sandbox's whole change (its base against its worktree's state, untracked files
 *     included); a commit id on its branch for that commit against its parent
 */
public record DiffOptions(boolean ignoreWhitespace, String commit) {

    /** The whole change, whitespace counted. */
    public static DiffOptions whole() {
        return new DiffOptions(false, null);
    }
}
