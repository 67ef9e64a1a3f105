package dev.paddock.sandbox;

import dev.paddock.common.PaddockException;
import dev.paddock.worktree.GitException;
import dev.paddock.worktree.WorktreeManager;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The base of a new sandbox: the local branch its work is compared with and merged back into, and the commit it
 * starts from. A base must be a local branch: a sandbox's branch is merged back into it, its removal asks which
 * commits that branch lacks, and merging into a detached HEAD, a tag, a commit id or a remote-tracking branch
 * (which only {@code git fetch} moves) means nothing. What a person may type is resolved to that branch:
 * {@code main}, {@code refs/heads/main}, {@code heads/main}, {@code HEAD} while the main worktree is on a branch
 * (that branch), {@code @{-1}}. The commit is recorded too ({@code base_commit}), so that removing the sandbox never
 * depends on the branch still existing.
 *
 * @param branch the local branch's short name ({@code main}, {@code release/2.x})
 * @param commit the commit id the branch pointed at when the sandbox was created
 */
record SandboxBase(String branch, String commit) {

    /**
     * Resolves what was asked for as base.
     *
     * @param repo the repository's main worktree
     * @param asked the base as given (not blank)
     * @throws SandboxException when it names something other than a local branch (saying what it is and what to
     *     give instead)
     * @throws GitException when it names nothing git knows
     */
    static SandboxBase resolve(WorktreeManager worktrees, Path repo, String asked) throws PaddockException {
        String base = asked.strip();
        String branch = null;
        // A local branch wins over a tag of the same name: a base is always a branch.
        if (!base.startsWith("-") && worktrees.branchExists(repo, base)) {
            branch = base;
        } else {
            Optional<String> full = worktrees.fullRefName(repo, base);
            if (full.isPresent() && full.get().startsWith(WorktreeManager.HEADS)) {
                branch = full.get().substring(WorktreeManager.HEADS.length());
            } else {
                throw new SandboxException(notABranch(worktrees, repo, base, full.orElse(null)));
            }
        }
        return new SandboxBase(branch, worktrees.resolveCommit(repo, WorktreeManager.HEADS + branch));
    }

    private static String notABranch(WorktreeManager worktrees, Path repo, String base, String full)
            throws GitException {
        String fix = " Give a local branch as the base (e.g. main)";
        if (full == null) {
            String commit = worktrees.resolveCommit(repo, base); // "names no commit" when it names nothing at all
            return "The base \"" + base + "\" names the commit " + SandboxCreator.shortId(commit) + ", not a branch:"
                    + " a sandbox's work is merged back into its base branch." + fix + "; to start from that commit,"
                    + " make a branch there first (git branch NAME " + base + ") and give NAME.";
        }
        if (full.equals("HEAD")) {
            return "The base \"" + base + "\" is a detached HEAD in " + repo + ": there is no branch to merge the"
                    + " sandbox's work back into." + fix + ", or make a branch at HEAD first (git branch NAME HEAD).";
        }
        if (full.startsWith("refs/remotes/")) {
            String remote = full.substring("refs/remotes/".length());
            return "The base \"" + base + "\" is the remote-tracking branch " + remote + ": only git fetch moves it,"
                    + " so a sandbox cannot be merged back into it." + fix + " that follows it (after git pull), or"
                    + " make one: git branch --track NAME " + remote + ".";
        }
        if (full.startsWith("refs/tags/")) {
            return "The base \"" + base + "\" is the tag " + full.substring("refs/tags/".length()) + ", not a branch."
                    + fix + ", or make a branch at the tag first (git branch NAME " + base + ").";
        }
        return "The base \"" + base + "\" is the ref " + full + ", not a local branch." + fix + ".";
    }
}
