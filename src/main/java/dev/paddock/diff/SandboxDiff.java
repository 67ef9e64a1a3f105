package dev.paddock.diff;

import java.util.List;

/**
 * A sandbox's change against its base: the files (with their counts, no text) and the commits on its branch since the
 * base commit.
 *
 * @param sandboxId the sandbox
 * @param baseCommit the commit the diff is taken against (the sandbox's base, or a commit's parent)
 * @param headDescription what the new side is: the worktree's state, or one commit
 * @param files the changed files, by path
 * @param commits the commits on the branch since the base, newest first
 * @param totalAdded lines added over all files
 * @param totalDeleted lines deleted over all files
 * @param snapshot the id of the tree the new side was read as (the worktree's state at that moment); a file's patch
 *     asked with it ({@link DiffOptions#at}) shows that same state
 */
public record SandboxDiff(
        String sandboxId,
        String baseCommit,
        String headDescription,
        List<FileChange> files,
        List<CommitSummary> commits,
        int totalAdded,
        int totalDeleted,
        String snapshot) {

    public SandboxDiff {
        files = List.copyOf(files);
        commits = List.copyOf(commits);
    }
}
