package dev.paddock.sandbox;

import java.util.List;

/**
 * What removing a sandbox would lose, shown to a person before anything is deleted.
 *
 * @param sandboxId the sandbox
 * @param running whether its agent still runs (it is stopped first)
 * @param worktreePresent whether its worktree is still on disk
 * @param uncommitted uncommitted or untracked paths ({@code git status --porcelain} lines, e.g. {@code "?? notes.md"});
 *     for a folder that is not a git worktree (any more), the files in it (up to 200)
 * @param unmergedCommits commits of its branch that the base branch does not have ("short-id subject"), then
 *     commits that only a detached HEAD of the worktree reaches (marked "(detached HEAD)")
 * @param branchMerged whether its branch is fully merged into the base branch (then it may be deleted)
 * @param lockedReason null when the worktree is not locked; git's lock reason (possibly empty) when it is: a
 *     strict removal then refuses too
 */
public record RemovalPlan(String sandboxId, boolean running, boolean worktreePresent, List<String> uncommitted,
                          List<String> unmergedCommits, boolean branchMerged, String lockedReason) {

    /** Whether a strict removal would lose nothing. */
    public boolean losesNothing() {
        return uncommitted.isEmpty() && unmergedCommits.isEmpty();
    }

    /** Whether git has the worktree locked. */
    public boolean locked() {
        return lockedReason != null;
    }
}
