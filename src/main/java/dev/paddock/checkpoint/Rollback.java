package dev.paddock.checkpoint;

import java.util.List;

/**
 * What a rollback did.
 *
 * @param sandboxId the sandbox
 * @param to the checkpoint its worktree now holds
 * @param before the checkpoint taken just before, which undoes the rollback
 * @param stopped whether its agent was stopped for it
 * @param restored paths written back from the checkpoint (deleted or changed since)
 * @param removed paths deleted (added since)
 * @param kept paths added since that were left in place (non-empty folders such as a submodule's)
 * @param branchFrom when the branch was reset too: the commit it named before; else null
 * @param branchTo when the branch was reset too: the commit it names now (the checkpoint's HEAD); else null
 */
public record Rollback(
        String sandboxId,
        int to,
        Checkpoint before,
        boolean stopped,
        List<String> restored,
        List<String> removed,
        List<String> kept,
        String branchFrom,
        String branchTo) {
    /** Whether the branch was moved as well as the files. */
    public boolean branchReset() {
        return branchTo != null;
    }
}
