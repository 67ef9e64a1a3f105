package dev.paddock.sandbox;

import java.time.Instant;

/**
 * A sandbox as stored (BRIEF "Objects"). Immutable snapshot; the store is the source of truth.
 *
 * @param id sandbox id, like {@code fix-auth-20261130-001}
 * @param worktreePath absolute path of its worktree, or null before creation
 * @param leaseMs lease length in ms; a running sandbox with no heartbeat for this long times out
 * @param cpuLimitNanos CPU limit in billionths of one CPU (1e9 = one CPU), or null
 * @param memoryLimitBytes memory limit in bytes (memory = memory + swap), or null
 */
public record SandboxRecord(String id, long repositoryId, String task, String agentCommand, Tier tier,
                            String branch, String baseBranch, String baseCommit, String worktreePath,
                            String containerId, SandboxState state, long version, Instant createdAt,
                            Instant startedAt, Instant finishedAt, Instant lastHeartbeatAt, String progress,
                            long leaseMs, Instant leaseExpiresAt, int iteration, int retryCount, int maxRetries,
                            Integer exitCode, String lastError, Long cpuLimitNanos, Long memoryLimitBytes,
                            Long pidsLimit) {
}
