package dev.paddock.sandbox;

import java.util.List;

/**
 * What removing a sandbox would lose, shown to a person before anything is deleted.
 *
 * @param sandboxId the sandbox
 * @param running whether its agent still runs (it is stopped first)
 * @param worktreePresent whether its worktree is still on disk
 * @param uncommitted uncommitted or untracked paths ({@code git status --porcelain} lines)
 * @param unmergedCommits commits of its branch that the base branch does not have ("short-id subject")
 * @param branchMerged whether its branch is fully merged into the base branch (then it may be deleted)
 */
public record RemovalPlan(String sandboxId, boolean running, boolean worktreePresent, List<String> uncommitted,
                          List<String> unmergedCommits, boolean branchMerged) {

    /** Whether a strict removal would lose nothing. */
    public boolean losesNothing() {
        return uncommitted.isEmpty() && unmergedCommits.isEmpty();
    }
}
