package dev.paddock.worktree;

import java.time.Instant;
import java.util.List;

/**
 * What a {@link WorktreeMonitor} last saw of a repository. Immutable; safe to hand to the UI.
 *
 * @param repositoryId store id of the repository
 * @param worktrees the worktrees, main first, in git's order
 * @param takenAt when the listing was taken
 * @param error null when the listing worked; otherwise why it failed (the worktrees are then the last
 *     good ones)
 */
public record WorktreeSnapshot(long repositoryId, List<WorktreeInfo> worktrees, Instant takenAt, String error) {
    public WorktreeSnapshot {
        worktrees = List.copyOf(worktrees);
    }
}
