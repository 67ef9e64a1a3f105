package dev.paddock.worktree;

import java.nio.file.Path;
import java.util.Optional;

/**
 * What a branch made since a commit, as git counts it: its commits ({@code git rev-list --count FROM..BRANCH}) and
 * its diff ({@code git diff --numstat FROM BRANCH}: files, lines added and deleted; a binary file counts as a file
 * with no lines).
 *
 * @param commits commits on the branch that {@code from} does not contain
 * @param files files the diff touches
 * @param added lines added
 * @param deleted lines deleted
 */
public record BranchStats(int commits, int files, long added, long deleted) {
    /**
     * The stats of {@code branch} since {@code from}, read in {@code repo}; empty when the branch or the commit is
     * not there (a branch deleted with its sandbox).
     *
     * @throws GitException when git cannot be run
     */
    public static Optional<BranchStats> of(GitCli git, Path repo, String from, String branch) throws GitException {
        String tip = WorktreeManager.HEADS + branch;
        if (from == null
                || !git.run(repo, "rev-parse", "--verify", "--quiet", tip + "^{commit}")
                        .ok()
                || !git.run(repo, "rev-parse", "--verify", "--quiet", from + "^{commit}")
                        .ok()) {
            return Optional.empty();
        }
        int commits = Integer.parseInt(
                git.runOk(repo, "rev-list", "--count", from + ".." + tip).strip());
        String numstat =
                git.runOk(repo, "-c", "core.quotePath=false", "diff", "--numstat", "--no-renames", from, tip, "--");
        int files = 0;
        long added = 0;
        long deleted = 0;
        for (String line : numstat.split("\n")) {
            String[] f = line.split("\t", 3);
            if (f.length < 3) {
                continue;
            }
            files++;
            added += f[0].equals("-") ? 0 : Long.parseLong(f[0]);
            deleted += f[1].equals("-") ? 0 : Long.parseLong(f[1]);
        }
        return Optional.of(new BranchStats(commits, files, added, deleted));
    }
}
