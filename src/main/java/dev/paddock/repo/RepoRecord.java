package dev.paddock.repo;

import java.nio.file.Path;
import java.time.Instant;

/**
 * A git repository registered with Paddock.
 *
 * @param id store id
 * @param path absolute path of the repository's main worktree
 * @param name display name (the directory name)
 * @param baseBranch the branch sandboxes start from and merge back into
 * @param mergeStrategy how the merge queue brings a branch up to date: {@code merge} or {@code rebase}
 * @param testCommand shell command the merge queue runs before merging, or null
 * @param lastOpenedAt when the panel last showed it (drives the recent list)
 */
public record RepoRecord(
        long id,
        Path path,
        String name,
        String baseBranch,
        String mergeStrategy,
        String testCommand,
        Instant createdAt,
        Instant lastOpenedAt) {}
