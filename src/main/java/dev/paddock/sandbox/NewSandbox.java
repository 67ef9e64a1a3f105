package dev.paddock.sandbox;

import java.nio.file.Path;

/**
 * What a person or a script asks for when creating a sandbox. Null fields take defaults: the id and
 * branch are made from the task, the base is the repository's base branch, the lease and retries come
 * from the settings.
 *
 * @param repository any path inside the repository
 * @param task what the agent is asked to do (required)
 * @param agentCommand the command line the agent runs, with {@code /bin/sh -c} (required)
 * @param tier isolation tier; null means {@link Tier#WORKTREE}
 * @param leaseMs lease in ms, or null for the default (15 min)
 * @param maxRetries automatic retries, or null for the default
 * @param network whether the namespace or container tier gives the agent a network
 */
public record NewSandbox(Path repository, String task, String agentCommand, Tier tier, String branch, String baseBranch,
                         String id, Long leaseMs, Integer maxRetries, boolean network) {

    /** A request with only the required parts; everything else defaults. */
    public static NewSandbox of(Path repository, String task, String agentCommand) {
        return new NewSandbox(repository, task, agentCommand, Tier.WORKTREE, null, null, null, null, null, false);
    }

    public NewSandbox withTier(Tier newTier) {
        return new NewSandbox(repository, task, agentCommand, newTier, branch, baseBranch, id, leaseMs, maxRetries, network);
    }

    public NewSandbox withBranch(String newBranch) {
        return new NewSandbox(repository, task, agentCommand, tier, newBranch, baseBranch, id, leaseMs, maxRetries, network);
    }

    public NewSandbox withBase(String newBase) {
        return new NewSandbox(repository, task, agentCommand, tier, branch, newBase, id, leaseMs, maxRetries, network);
    }

    public NewSandbox withId(String newId) {
        return new NewSandbox(repository, task, agentCommand, tier, branch, baseBranch, newId, leaseMs, maxRetries, network);
    }

    public NewSandbox withLeaseMs(Long newLeaseMs) {
        return new NewSandbox(repository, task, agentCommand, tier, branch, baseBranch, id, newLeaseMs, maxRetries, network);
    }

    public NewSandbox withMaxRetries(Integer newMaxRetries) {
        return new NewSandbox(repository, task, agentCommand, tier, branch, baseBranch, id, leaseMs, newMaxRetries, network);
    }

    public NewSandbox withNetwork(boolean newNetwork) {
        return new NewSandbox(repository, task, agentCommand, tier, branch, baseBranch, id, leaseMs, maxRetries, newNetwork);
    }
}
