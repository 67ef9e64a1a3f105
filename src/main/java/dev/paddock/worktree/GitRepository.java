package dev.paddock.worktree;

import java.nio.file.Path;

/**
 * A non-bare git repository located on disk.
 *
 * @param mainWorktree absolute path of the main worktree (where {@code .git} lives)
 * @param commonDir absolute path of the common git directory shared by all worktrees
 * @param currentBranch the branch checked out in the main worktree, or null when detached
 */
public record GitRepository(Path mainWorktree, Path commonDir, String currentBranch) {}
