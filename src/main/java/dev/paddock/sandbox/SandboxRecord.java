package dev.paddock.sandbox;

import dev.paddock.container.ResourceLimits;
import dev.paddock.isolation.RunRef;
import java.nio.file.Path;
import java.time.Instant;

/**
 * A sandbox as stored. An immutable snapshot; the store is the source of truth and
 * every change goes through {@link SandboxStore}. The API token is not part of it on purpose.
 * Built by naming its fields ({@link #builder()}, {@link #toBuilder()} for a changed copy), never by position;
 * {@link SandboxStore} maps its row in one place.
 *
 * <p>Its identity and state sit at the top; the rest is grouped by what code reads together: what the agent was
 * asked ({@link Spec}), where it works ({@link Workspace}), its container limits ({@link ResourceLimits}), its lease
 * and the heartbeats that renew it ({@link Lease}), its runs ({@link Run}) and where the current run is
 * ({@link RunRef}).
 *
 * @param id sandbox id, like {@code fix-auth-20261130-001}
 * @param repositoryId store id of the repository
 * @param state where it is in its lifecycle
 * @param version bumped by every transition; transitions compare and set it
 * @param createdAt when it was created
 * @param stateChangedAt when its state last changed
 * @param spec what the agent was asked to do, and how
 * @param workspace its branch, base and worktree
 * @param limits container tier: its CPU, memory, pids and open-file limits; null for the other tiers
 * @param lease its lease and last heartbeat
 * @param run its agent's runs: how many, the last one's start, end and outcome
 * @param runRef where its current run is (process tree or container), as recorded; {@link RunRef#NONE} when none
 */
