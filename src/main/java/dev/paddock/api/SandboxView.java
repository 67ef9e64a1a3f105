package dev.paddock.api;

import dev.paddock.container.ResourceLimits;
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
 * @param engine the Docker engine a container sandbox runs on ({@code local} for the docker CLI's choice), null for
 *     the other tiers
 * @param group the id of the fan-out it was made in ({@code sandbox new --agents}), shared by its sandboxes; null for
 *     a sandbox made on its own
 */
public record SandboxView(
        String id,
        long repositoryId,
        String task,
        String agentCommand,
        String tier,
        String state,
        String branch,
        String baseBranch,
        String baseCommit,
        String worktreePath,
        Instant createdAt,
        Instant startedAt,
        Instant finishedAt,
        Instant stateChangedAt,
        Instant lastHeartbeatAt,
        String progress,
        long leaseMs,
        Instant leaseExpiresAt,
        int iteration,
        int retryCount,
        int maxRetries,
        Long pid,
        Integer exitCode,
        String lastError,
        boolean networkGranted,
        String containerId,
        String image,
        Long cpuLimitNanos,
        Long memoryLimitBytes,
        Long pidsLimit,
        String agent,
        String model,
        String agentSession,
        String group,
        boolean engineUnreachable,
        String engine) {

    /** The view of a stored sandbox, with nothing known of the Docker engine. */
    public static SandboxView of(SandboxRecord s) {
        return of(s, false);
    }

    /**
     * The view of a stored sandbox; {@code engineAway}: the Docker engine does not answer (or has not yet), so a
     * pending, running or retrying container sandbox's state is not known ({@code engineUnreachable}, as in the
     * status).
     */
    public static SandboxView of(SandboxRecord s, boolean engineAway) {
        SandboxRecord.Spec spec = s.spec();
        SandboxRecord.Workspace ws = s.workspace();
        SandboxRecord.Lease lease = s.lease();
        SandboxRecord.Run run = s.run();
        ResourceLimits limits = s.limits();
        return new SandboxView(
                s.id(),
                s.repositoryId(),
                spec.task(),
                spec.agentCommand(),
                spec.tier().id(),
                s.state().id(),
                ws.branch(),
                ws.baseBranch(),
                ws.baseCommit(),
                ws.worktreePath(),
                s.createdAt(),
                run.startedAt(),
                run.finishedAt(),
                s.stateChangedAt(),
                lease.lastHeartbeatAt(),
                lease.progress(),
                lease.ms(),
                lease.expiresAt(),
                run.iteration(),
                run.retryCount(),
                run.maxRetries(),
                s.runRef().pid(),
                run.exitCode(),
                run.lastError(),
                spec.networkGranted(),
                s.runRef().engineId(),
                spec.image(),
                limits == null ? null : limits.nanoCpus(),
                limits == null ? null : limits.memoryBytes(),
                limits == null ? null : limits.pids(),
                spec.agent(),
                spec.model(),
                run.agentSession(),
                spec.group(),
                engineAway && s.stateNeedsTheEngine(),
                spec.tier() == dev.paddock.sandbox.Tier.CONTAINER
                        ? dev.paddock.isolation.Engines.stored(spec.engine())
                                .orElse(dev.paddock.isolation.Engines.LOCAL)
                        : null);
    }
}
