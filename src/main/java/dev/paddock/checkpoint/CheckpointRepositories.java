package dev.paddock.checkpoint;

import dev.paddock.common.PaddockException;
import dev.paddock.repo.RepoRecord;
import dev.paddock.repo.RepoStore;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxRepositories;
import dev.paddock.sandbox.SandboxStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Where checkpoint refs live: in the repository of their sandbox (refs are shared by all its worktrees, so they
 * outlive the sandbox's worktree until Paddock deletes them).
 */
public final class CheckpointRepositories {
    private final SandboxStore sandboxes;
    private final SandboxRepositories repos;
    private final RepoStore repoStore;

    public CheckpointRepositories(SandboxStore sandboxes, SandboxRepositories repos, RepoStore repoStore) {
        this.sandboxes = sandboxes;
        this.repos = repos;
        this.repoStore = repoStore;
    }

    /** The sandbox's record, if the store has one. */
    Optional<SandboxRecord> sandbox(String sandboxId) throws PaddockException {
        return sandboxes.find(sandboxId);
    }

    /** The main worktree of the sandbox's repository, or empty when the sandbox or its repository is unknown. */
    Optional<Path> gitDirOf(String sandboxId) throws PaddockException {
        Optional<SandboxRecord> s = sandboxes.find(sandboxId);
        if (s.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(repos.of(s.get()).mainWorktree());
        } catch (PaddockException e) {
            return Optional.empty();
        }
    }

    /** The main worktrees of every registered repository that is still a folder. */
    List<Path> all() throws PaddockException {
        List<Path> dirs = new ArrayList<>();
        for (RepoRecord r : repoStore.recent()) {
            if (Files.isDirectory(r.path())) {
                dirs.add(r.path());
            }
        }
        return dirs;
    }
}
