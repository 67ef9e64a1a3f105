package dev.paddock.worktree;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What a worktree changed since a commit ({@link WorktreeManager#changes}): git's diff against it, the untracked
 * files, and what submodules list inside themselves.
 */
final class ChangedPaths {
    private ChangedPaths() {}

    /** What {@code worktree} changed since {@code baseCommit}: see {@link WorktreeManager#changes}. */
    static WorktreeManager.ChangeList since(GitCli git, Submodules submodules, Path worktree, String baseCommit)
            throws GitException {
        List<String> added = new ArrayList<>();
        List<String> modified = new ArrayList<>();
        List<String> deleted = new ArrayList<>();
        // Tracked changes against the base, committed or not: diff of the working tree.
        String diff = git.runOk(
                worktree, "--no-optional-locks", "diff", "--name-status", "-z", "--no-renames", baseCommit, "--");
        String[] t = diff.split("\0");
        for (int i = 0; i + 1 < t.length; i += 2) {
            String code = t[i];
            String path = t[i + 1];
            if (code.startsWith("A")) {
                added.add(path);
            } else if (code.startsWith("D")) {
                deleted.add(path);
            } else {
                modified.add(path);
            }
        }
        String untracked =
                git.runOk(worktree, "--no-optional-locks", "ls-files", "--others", "--exclude-standard", "-z");
        for (String p : untracked.split("\0")) {
            if (!p.isEmpty()) {
                added.add(p);
            }
        }
        for (String line : submodules.work(worktree).paths()) { // inside submodules: git diff shows only "M lib"
            String code = line.substring(0, 2);
            String path = line.substring(3);
            (code.equals("??") || code.contains("A") ? added : code.contains("D") ? deleted : modified).add(path);
        }
        return new WorktreeManager.ChangeList(List.copyOf(added), List.copyOf(modified), List.copyOf(deleted));
    }
}
