package dev.paddock.diff;

/**
 * What diff to compute.
 *
 * @param ignoreWhitespace whether changes of whitespace alone are left out
 * @param commit null for the sandbox's whole change (its base against its worktree's state, untracked files
 *     included); a commit id on its branch for that commit against its parent
 * @param snapshot for the whole change: null for the worktree as it is now; else the {@link SandboxDiff#snapshot()}
 *     of a file list read before, so that a file's patch shows the state its list showed
 * @param checkpoint a checkpoint's number, or null: with no {@code toCheckpoint}, that checkpoint against the one
 *     before it (the sandbox's base commit for the first); read from the checkpoint refs
 * @param toCheckpoint with {@code checkpoint}: the old side is checkpoint {@code checkpoint}, the new side this one
 */
public record DiffOptions(
        boolean ignoreWhitespace, String commit, String snapshot, Integer checkpoint, Integer toCheckpoint) {
    /** The worktree at a snapshot, or one commit. */
    public DiffOptions(boolean ignoreWhitespace, String commit, String snapshot) {
        this(ignoreWhitespace, commit, snapshot, null, null);
    }

    /** The worktree as it is now, or one commit. */
    public DiffOptions(boolean ignoreWhitespace, String commit) {
        this(ignoreWhitespace, commit, null, null, null);
    }

    /** The whole change, whitespace counted. */
    public static DiffOptions whole() {
        return new DiffOptions(false, null, null);
    }

    /** These options on the state a file list showed ({@link SandboxDiff#snapshot()}). */
    public DiffOptions at(String snapshotId) {
        return new DiffOptions(ignoreWhitespace, commit, snapshotId, checkpoint, toCheckpoint);
    }

    /**
     * These options (whitespace) on checkpoints: {@code from} against the one before it when {@code to} is null,
     * else checkpoint {@code from} against checkpoint {@code to}; {@code from} null: these options without
     * checkpoints.
     */
    public DiffOptions checkpoints(Integer from, Integer to) {
        return from == null
                ? new DiffOptions(ignoreWhitespace, commit, snapshot)
                : new DiffOptions(ignoreWhitespace, null, null, from, to);
    }

    /** Whether a checkpoint's diff is asked for. */
    public boolean ofCheckpoints() {
        return checkpoint != null;
    }
}
