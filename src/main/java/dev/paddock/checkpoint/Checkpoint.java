package dev.paddock.checkpoint;

import java.time.Instant;

/**
 * One checkpoint of a sandbox: a snapshot of its worktree's working state (tracked and untracked files, not ignored
 * ones) kept as a git commit on {@code refs/paddock/checkpoints/<sandbox>/<number>}.
 *
 * @param sandboxId the sandbox
 * @param number 1, 2, ... in the order they were taken
 * @param commit the snapshot commit
 * @param tree the snapshot's tree
 * @param head the commit the sandbox's branch (its worktree's HEAD) pointed at then, or null
 * @param ref the private ref holding the commit
 * @param message why it was taken ("turn ended", "before rollback to 3", the agent's words)
 * @param turn the agent's turn that ended, for an automatic checkpoint that knows it; else null
 * @param changes what changed since the checkpoint before it (since HEAD for the first; since what a rollback wrote
 *     when one came between)
 * @param createdAt when it was taken
 */
public record Checkpoint(
        String sandboxId,
        int number,
        String commit,
        String tree,
        String head,
        String ref,
        String message,
        Integer turn,
        CheckpointChanges changes,
        Instant createdAt) {}
