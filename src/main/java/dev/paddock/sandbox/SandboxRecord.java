package dev.paddock.sandbox;

import java.nio.file.Path;
import java.time.Instant;

/**
 * A sandbox as stored. An immutable snapshot; the store is the source of truth and
 * every change goes through {@link SandboxStore}. The API token is not part of it on purpose.
 *
 * @param id sandbox id, like {@code fix-auth-20261130-001}
 * @param repositoryId store id of the repository
 * @param task what the agent was asked to do
 * @param agentCommand shell command line the agent runs with ({@code /bin/sh -c})
 * @param branch the sandbox's branch
 * @param baseBranch branch it started from and merges back into
 * @param baseCommit commit id of {@code baseBranch} when the sandbox was created
 * @param worktreePath absolute path of its worktree ({@code <repo>/.worktrees/<id>/<branch>})
 * @param version bumped by every transition; transitions compare and set it
 * @param pid process id of the running agent (of its wrapper), or null
 * @param pidStartedAt when that process started (tells a reused pid apart), or null
 * @param leaseMs lease length in ms; a running sandbox with no heartbeat for this long times out
 * @param leaseExpiresAt when the lease runs out, or null when not running
 * @param iteration how many times the agent was started
 * @param retryCount automatic retries used so far
 * @param maxRetries automatic retries allowed before a person is asked
 * @param exitCode exit code of the last run, or null
 * @param lastError why the last run failed or was stopped, or null
 * @param networkGranted whether the namespace and container tiers give it a network
 * @param cpuLimitNanos CPU limit in billionths of one CPU (1e9 = one CPU), or null
 * @param memoryLimitBytes memory limit in bytes (memory = memory + swap), or null
 * @param pidsLimit process limit, or null
 * @param nofileLimit open files per process (container tier), or null
 * @param image the container image (container tier: the sandbox's own or the repository's at creation), or null
 * @param agent the agent preset ({@code claude}, {@code codex}, {@code gemini}, {@code aider}, {@code custom}); a
 *     {@code custom} agent runs {@code agentCommand}, the others the preset's command line for the task
 * @param model the model asked for (the preset's {@code --model}), or null for the agent's default
 * @param agentSession the session id of the last run (Claude Code's {@code --session-id}, chosen by Paddock before
 *     the run starts), or null
 */
public record SandboxRecord(String id, long repositoryId, String task, String agentCommand, Tier tier,
                            String branch, String baseBranch, String baseCommit, String worktreePath,
                            String containerId, SandboxState state, long version, Instant createdAt,
                            Instant startedAt, Instant finishedAt, Instant stateChangedAt, Instant lastHeartbeatAt,
                            String progress, long leaseMs, Instant leaseExpiresAt, int iteration, int retryCount,
                            int maxRetries, Long pid, Instant pidStartedAt, Integer exitCode, String lastError,
                            boolean networkGranted, Long cpuLimitNanos, Long memoryLimitBytes, Long pidsLimit,
                            Long nofileLimit, String image, String agent, String model, String agentSession) {
    /** The preset name of a sandbox whose agent is its own command line. */
    public static final String CUSTOM_AGENT = "custom";

    public SandboxRecord {
        agent = agent == null || agent.isBlank() ? CUSTOM_AGENT : agent;
    }

    /** A sandbox whose agent is its own command line ({@value #CUSTOM_AGENT}). */
    public SandboxRecord(String id, long repositoryId, String task, String agentCommand, Tier tier,
                         String branch, String baseBranch, String baseCommit, String worktreePath,
                         String containerId, SandboxState state, long version, Instant createdAt,
                         Instant startedAt, Instant finishedAt, Instant stateChangedAt, Instant lastHeartbeatAt,
                         String progress, long leaseMs, Instant leaseExpiresAt, int iteration, int retryCount,
                         int maxRetries, Long pid, Instant pidStartedAt, Integer exitCode, String lastError,
                         boolean networkGranted, Long cpuLimitNanos, Long memoryLimitBytes, Long pidsLimit,
                         Long nofileLimit, String image) {
        this(id, repositoryId, task, agentCommand, tier, branch, baseBranch, baseCommit, worktreePath, containerId,
                state, version, createdAt, startedAt, finishedAt, stateChangedAt, lastHeartbeatAt, progress, leaseMs,
                leaseExpiresAt, iteration, retryCount, maxRetries, pid, pidStartedAt, exitCode, lastError,
                networkGranted, cpuLimitNanos, memoryLimitBytes, pidsLimit, nofileLimit, image, CUSTOM_AGENT, null,
                null);
    }


    /** The worktree as a path, or null when it has none yet. */
    public Path worktree() {
        return worktreePath == null ? null : Path.of(worktreePath);
    }
}
