package dev.paddock.sandbox;

import dev.paddock.common.PaddockException;
import dev.paddock.repo.RepoRecord;
import dev.paddock.repo.RepoStore;
import dev.paddock.worktree.GitException;
import dev.paddock.worktree.GitRepository;
import dev.paddock.worktree.RepositoryLocator;

/**
 * Finds the repository a sandbox belongs to: its store record, and where it is on disk now (located
 * with git at every call, so a repository that moved or vanished is noticed).
 */
public final class SandboxRepositories {
    private final RepoStore repos;
    private final RepositoryLocator locator;

    public SandboxRepositories(RepoStore repos, RepositoryLocator locator) {
        this.repos = repos;
        this.locator = locator;
    }

    /**
     * The registered repository with this store id.
     *
     * @throws SandboxException when it is not registered (any more)
     */
    public RepoRecord record(long repositoryId) throws PaddockException {
        return repos.find(repositoryId)
                .orElseThrow(
                        () -> new SandboxException("Repository " + repositoryId + " is not registered with Paddock."));
    }

    /**
     * The repository of a sandbox, located on disk.
     *
     * @throws SandboxException when it is not registered or git cannot read it (the message names its path)
     */
    public GitRepository of(SandboxRecord s) throws PaddockException {
        RepoRecord repo = record(s.repositoryId());
        try {
            return locator.locate(repo.path());
        } catch (GitException e) {
            throw new SandboxException(
                    "The repository of " + s.id() + " (" + repo.path() + ") cannot be read: " + e.getMessage(), e);
        }
    }
}
