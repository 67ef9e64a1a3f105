package dev.paddock.status;

import java.time.Instant;
import java.util.List;

/**
 * Everything the dashboard shows for one repository, as one immutable snapshot. This is also the
 * JSON printed by {@code paddock status --json} and served at {@code GET /v1/status}, so its field
 * names are a public interface: add fields, never rename them.
 *
 * @param generatedAt when the snapshot was made
 * @param repository the repository shown
 * @param worktrees every worktree git knows of, main first
 * @param worktreeError why the last worktree listing failed, or null
 * @param sandboxes the sandboxes that are not closed, newest first
 * @param counts the header tiles
 * @param recentEvents the newest events, newest first
 * @param environment what the isolation tiers can use here
 * @param orphans worktrees and folders under {@code .worktrees/} that no open sandbox owns (none for a
 *     repository that is not registered, or when the worktree listing failed), then containers labelled as a
 *     sandbox's of this repository that no open sandbox names (as the last look at the
 *     engine found them)
 */
public record RepositoryStatus(
        Instant generatedAt,
        Repository repository,
        List<Worktree> worktrees,
        String worktreeError,
        List<Sandbox> sandboxes,
        Counts counts,
        List<EventLine> recentEvents,
        Environment environment,
        List<Orphan> orphans) {

    /** A snapshot without orphans (the shape before orphans were added). */
    public RepositoryStatus(
            Instant generatedAt,
            Repository repository,
            List<Worktree> worktrees,
            String worktreeError,
            List<Sandbox> sandboxes,
            Counts counts,
            List<EventLine> recentEvents,
            Environment environment) {
        this(
                generatedAt,
                repository,
                worktrees,
                worktreeError,
                sandboxes,
                counts,
                recentEvents,
                environment,
                List.of());
    }

    /**
     * @param id store id, or null when the repository is not registered
     * @param path absolute path of the main worktree
     */
    public record Repository(Long id, String path, String name, String baseBranch, boolean registered) {}

    /**
     * One worktree. See {@link dev.paddock.worktree.WorktreeInfo} for the meaning of each field.
     *
     * @param name short name to show: the sandbox id for Paddock's {@code .worktrees/<id>/<branch>}
     *     layout, the path relative to the main worktree for other worktrees inside it, else the folder name
     * @param sandboxId the sandbox that owns this worktree, or null
     * @param missing whether its folder is not on disk (git still lists it)
     */
    public record Worktree(
            String path,
            String name,
            String branch,
            boolean detached,
            boolean main,
            String head,
            String subject,
            Boolean dirty,
            int changedFiles,
            boolean locked,
            String lockedReason,
            boolean prunable,
            String prunableReason,
            String sandboxId,
            boolean missing) {

        /** A worktree whose folder is on disk. */
        public Worktree(
                String path,
                String name,
                String branch,
                boolean detached,
                boolean main,
                String head,
                String subject,
                Boolean dirty,
                int changedFiles,
                boolean locked,
                String lockedReason,
                boolean prunable,
                String prunableReason,
                String sandboxId) {
            this(
                    path,
                    name,
                    branch,
                    detached,
                    main,
                    head,
                    subject,
                    dirty,
                    changedFiles,
                    locked,
                    lockedReason,
                    prunable,
                    prunableReason,
                    sandboxId,
                    false);
        }
    }

    /**
     * One sandbox row of the dashboard. Times are UTC; {@code leaseExpiresAt} is null when not running.
     *
     * @param engineUnreachable true for a pending, running or retrying container sandbox while the Docker engine
     *     does not answer (or has not answered yet since Paddock started): its state is unknown and shown so; {@code state} is the last one known (see
     *     {@link dev.paddock.sandbox.ContainerEngineLifecycle} for why this is a flag, not a state)
     * @param worktreeMissing whether its worktree's folder is not on disk (deleted behind Paddock's back, or gone
     *     after a merge): its state says what it last did, this says its folder is gone
     * @param agent its agent preset ({@code claude}, ..., {@code custom})
     * @param model the model asked for, or null for the agent's default
     * @param waitingForYou whether its agent's turn ended or it asks for attention: it waits for a follow-up
     *     ({@code paddock sandbox say}), a merge or a removal (see {@link dev.paddock.sandbox.WaitingForYou})
     * @param waitingSince since when it waits, or null
     * @param waitingDetail the agent's last message (or what it asks), or null
     * @param group the id of the fan-out it was made in, shared by its sandboxes; null for one made on its own
     */
    public record Sandbox(
            String id,
            String task,
            String tier,
            String state,
            String branch,
            String worktreePath,
            Instant createdAt,
            Instant lastHeartbeatAt,
            String progress,
            Instant leaseExpiresAt,
            int retryCount,
            Integer exitCode,
            String lastError,
            boolean engineUnreachable,
            boolean worktreeMissing,
            String agent,
            String model,
            boolean waitingForYou,
            Instant waitingSince,
            String waitingDetail,
            String group) {

        /** A row of a sandbox made on its own (no fan-out). */
        public Sandbox(
                String id,
                String task,
                String tier,
                String state,
                String branch,
                String worktreePath,
                Instant createdAt,
                Instant lastHeartbeatAt,
                String progress,
                Instant leaseExpiresAt,
                int retryCount,
                Integer exitCode,
                String lastError,
                boolean engineUnreachable,
                boolean worktreeMissing,
                String agent,
                String model,
                boolean waitingForYou,
                Instant waitingSince,
                String waitingDetail) {
            this(
                    id,
                    task,
                    tier,
                    state,
                    branch,
                    worktreePath,
                    createdAt,
                    lastHeartbeatAt,
                    progress,
                    leaseExpiresAt,
                    retryCount,
                    exitCode,
                    lastError,
                    engineUnreachable,
                    worktreeMissing,
                    agent,
                    model,
                    waitingForYou,
                    waitingSince,
                    waitingDetail,
                    null);
        }

        /** A row that is not waiting for you. */
        public Sandbox(
                String id,
                String task,
                String tier,
                String state,
                String branch,
                String worktreePath,
                Instant createdAt,
                Instant lastHeartbeatAt,
                String progress,
                Instant leaseExpiresAt,
                int retryCount,
                Integer exitCode,
                String lastError,
                boolean engineUnreachable,
                boolean worktreeMissing,
                String agent,
                String model) {
            this(
                    id,
                    task,
                    tier,
                    state,
                    branch,
                    worktreePath,
                    createdAt,
                    lastHeartbeatAt,
                    progress,
                    leaseExpiresAt,
                    retryCount,
                    exitCode,
                    lastError,
                    engineUnreachable,
                    worktreeMissing,
                    agent,
                    model,
                    false,
                    null,
                    null);
        }

        /** A row of a custom agent. */
        public Sandbox(
                String id,
                String task,
                String tier,
                String state,
                String branch,
                String worktreePath,
                Instant createdAt,
                Instant lastHeartbeatAt,
                String progress,
                Instant leaseExpiresAt,
                int retryCount,
                Integer exitCode,
                String lastError,
                boolean engineUnreachable,
                boolean worktreeMissing) {
            this(
                    id,
                    task,
                    tier,
                    state,
                    branch,
                    worktreePath,
                    createdAt,
                    lastHeartbeatAt,
                    progress,
                    leaseExpiresAt,
                    retryCount,
                    exitCode,
                    lastError,
                    engineUnreachable,
                    worktreeMissing,
                    "custom",
                    null);
        }

        /** A row whose worktree is on disk. */
        public Sandbox(
                String id,
                String task,
                String tier,
                String state,
                String branch,
                String worktreePath,
                Instant createdAt,
                Instant lastHeartbeatAt,
                String progress,
                Instant leaseExpiresAt,
                int retryCount,
                Integer exitCode,
                String lastError,
                boolean engineUnreachable) {
            this(
                    id,
                    task,
                    tier,
                    state,
                    branch,
                    worktreePath,
                    createdAt,
                    lastHeartbeatAt,
                    progress,
                    leaseExpiresAt,
                    retryCount,
                    exitCode,
                    lastError,
                    engineUnreachable,
                    false);
        }

        /** A row whose state is known. */
        public Sandbox(
                String id,
                String task,
                String tier,
                String state,
                String branch,
                String worktreePath,
                Instant createdAt,
                Instant lastHeartbeatAt,
                String progress,
                Instant leaseExpiresAt,
                int retryCount,
                Integer exitCode,
                String lastError) {
            this(
                    id,
                    task,
                    tier,
                    state,
                    branch,
                    worktreePath,
                    createdAt,
                    lastHeartbeatAt,
                    progress,
                    leaseExpiresAt,
                    retryCount,
                    exitCode,
                    lastError,
                    false);
        }

        /** The state to show: {@code unknown} while {@link #engineUnreachable}, else {@link #state}. */
        public String shownState() {
            return engineUnreachable ? "unknown" : state;
        }
    }

    /**
     * An orphan: a worktree or folder under {@code .worktrees/} that no open sandbox owns (see
     * {@link dev.paddock.sandbox.Orphan}), or a container labelled as a sandbox's that no open sandbox names.
     *
     * @param path the folder; null for a container
     * @param kind {@code worktree} (git lists it), {@code directory} (a folder with no worktree in it) or
     *     {@code container}
     * @param name its folder under {@code .worktrees/} (the sandbox id it would be adopted as); for a container, the
     *     sandbox id it is labelled with
     * @param actions what can be done: {@code adopt}, {@code remove} (for a prunable worktree: prune); none for a
     *     container (the description says how to remove it)
     * @param description one line for people
     * @param missing whether its folder is not on disk (a worktree git still lists)
     * @param containerId a container's full id, else null
     * @param containerName a container's name, else null
     * @param containerState a container's state as the engine says it ({@code running}, {@code exited}, ...)
     * @param home a container's {@code paddock.home} label: this home's id, or null for a container from a Paddock
     *     that did not label its home (maybe another home's)
     */
    public record Orphan(
            String path,
            String kind,
            String name,
            String branch,
            String head,
            boolean locked,
            String lockedReason,
            boolean prunable,
            String prunableReason,
            List<String> actions,
            String description,
            boolean missing,
            String containerId,
            String containerName,
            String containerState,
            String home) {

        /** A worktree or folder orphan. */
        public Orphan(
                String path,
                String kind,
                String name,
                String branch,
                String head,
                boolean locked,
                String lockedReason,
                boolean prunable,
                String prunableReason,
                List<String> actions,
                String description,
                boolean missing) {
            this(
                    path,
                    kind,
                    name,
                    branch,
                    head,
                    locked,
                    lockedReason,
                    prunable,
                    prunableReason,
                    actions,
                    description,
                    missing,
                    null,
                    null,
                    null,
                    null);
        }

        /** An orphan whose folder is on disk. */
        public Orphan(
                String path,
                String kind,
                String name,
                String branch,
                String head,
                boolean locked,
                String lockedReason,
                boolean prunable,
                String prunableReason,
                List<String> actions,
                String description) {
            this(
                    path,
                    kind,
                    name,
                    branch,
                    head,
                    locked,
                    lockedReason,
                    prunable,
                    prunableReason,
                    actions,
                    description,
                    false);
        }
    }

    /** One line of the recent-events list. */
    public record EventLine(long id, Instant at, String kind, String message, String sandboxId) {}

    /** What the tiers can use: a Docker engine and bubblewrap. */
    public record Environment(Docker docker, Bubblewrap bubblewrap) {}

    /**
     * Docker engine status; {@code error} says why it is unreachable.
     *
     * @param source where {@code endpoint} came from: {@code DOCKER_HOST}, {@code context NAME},
     *     {@code default socket}, or null
     * @param awaySince when the engine stopped answering (this outage), else null
     */
    public record Docker(
            boolean reachable, String endpoint, String version, String error, String source, Instant awaySince) {
        /** Without source and outage start. */
        public Docker(boolean reachable, String endpoint, String version, String error) {
            this(reachable, endpoint, version, error, null, null);
        }
    }

    /** bubblewrap status; {@code problem} says why the namespace tier cannot be used. */
    public record Bubblewrap(boolean installed, boolean usable, String version, String problem) {}
}
