package dev.paddock.api;

import dev.paddock.sandbox.SandboxRecord;
import java.time.Instant;

/**
 * A sandbox as the API shows it ({@code GET /v1/sandboxes}, {@code POST /v1/sandboxes}, ...) and the CLI
 * reads it back. Its field names are a public interface: add fields, never rename them. Times are UTC
 * (ISO-8601); {@code tier} and {@code state} are the lower-case names ({@code worktree},
 * {@code awaiting_human}). The sandbox's token is never shown.
 *
 * @param worktreePath absolute path of the worktree, {@code <repo>/.worktrees/<id>/<branch>}
 * @param leaseMs lease length in ms
 * @param leaseExpiresAt when a running sandbox times out without a heartbeat, or null
 * @param pid process id of the running agent's wrapper, or null
 * @param agent the agent preset ({@code claude}, ..., {@code custom})
 * @param model the model asked for, or null for the agent's default
 * @param agentSession the session id of the last run (Claude Code's, chosen by Paddock), or null
 * @param group the id of the fan-out it was made in ({@code sandbox new --agents}), shared by its sandboxes; null for
 *     a sandbox made on its own
 */
public record SandboxView(String id, long repositoryId, String task, String agentCommand, String tier,
                          String state, String branch, String baseBranch, String baseCommit, String worktreePath,
                          Instant createdAt, Instant startedAt, Instant finishedAt, Instant stateChangedAt,
                          Instant lastHeartbeatAt, String progress, long leaseMs, Instant leaseExpiresAt,
                          int iteration, int retryCount, int maxRetries, Long pid, Integer exitCode,
                          String lastError, boolean networkGranted, String containerId, String image,
                          Long cpuLimitNanos, Long memoryLimitBytes, Long pidsLimit, String agent, String model,
                          String agentSession, String group) {

    /** The view of a stored sandbox. */
    public static SandboxView of(SandboxRecord s) {
        return new SandboxView(s.id(), s.repositoryId(), s.task(), s.agentCommand(), s.tier().id(), s.state().id(),
                s.branch(), s.baseBranch(), s.baseCommit(), s.worktreePath(), s.createdAt(), s.startedAt(),
                s.finishedAt(), s.stateChangedAt(), s.lastHeartbeatAt(), s.progress(), s.leaseMs(),
                s.leaseExpiresAt(), s.iteration(), s.retryCount(), s.maxRetries(), s.pid(), s.exitCode(),
                s.lastError(), s.networkGranted(), s.containerId(), s.image(), s.cpuLimitNanos(),
                s.memoryLimitBytes(), s.pidsLimit(), s.agent(), s.model(), s.agentSession(), s.group());
    }
}
