package dev.paddock.sandbox;

import java.nio.file.Path;
import java.time.Instant;

/**
 * A sandbox as stored. An immutable snapshot; the store is the source of truth and
 * every change goes through {@link SandboxStore}. The API token is not part of it on purpose.
 * Built by naming its fields ({@link #builder()}, {@link #toBuilder()} for a changed copy), never by position.
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
 * @param group the fan-out it was made in ({@code sandbox new --agents}): the id its sandboxes share, or null for a
 *     sandbox made on its own
 */
public record SandboxRecord(String id, long repositoryId, String task, String agentCommand, Tier tier,
                            String branch, String baseBranch, String baseCommit, String worktreePath,
                            String containerId, SandboxState state, long version, Instant createdAt,
                            Instant startedAt, Instant finishedAt, Instant stateChangedAt, Instant lastHeartbeatAt,
                            String progress, long leaseMs, Instant leaseExpiresAt, int iteration, int retryCount,
                            int maxRetries, Long pid, Instant pidStartedAt, Integer exitCode, String lastError,
                            boolean networkGranted, Long cpuLimitNanos, Long memoryLimitBytes, Long pidsLimit,
                            Long nofileLimit, String image, String agent, String model, String agentSession,
                            String group) {
    /** The preset name of a sandbox whose agent is its own command line. */
    public static final String CUSTOM_AGENT = "custom";

    public SandboxRecord {
        agent = agent == null || agent.isBlank() ? CUSTOM_AGENT : agent;
    }

    /** A builder with every field unset (null, zero or false). */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this record's fields, to make a changed copy. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.id = id;
        b.repositoryId = repositoryId;
        b.task = task;
        b.agentCommand = agentCommand;
        b.tier = tier;
        b.branch = branch;
        b.baseBranch = baseBranch;
        b.baseCommit = baseCommit;
        b.worktreePath = worktreePath;
        b.containerId = containerId;
        b.state = state;
        b.version = version;
        b.createdAt = createdAt;
        b.startedAt = startedAt;
        b.finishedAt = finishedAt;
        b.stateChangedAt = stateChangedAt;
        b.lastHeartbeatAt = lastHeartbeatAt;
        b.progress = progress;
        b.leaseMs = leaseMs;
        b.leaseExpiresAt = leaseExpiresAt;
        b.iteration = iteration;
        b.retryCount = retryCount;
        b.maxRetries = maxRetries;
        b.pid = pid;
        b.pidStartedAt = pidStartedAt;
        b.exitCode = exitCode;
        b.lastError = lastError;
        b.networkGranted = networkGranted;
        b.cpuLimitNanos = cpuLimitNanos;
        b.memoryLimitBytes = memoryLimitBytes;
        b.pidsLimit = pidsLimit;
        b.nofileLimit = nofileLimit;
        b.image = image;
        b.agent = agent;
        b.model = model;
        b.agentSession = agentSession;
        b.group = group;
        return b;
    }

    /** Builds a {@link SandboxRecord} by naming its fields; unset ones are null, zero or false. */
    public static final class Builder {
        private String id;
        private long repositoryId;
        private String task;
        private String agentCommand;
        private Tier tier;
        private String branch;
        private String baseBranch;
        private String baseCommit;
        private String worktreePath;
        private String containerId;
        private SandboxState state;
        private long version;
        private Instant createdAt;
        private Instant startedAt;
        private Instant finishedAt;
        private Instant stateChangedAt;
        private Instant lastHeartbeatAt;
        private String progress;
        private long leaseMs;
        private Instant leaseExpiresAt;
        private int iteration;
        private int retryCount;
        private int maxRetries;
        private Long pid;
        private Instant pidStartedAt;
        private Integer exitCode;
        private String lastError;
        private boolean networkGranted;
        private Long cpuLimitNanos;
        private Long memoryLimitBytes;
        private Long pidsLimit;
        private Long nofileLimit;
        private String image;
        private String agent;
        private String model;
        private String agentSession;
        private String group;

        private Builder() {
        }

        public Builder id(String value) {
            this.id = value;
            return this;
        }

        public Builder repositoryId(long value) {
            this.repositoryId = value;
            return this;
        }

        public Builder task(String value) {
            this.task = value;
            return this;
        }

        public Builder agentCommand(String value) {
            this.agentCommand = value;
            return this;
        }

        public Builder tier(Tier value) {
            this.tier = value;
            return this;
        }

        public Builder branch(String value) {
            this.branch = value;
            return this;
        }

        public Builder baseBranch(String value) {
            this.baseBranch = value;
            return this;
        }

        public Builder baseCommit(String value) {
            this.baseCommit = value;
            return this;
        }

        public Builder worktreePath(String value) {
            this.worktreePath = value;
            return this;
        }

        public Builder containerId(String value) {
            this.containerId = value;
            return this;
        }

        public Builder state(SandboxState value) {
            this.state = value;
            return this;
        }

        public Builder version(long value) {
            this.version = value;
            return this;
        }

        public Builder createdAt(Instant value) {
            this.createdAt = value;
            return this;
        }

        public Builder startedAt(Instant value) {
            this.startedAt = value;
            return this;
        }

        public Builder finishedAt(Instant value) {
            this.finishedAt = value;
            return this;
        }

        public Builder stateChangedAt(Instant value) {
            this.stateChangedAt = value;
            return this;
        }

        public Builder lastHeartbeatAt(Instant value) {
            this.lastHeartbeatAt = value;
            return this;
        }

        public Builder progress(String value) {
            this.progress = value;
            return this;
        }

        public Builder leaseMs(long value) {
            this.leaseMs = value;
            return this;
        }

        public Builder leaseExpiresAt(Instant value) {
            this.leaseExpiresAt = value;
            return this;
        }

        public Builder iteration(int value) {
            this.iteration = value;
            return this;
        }

        public Builder retryCount(int value) {
            this.retryCount = value;
            return this;
        }

        public Builder maxRetries(int value) {
            this.maxRetries = value;
            return this;
        }

        public Builder pid(Long value) {
            this.pid = value;
            return this;
        }

        public Builder pidStartedAt(Instant value) {
            this.pidStartedAt = value;
            return this;
        }

        public Builder exitCode(Integer value) {
            this.exitCode = value;
            return this;
        }

        public Builder lastError(String value) {
            this.lastError = value;
            return this;
        }

        public Builder networkGranted(boolean value) {
            this.networkGranted = value;
            return this;
        }

        public Builder cpuLimitNanos(Long value) {
            this.cpuLimitNanos = value;
            return this;
        }

        public Builder memoryLimitBytes(Long value) {
            this.memoryLimitBytes = value;
            return this;
        }

        public Builder pidsLimit(Long value) {
            this.pidsLimit = value;
            return this;
        }

        public Builder nofileLimit(Long value) {
            this.nofileLimit = value;
            return this;
        }

        public Builder image(String value) {
            this.image = value;
            return this;
        }

        public Builder agent(String value) {
            this.agent = value;
            return this;
        }

        public Builder model(String value) {
            this.model = value;
            return this;
        }

        public Builder agentSession(String value) {
            this.agentSession = value;
            return this;
        }

        /** The fan-out's id, or null for a sandbox made on its own. */
        public Builder group(String value) {
            this.group = value;
            return this;
        }

        public SandboxRecord build() {
            return new SandboxRecord(id, repositoryId, task, agentCommand, tier, branch, baseBranch, baseCommit,
                    worktreePath, containerId, state, version, createdAt, startedAt, finishedAt, stateChangedAt,
                    lastHeartbeatAt, progress, leaseMs, leaseExpiresAt, iteration, retryCount, maxRetries, pid,
                    pidStartedAt, exitCode, lastError, networkGranted, cpuLimitNanos, memoryLimitBytes, pidsLimit,
                    nofileLimit, image, agent, model, agentSession, group);
        }
    }


    /** The worktree as a path, or null when it has none yet. */
    public Path worktree() {
        return worktreePath == null ? null : Path.of(worktreePath);
    }
}