public record SandboxRecord(
        String id,
        long repositoryId,
        SandboxState state,
        long version,
        Instant createdAt,
        Instant stateChangedAt,
        Spec spec,
        Workspace workspace,
        ResourceLimits limits,
        Lease lease,
        Run run,
        RunRef runRef) {
    /** The preset name of a sandbox whose agent is its own command line. */
    public static final String CUSTOM_AGENT = "custom";

    /**
     * What the agent was asked to do, and how: fixed when the sandbox is created.
     *
     * @param task what the agent was asked to do
     * @param agentCommand shell command line the agent runs with ({@code /bin/sh -c})
     * @param agent the agent preset ({@code claude}, {@code codex}, {@code gemini}, {@code aider}, {@code custom});
     *     a {@code custom} agent runs {@code agentCommand}, the others the preset's command line for the task; null or
     *     blank means {@code custom}
     * @param model the model asked for (the preset's {@code --model}), or null for the agent's default
     * @param tier its isolation tier
     * @param networkGranted whether the namespace and container tiers give it a network
     * @param image the container image (container tier: the sandbox's own or the repository's at creation), or null
     * @param group the fan-out it was made in ({@code sandbox new --agents}): the id its sandboxes share, or null for
     *     a sandbox made on its own
     * @param engine container tier: the Docker engine it runs on ({@code dev.paddock.container.EngineRegistry}), or
     *     null for {@code local}, the docker CLI's choice
     */
    public record Spec(
            String task,
            String agentCommand,
            String agent,
            String model,
            Tier tier,
            boolean networkGranted,
            String image,
            String group,
            String engine) {
        public Spec {
            agent = agent == null || agent.isBlank() ? CUSTOM_AGENT : agent;
        }

        /** A sandbox on the local engine (or of another tier). */
        public Spec(
                String task,
                String agentCommand,
                String agent,
                String model,
                Tier tier,
                boolean networkGranted,
                String image,
                String group) {
            this(task, agentCommand, agent, model, tier, networkGranted, image, group, null);
        }
    }

    /**
     * Where the agent works: its branch, what it started from, and its worktree.
     *
     * @param branch the sandbox's branch
     * @param baseBranch branch it started from and merges back into
     * @param baseCommit commit id of {@code baseBranch} when the sandbox was created
     * @param worktreePath absolute path of its worktree ({@code <repo>/.worktrees/<id>/<branch>})
     */
    public record Workspace(String branch, String baseBranch, String baseCommit, String worktreePath) {
        /** The worktree as a path, or null when it has none yet. */
        public Path worktree() {
            return worktreePath == null ? null : Path.of(worktreePath);
        }
    }

    /**
     * The lease of a running sandbox and the heartbeats that renew it (what a heartbeat writes).
     *
     * @param ms lease length in ms; a running sandbox with no heartbeat for this long times out
     * @param expiresAt when the lease runs out, or null when not running
     * @param lastHeartbeatAt when the agent last sent a heartbeat, or null
     * @param progress the progress text of the last heartbeat, or null
     */
    public record Lease(long ms, Instant expiresAt, Instant lastHeartbeatAt, String progress) {}

    /**
     * The agent's runs: how many there were, and the last one's start, end and outcome.
     *
     * @param iteration how many times the agent was started
     * @param retryCount automatic retries used so far
     * @param maxRetries automatic retries allowed before a person is asked
     * @param startedAt when the last run started, or null
     * @param finishedAt when the sandbox finished (done, failed, ...), or null
     * @param exitCode exit code of the last run, or null
     * @param lastError why the last run failed or was stopped, or null
     * @param agentSession the session id of the last run (Claude Code's {@code --session-id}, chosen by Paddock
     *     before the run starts), or null
     */
    public record Run(
            int iteration,
            int retryCount,
            int maxRetries,
            Instant startedAt,
            Instant finishedAt,
            Integer exitCode,
            String lastError,
            String agentSession) {}

    public SandboxRecord {
        runRef = runRef == null ? RunRef.NONE : runRef;
    }

    /**
     * Whether this sandbox's state is not known while the Docker engine does not answer: a container sandbox that is
     * pending, running or retrying (its container may have ended meanwhile). Status and lists show it as unknown.
     */
    public boolean stateNeedsTheEngine() {
        return spec().tier() == Tier.CONTAINER
                && (state == SandboxState.PENDING || state == SandboxState.RUNNING || state == SandboxState.RETRYING);
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
        b.state = state;
        b.version = version;
        b.createdAt = createdAt;
        b.stateChangedAt = stateChangedAt;
        b.task = spec.task();
        b.agentCommand = spec.agentCommand();
        b.agent = spec.agent();
        b.model = spec.model();
        b.tier = spec.tier();
        b.networkGranted = spec.networkGranted();
        b.image = spec.image();
        b.group = spec.group();
        b.engine = spec.engine();
        b.branch = workspace.branch();
        b.baseBranch = workspace.baseBranch();
        b.baseCommit = workspace.baseCommit();
        b.worktreePath = workspace.worktreePath();
        b.limits = limits;
        b.leaseMs = lease.ms();
        b.leaseExpiresAt = lease.expiresAt();
        b.lastHeartbeatAt = lease.lastHeartbeatAt();
        b.progress = lease.progress();
        b.iteration = run.iteration();
        b.retryCount = run.retryCount();
        b.maxRetries = run.maxRetries();
        b.startedAt = run.startedAt();
        b.finishedAt = run.finishedAt();
        b.exitCode = run.exitCode();
        b.lastError = run.lastError();
        b.agentSession = run.agentSession();
        b.pid = runRef.pid();
        b.pidStartedAt = runRef.startedAt();
        b.containerId = runRef.engineId();
        return b;
    }

    /**
     * Builds a {@link SandboxRecord} by naming its fields; unset ones are null, zero or false. Its setters are
     * flat (one a field, named as the store's columns); {@link #build()} groups them.
     */
    public static final class Builder {
        private String id;
        private long repositoryId;
        private SandboxState state;
        private long version;
        private Instant createdAt;
        private Instant stateChangedAt;
        private String task;
        private String agentCommand;
        private String agent;
        private String model;
        private Tier tier;
        private boolean networkGranted;
        private String image;
        private String group;
        private String engine;
        private String branch;
        private String baseBranch;
        private String baseCommit;
        private String worktreePath;
        private ResourceLimits limits;
        private long leaseMs;
        private Instant leaseExpiresAt;
        private Instant lastHeartbeatAt;
        private String progress;
        private int iteration;
        private int retryCount;
        private int maxRetries;
        private Instant startedAt;
        private Instant finishedAt;
        private Integer exitCode;
        private String lastError;
        private String agentSession;
        private Long pid;
        private Instant pidStartedAt;
        private String containerId;

        private Builder() {}

        public Builder id(String value) {
            this.id = value;
            return this;
        }

        public Builder repositoryId(long value) {
            this.repositoryId = value;
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

        public Builder stateChangedAt(Instant value) {
            this.stateChangedAt = value;
            return this;
        }

        /** {@link Spec#task()}. */
        public Builder task(String value) {
            this.task = value;
            return this;
        }

        /** {@link Spec#agentCommand()}. */
        public Builder agentCommand(String value) {
            this.agentCommand = value;
            return this;
        }

        /** {@link Spec#agent()}. */
        public Builder agent(String value) {
            this.agent = value;
            return this;
        }

        /** {@link Spec#model()}. */
        public Builder model(String value) {
            this.model = value;
            return this;
        }

        /** {@link Spec#tier()}. */
        public Builder tier(Tier value) {
            this.tier = value;
            return this;
        }

        /** {@link Spec#networkGranted()}. */
        public Builder networkGranted(boolean value) {
            this.networkGranted = value;
            return this;
        }

        /** {@link Spec#image()}. */
        public Builder image(String value) {
            this.image = value;
            return this;
        }

        /** {@link Spec#engine()}: the Docker engine's name, or null for local. */
        public Builder engine(String value) {
            this.engine = value;
            return this;
        }

        /** {@link Spec#group()}: the fan-out's id, or null for a sandbox made on its own. */
        public Builder group(String value) {
            this.group = value;
            return this;
        }

        /** {@link Workspace#branch()}. */
        public Builder branch(String value) {
            this.branch = value;
            return this;
        }

        /** {@link Workspace#baseBranch()}. */
        public Builder baseBranch(String value) {
            this.baseBranch = value;
            return this;
        }

        /** {@link Workspace#baseCommit()}. */
        public Builder baseCommit(String value) {
            this.baseCommit = value;
            return this;
        }

        /** {@link Workspace#worktreePath()}. */
        public Builder worktreePath(String value) {
            this.worktreePath = value;
            return this;
        }

        /** {@link SandboxRecord#limits()}: null for no limits (tiers other than the container's). */
        public Builder limits(ResourceLimits value) {
            this.limits = value;
            return this;
        }

        /** {@link Lease#ms()}. */
        public Builder leaseMs(long value) {
            this.leaseMs = value;
            return this;
        }

        /** {@link Lease#expiresAt()}. */
        public Builder leaseExpiresAt(Instant value) {
            this.leaseExpiresAt = value;
            return this;
        }

        /** {@link Lease#lastHeartbeatAt()}. */
        public Builder lastHeartbeatAt(Instant value) {
            this.lastHeartbeatAt = value;
            return this;
        }

        /** {@link Lease#progress()}. */
        public Builder progress(String value) {
            this.progress = value;
            return this;
        }

        /** {@link Run#iteration()}. */
        public Builder iteration(int value) {
            this.iteration = value;
            return this;
        }

        /** {@link Run#retryCount()}. */
        public Builder retryCount(int value) {
            this.retryCount = value;
            return this;
        }

        /** {@link Run#maxRetries()}. */
        public Builder maxRetries(int value) {
            this.maxRetries = value;
            return this;
        }

        /** {@link Run#startedAt()}. */
        public Builder startedAt(Instant value) {
            this.startedAt = value;
            return this;
        }

        /** {@link Run#finishedAt()}. */
        public Builder finishedAt(Instant value) {
            this.finishedAt = value;
            return this;
        }

        /** {@link Run#exitCode()}. */
        public Builder exitCode(Integer value) {
            this.exitCode = value;
            return this;
        }

        /** {@link Run#lastError()}. */
        public Builder lastError(String value) {
            this.lastError = value;
            return this;
        }

        /** {@link Run#agentSession()}. */
        public Builder agentSession(String value) {
            this.agentSession = value;
            return this;
        }

        /** {@link RunRef#pid()} of {@link SandboxRecord#runRef()}. */
        public Builder pid(Long value) {
            this.pid = value;
            return this;
        }

        /** {@link RunRef#startedAt()} of {@link SandboxRecord#runRef()}: when the process started. */
        public Builder pidStartedAt(Instant value) {
            this.pidStartedAt = value;
            return this;
        }

        /** {@link RunRef#engineId()} of {@link SandboxRecord#runRef()}: the container's id. */
        public Builder containerId(String value) {
            this.containerId = value;
            return this;
        }

        public SandboxRecord build() {
            return new SandboxRecord(
                    id,
                    repositoryId,
                    state,
                    version,
                    createdAt,
                    stateChangedAt,
                    new Spec(task, agentCommand, agent, model, tier, networkGranted, image, group, engine),
                    new Workspace(branch, baseBranch, baseCommit, worktreePath),
                    limits,
                    new Lease(leaseMs, leaseExpiresAt, lastHeartbeatAt, progress),
                    new Run(
                            iteration,
                            retryCount,
                            maxRetries,
                            startedAt,
                            finishedAt,
                            exitCode,
                            lastError,
                            agentSession),
                    new RunRef(pid, pidStartedAt, containerId));
        }
    }
}
