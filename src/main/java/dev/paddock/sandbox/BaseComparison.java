package dev.paddock.sandbox;

import dev.paddock.worktree.GitException;
import dev.paddock.worktree.WorktreeManager;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What a sandbox's branch is compared with when it is removed: its base branch while that is a local branch, else
 * the commit the sandbox started from ({@code base_commit}, recorded at creation). So removal never depends on a
 * ref that may vanish: a base branch deleted since, or a base recorded before bases had to be branches
 * ({@code HEAD}, a commit id, {@code origin/main}). Against the start commit, every commit the branch made since
 * counts as unmerged (where else it went is not known), and the branch is merged only when it made none.
 *
 * @param revision what git compares with: {@code refs/heads/<base>} or a commit id
 * @param label how people read it: the branch name, or {@code "the commit abc12345 it started from"}
 * @param isBranch whether {@code revision} is the base branch
 */
record BaseComparison(String revision, String label, boolean isBranch) {

    /** The comparison for {@code s}; empty when its base is no branch and its start commit is unknown here. */
    static Optional<BaseComparison> of(WorktreeManager worktrees, Path main, SandboxRecord s) throws GitException {
        String base = s.workspace().baseBranch();
        if (base != null && !base.isBlank() && !base.startsWith("-") && worktrees.branchExists(main, base)) {
            return Optional.of(new BaseComparison(WorktreeManager.HEADS + base, base, true));
        }
        if (s.workspace().baseCommit() == null || s.workspace().baseCommit().isBlank()) {
            return Optional.empty();
        }
        try {
            String commit = worktrees.resolveCommit(main, s.workspace().baseCommit());
            return Optional.of(new BaseComparison(
                    commit, "the commit " + SandboxCreator.shortId(commit) + " it started from", false));
        } catch (GitException e) {
            return Optional.empty(); // the start commit is gone (a history rewrite and a gc)
        }
    }
}
