package dev.paddock.sandbox;

import dev.paddock.container.ResourceLimits;
import java.nio.file.Path;

/**
 * What a person or a script asks for when creating a sandbox. Null fields take defaults: the id and
 * branch are made from the task, the base is the repository's base branch, the lease and retries come
 * from the settings, the image is the repository's, the limits are {@link ResourceLimits#DEFAULTS}.
 *
 * @param repository any path inside the repository
 * @param task what the agent is asked to do (required)
 * @param agentCommand the command line a {@code custom} agent runs, with {@code /bin/sh -c} (required for it; refused
 *     with another preset, whose command line Paddock builds)
 * @param tier isolation tier; null means the agent's default ({@link Tier#WORKTREE} for a custom command, the
 *     preset's otherwise: {@code worktree} for Claude Code, whose hook asks Paddock, {@code namespace} for the others)
 * @param leaseMs lease in ms, or null for the default (15 min)
 * @param maxRetries automatic retries, or null for the default
 * @param network whether the namespace or container tier gives the agent a network
 * @param image container tier: the image to use instead of the repository's, or null
 * @param limits container tier: CPU, memory, pids and open-file limits, or null for the defaults
 * @param agent the agent preset ({@code claude}, {@code codex}, {@code gemini}, {@code aider}, {@code custom}); null
 *     means {@code custom}
 * @param model the model for the preset's {@code --model}, or null for the agent's default
 */
public record NewSandbox(Path repository, String task, String agentCommand, Tier tier, String branch, String baseBranch,
                         String id, Long leaseMs, Integer maxRetries, boolean network, String image,
                         ResourceLimits limits, String agent, String model) {

    /** A request for a {@code custom} agent (its own command line). */
    public NewSandbox(Path repository, String task, String agentCommand, Tier tier, String branch, String baseBranch,
                      String id, Long leaseMs, Integer maxRetries, boolean network, String image,
                      ResourceLimits limits) {
        this(repository, task, agentCommand, tier, branch, baseBranch, id, leaseMs, maxRetries, network, image, limits,
                null, null);
    }

    /** A request without image or limits (the defaults). */
    public NewSandbox(Path repository, String task, String agentCommand, Tier tier, String branch, String baseBranch,
                      String id, Long leaseMs, Integer maxRetries, boolean network) {
        this(repository, task, agentCommand, tier, branch, baseBranch, id, leaseMs, maxRetries, network, null, null);
    }

    /** A request with only the required parts; everything else defaults. */
    public static NewSandbox of(Path repository, String task, String agentCommand) {
        return new NewSandbox(repository, task, agentCommand, Tier.WORKTREE, null, null, null, null, null, false);
    }

    public NewSandbox withTier(Tier newTier) {
        return new NewSandbox(repository, task, agentCommand, newTier, branch, baseBranch, id, leaseMs, maxRetries,
                network, image, limits, agent, model);
    }

    public NewSandbox withBranch(String newBranch) {
        return new NewSandbox(repository, task, agentCommand, tier, newBranch, baseBranch, id, leaseMs, maxRetries,
                network, image, limits, agent, model);
    }

    public NewSandbox withBase(String newBase) {
        return new NewSandbox(repository, task, agentCommand, tier, branch, newBase, id, leaseMs, maxRetries, network,
                image, limits, agent, model);
    }

    public NewSandbox withId(String newId) {
        return new NewSandbox(repository, task, agentCommand, tier, branch, baseBranch, newId, leaseMs, maxRetries,
                network, image, limits, agent, model);
    }

    public NewSandbox withLeaseMs(Long newLeaseMs) {
        return new NewSandbox(repository, task, agentCommand, tier, branch, baseBranch, id, newLeaseMs, maxRetries,
                network, image, limits, agent, model);
    }

    public NewSandbox withMaxRetries(Integer newMaxRetries) {
        return new NewSandbox(repository, task, agentCommand, tier, branch, baseBranch, id, leaseMs, newMaxRetries,
                network, image, limits, agent, model);
    }

    public NewSandbox withNetwork(boolean newNetwork) {
        return new NewSandbox(repository, task, agentCommand, tier, branch, baseBranch, id, leaseMs, maxRetries,
                newNetwork, image, limits, agent, model);
    }

    /** Container tier: this image instead of the repository's. */
    public NewSandbox withImage(String newImage) {
        return new NewSandbox(repository, task, agentCommand, tier, branch, baseBranch, id, leaseMs, maxRetries,
                network, newImage, limits, agent, model);
    }

    /** This agent preset and model (null: the agent's default) instead of a custom command. */
    public NewSandbox withAgent(String newAgent, String newModel) {
        return new NewSandbox(repository, task, agentCommand, tier, branch, baseBranch, id, leaseMs, maxRetries,
                network, image, limits, newAgent, newModel);
    }

    /** Container tier: these limits instead of the defaults. */
    public NewSandbox withLimits(ResourceLimits newLimits) {
        return new NewSandbox(repository, task, agentCommand, tier, branch, baseBranch, id, leaseMs, maxRetries,
                network, image, newLimits, agent, model);
    }
}
