package dev.paddock.sandbox;

import java.util.List;

/**
 * What removing a sandbox would lose, shown to a person before anything is deleted.
 *
 * @param sandboxId the sandbox
 * @param running whether its agent still runs (it is stopped first)
 * @param worktreePresent whether its worktree is still on disk
 * @param uncommitted uncommitted or untracked paths ({@code git status --porcelain} lines, e.g. {@code "?? notes.md"}),
 *     then those inside its submodules (e.g. {@code " M lib/a.txt"}, and every file in the folder of a submodule
 *     that is not initialised, which git does not see: {@code "?? lib/notes.md"}); for a folder that is not a git
 *     worktree (any more), the files in it (up to 200)
 * @param unmergedCommits commits of its branch that the base does not have ("short-id subject"), then commits that
 *     only a detached HEAD of the worktree reaches (marked "(detached HEAD)")
 * @param branchMerged whether its branch is fully merged into the base (then it may be deleted)
 * @param lockedReason null when the worktree is not locked; git's lock reason (possibly empty) when it is: a
 *     strict removal then refuses too
 * @param submoduleCommits commits that only the worktree's submodule repositories hold (no remote-tracking branch of
 *     the submodule has them), as {@code "lib: abc1234 subject"}: removing the worktree deletes those repositories
 * @param comparedWith what {@code unmergedCommits} were counted against: the base branch, or, when that is no
 *     branch (any more), the commit the sandbox started from ({@code "the commit abc12345 it started from"});
 *     null when unknown
 * @param ignored the files git ignores in the worktree (build output): never counted as lost, but they go with it
 */
public record RemovalPlan(
        String sandboxId,
        boolean running,
        boolean worktreePresent,
        List<String> uncommitted,
        List<String> unmergedCommits,
        boolean branchMerged,
        String lockedReason,
        List<String> submoduleCommits,
        String comparedWith,
        IgnoredFiles ignored) {

    public RemovalPlan {
        submoduleCommits = submoduleCommits == null ? List.of() : List.copyOf(submoduleCommits);
        ignored = ignored == null ? IgnoredFiles.NONE : ignored;
    }

    /** A plan that does not say what ignored files go. */
    public RemovalPlan(
            String sandboxId,
            boolean running,
            boolean worktreePresent,
            List<String> uncommitted,
            List<String> unmergedCommits,
            boolean branchMerged,
            String lockedReason,
            List<String> submoduleCommits,
            String comparedWith) {
        this(
                sandboxId,
                running,
                worktreePresent,
                uncommitted,
                unmergedCommits,
                branchMerged,
                lockedReason,
                submoduleCommits,
                comparedWith,
                IgnoredFiles.NONE);
    }

    /** A plan without submodule commits, its base unnamed. */
    public RemovalPlan(
            String sandboxId,
            boolean running,
            boolean worktreePresent,
            List<String> uncommitted,
            List<String> unmergedCommits,
            boolean branchMerged,
            String lockedReason) {
        this(
                sandboxId,
                running,
                worktreePresent,
                uncommitted,
                unmergedCommits,
                branchMerged,
                lockedReason,
                List.of(),
                null);
    }

    /** Whether a strict removal would lose nothing. */
    public boolean losesNothing() {
        return uncommitted.isEmpty() && unmergedCommits.isEmpty() && submoduleCommits.isEmpty();
    }

    /** Whether git has the worktree locked. */
    public boolean locked() {
        return lockedReason != null;
    }
}
