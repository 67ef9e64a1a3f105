package dev.paddock.sandbox;

import dev.paddock.common.Words;
import dev.paddock.container.DockerContainers;
import dev.paddock.isolation.RunExit;
import dev.paddock.isolation.RunRef;
import dev.paddock.store.StoreException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;

/**
 * The lifecycle's named operations for the packages beside {@code sandbox}: the only way they move a sandbox.
 * Each is one compare-and-set of the stored state with its event in the same transaction
 * ({@link SandboxStore#transition}): it happens if, and only if, the sandbox is still in {@code from}, the state
 * the caller read. None sets other columns; the message is the event's.
 *
 * <p>The merge queue moves a finished sandbox along with its entry: {@code done → merging → merged | conflict},
 * {@code merging | conflict → awaiting_human} when a person must look, {@code merging → done} when the entry
 * leaves the queue. The package-private operations below them are this package's own: the supervisor's runs
 * and a person's stop and retry ({@link Supervisor}), removal ({@link SandboxReclaimer}), the reconciler and the
 * Docker engine's return ({@link ContainerEngineLifecycle}).
 */
public final class SandboxLifecycle {
    private final SandboxStore store;

    public SandboxLifecycle(SandboxStore store) {
        this.store = store;
    }

    /**
     * {@code from → merging}: the sandbox's branch is in the merge queue, or being merged.
     *
     * @return whether it moved (false: it is gone or no longer in {@code from})
     * @throws IllegalArgumentException when {@code from → merging} is not an edge of the lifecycle
     */
    public boolean markMerging(String id, SandboxState from, String message) throws StoreException {
        return move(id, from, SandboxState.MERGING, message);
    }

    /**
     * {@code from → merged}: its branch is in its base.
     *
     * @return whether it moved (false: it is gone or no longer in {@code from})
     * @throws IllegalArgumentException when {@code from → merged} is not an edge of the lifecycle
     */
    public boolean markMerged(String id, SandboxState from, String message) throws StoreException {
        return move(id, from, SandboxState.MERGED, message);
    }

    /**
     * {@code from → conflict}: its branch conflicts with its base and waits in the conflict queue.
     *
     * @return whether it moved (false: it is gone or no longer in {@code from})
     * @throws IllegalArgumentException when {@code from → conflict} is not an edge of the lifecycle
     */
    public boolean markConflicted(String id, SandboxState from, String message) throws StoreException {
        return move(id, from, SandboxState.CONFLICT, message);
    }

    /**
     * {@code from → awaiting_human}: nothing automatic moves it on; a person decides (a policy change to review,
     * a conflict left to them, merges that kept failing).
     *
     * @return whether it moved (false: it is gone or no longer in {@code from})
     * @throws IllegalArgumentException when {@code from → awaiting_human} is not an edge of the lifecycle
     */
    public boolean needsHuman(String id, SandboxState from, String message) throws StoreException {
        return move(id, from, SandboxState.AWAITING_HUMAN, message);
    }

    /**
     * {@code from → done}: its merge queue entry was cancelled or rejected; the sandbox is finished and unmerged,
     * as it was before it entered the queue.
     *
     * @return whether it moved (false: it is gone or no longer in {@code from})
     * @throws IllegalArgumentException when {@code from → done} is not an edge of the lifecycle
     */
    public boolean leaveMergeQueue(String id, SandboxState from, String message) throws StoreException {
        return move(id, from, SandboxState.DONE, message);
    }

    /**
     * {@code done → review}: its branch has commits its base lacks and its repository wants a person to review the
     * change before it is merged (docs/decisions/0022-review-gate.md).
     *
     * @return whether it moved (false: it is gone or no longer done)
     */
    public boolean readyForReview(String id, String message) throws StoreException {
        return move(id, SandboxState.DONE, SandboxState.REVIEW, message);
    }

    private boolean move(String id, SandboxState from, SandboxState to, String message) throws StoreException {
        return store.transition(id, Transition.of(from, to).message(message));
    }

    // The moves of this package's removal, reconciler and engine watch: they carry their own words.

    /**
     * {@code from → cleaning}: {@code who} removes the sandbox ({@link SandboxReclaimer}).
     *
     * @return whether it moved (false: it is gone or no longer in {@code from})
     */
    boolean markCleaning(String id, SandboxState from, RemoveMode mode, boolean deleteBranch, String who)
            throws StoreException {
        return store.transition(
                id,
                Transition.of(from, SandboxState.CLEANING)
                        .message(id + " is being removed by " + who + " ("
                                + mode.name().toLowerCase(Locale.ROOT) + (deleteBranch ? ", deleting its branch" : "")
                                + ")")
                        .detail("mode", mode.name())
                        .detail("deleteBranch", deleteBranch)
                        .detail("by", who));
    }

    /**
     * {@code cleaning → closed}: its worktree is removed; the record stays for the history.
     *
     * @return whether it moved (false: it is gone or no longer cleaning)
     */
    boolean markClosed(String id, String who) throws StoreException {
        return store.transition(
                id,
                Transition.of(SandboxState.CLEANING, SandboxState.CLOSED)
                        .message(id + " is closed: its worktree is removed (removed by " + who + ")")
                        .detail("by", who));
    }

    /**
     * {@code s.state() → awaiting_human}: its worktree is gone from disk ({@link Reconciler#VANISHED}); a running
     * one also gets its finish time.
     *
     * @param alive whether its agent's processes still run (and are about to be killed)
     * @return whether it moved (false: it is gone or was moved meanwhile)
     */
    boolean worktreeVanished(SandboxRecord s, boolean alive, Instant now) throws StoreException {
        Transition t = Transition.of(s.state(), SandboxState.AWAITING_HUMAN)
                .set(Transition.Column.LAST_ERROR, Reconciler.VANISHED)
                .set(Transition.Column.STOP_REASON, Reconciler.VANISHED)
                .message(s.id() + ": its worktree " + s.workspace().worktreePath() + " vanished"
                        + (alive ? "; its processes are being killed" : "") + "; a person decides (remove it, or"
                        + " recreate the worktree and retry)")
                .detail("path", s.workspace().worktreePath())
                .detail("pid", alive ? s.runRef().pid() : null);
        if (s.state() == SandboxState.RUNNING) {
            t.set(Transition.Column.FINISHED_AT, now);
        }
        return store.transition(s.id(), t);
    }

    /**
     * {@code running → failed}: the container a running sandbox names is gone after the Docker engine was away
     * ({@link ContainerEngineLifecycle#VANISHED}).
     *
     * @return whether it moved (false: it is gone or no longer running)
     */
    boolean containerVanished(SandboxRecord s, Instant now) throws StoreException {
        return store.transition(
                s.id(),
                Transition.of(SandboxState.RUNNING, SandboxState.FAILED)
                        .set(Transition.Column.LAST_ERROR, ContainerEngineLifecycle.VANISHED)
                        .set(Transition.Column.FINISHED_AT, now)
                        .set(Transition.Column.EXIT_CODE, null)
                        .message(s.id() + " failed: its " + ContainerEngineLifecycle.VANISHED + " (container "
                                + DockerContainers.shortId(s.runRef().engineId()) + ")")
                        .detail("containerId", s.runRef().engineId())
                        .detail("reason", "vanished"));
    }

    /**
     * {@code running → done | failed}: the agent in a running sandbox's container ended while the Docker engine
     * was away.
     *
     * @return whether it moved (false: it is gone or no longer running)
     */
    boolean containerExitedWhileEngineAway(SandboxRecord s, RunExit a, Instant now) throws StoreException {
        String why = "the agent " + a.explanation() + " while the engine was away";
        return store.transition(
                s.id(),
                Transition.of(SandboxState.RUNNING, a.succeeded() ? SandboxState.DONE : SandboxState.FAILED)
                        .set(Transition.Column.EXIT_CODE, a.code())
                        .set(Transition.Column.FINISHED_AT, now)
                        .set(Transition.Column.PID, null)
                        .set(Transition.Column.LAST_ERROR, a.succeeded() ? null : why)
                        .message(s.id() + (a.succeeded() ? " is done: " : " failed: ") + why)
                        .detail("exitCode", a.code())
                        .detail("containerId", s.runRef().engineId())
                        .detail("reason", "exited"));
    }

    // The supervisor's moves: a run starts, ends, times out, is retried; a person stops or retries it.

    /** {@code pending → failed} or {@code retrying → awaiting_human}: its worktree is gone before a run. */
    boolean worktreeGoneAtStart(SandboxRecord s, Path worktree) throws StoreException {
        return store.transition(
                s.id(),
                Transition.of(
                                s.state(),
                                s.state() == SandboxState.PENDING ? SandboxState.FAILED : SandboxState.AWAITING_HUMAN)
                        .set(Transition.Column.LAST_ERROR, "its worktree " + worktree + " is gone")
                        .message(s.id() + " cannot start: its worktree is gone"));
    }

    /** {@code s.state() → failed}: its health fingerprint could not be taken before its first run. */
    boolean fingerprintFailed(SandboxRecord s, String error, Instant now) throws StoreException {
        return store.transition(
                s.id(),
                Transition.of(s.state(), SandboxState.FAILED)
                        .set(Transition.Column.LAST_ERROR, "its health fingerprint could not be taken: " + error)
                        .set(Transition.Column.FINISHED_AT, now)
                        .message(s.id() + " could not start: its health fingerprint could not be taken: " + error));
    }

    /** {@code s.state() → failed}: its agent (or its container) could not be started; counts as a failed run. */
    boolean failedToStart(SandboxRecord s, String error, Instant now) throws StoreException {
        return store.transition(
                s.id(),
                Transition.of(s.state(), SandboxState.FAILED)
                        .set(Transition.Column.LAST_ERROR, error)
                        .set(Transition.Column.FINISHED_AT, now)
                        .message(s.id() + " could not start: " + error));
    }

    /**
     * {@code s.state() → running}: run {@code runNo} started where {@code ref} says (a container, a process tree),
     * or, {@code adopted}, was started by a Paddock that stopped before recording it.
     */
    boolean runStarted(SandboxRecord s, RunRef ref, int runNo, boolean adopted, Instant now) throws StoreException {
        if (ref.engineId() != null) {
            return markStartedInContainer(s, ref.engineId(), runNo, now);
        }
        return adopted ? adoptUnrecordedRun(s, ref, now) : markStarted(s, ref.pid(), ref.startedAt(), now);
    }

    /** {@code s.state() → running}: run {@code iteration + 1} started as process {@code pid}, with a new lease. */
    boolean markStarted(SandboxRecord s, long pid, Instant pidStartedAt, Instant now) throws StoreException {
        int runNo = s.run().iteration() + 1;
        return store.transition(
                s.id(),
                startedRun(s, runNo, now)
                        .set(Transition.Column.PID, pid)
                        .set(Transition.Column.PID_STARTED_AT, pidStartedAt)
                        .set(Transition.Column.STARTED_AT, now)
                        .message(s.id() + " started (run " + runNo + ", pid " + pid + ")")
                        .detail("pid", pid)
                        .detail("tier", s.spec().tier().id())
                        .detail("run", runNo));
    }

    /** {@code s.state() → running}: run {@code runNo} started in container {@code containerId}, with a new lease. */
    boolean markStartedInContainer(SandboxRecord s, String containerId, int runNo, Instant now) throws StoreException {
        return store.transition(
                s.id(),
                startedRun(s, runNo, now)
                        .set(Transition.Column.CONTAINER_ID, containerId)
                        .set(Transition.Column.PID, null)
                        .set(Transition.Column.PID_STARTED_AT, null)
                        .set(Transition.Column.STARTED_AT, now)
                        .message(s.id() + " started (run " + runNo + ", container "
                                + DockerContainers.shortId(containerId) + " from "
                                + s.spec().image() + ")")
                        .detail("containerId", containerId)
                        .detail("image", s.spec().image())
                        .detail("tier", s.spec().tier().id())
                        .detail("run", runNo));
    }

    /**
     * {@code s.state() → running}: run {@code iteration + 1} was started by a Paddock that stopped before
     * recording it; it is recorded now (its agent's pid, or none when it has ended already).
     */
    boolean adoptUnrecordedRun(SandboxRecord s, RunRef run, Instant now) throws StoreException {
        int runNo = s.run().iteration() + 1;
        return store.transition(
                s.id(),
                startedRun(s, runNo, now)
                        .set(Transition.Column.PID, run.pid())
                        .set(Transition.Column.PID_STARTED_AT, run.pid() == null ? null : run.startedAt())
                        .set(Transition.Column.STARTED_AT, run.startedAt() != null ? run.startedAt() : now)
                        .message(s.id() + ": run " + runNo
                                + " was started by a Paddock that stopped before recording it; "
                                + (run.pid() != null
                                        ? "its agent (pid " + run.pid() + ") runs on and is watched again"
                                        : "its agent has ended already"))
                        .detail("pid", run.pid())
                        .detail("run", runNo)
                        .detail("adopted", true));
    }

    /** The columns every start sets alike: no finish, exit or heartbeat yet, a new lease, the run's number. */
    private static Transition startedRun(SandboxRecord s, int runNo, Instant now) {
        return Transition.of(s.state(), SandboxState.RUNNING)
                .set(Transition.Column.FINISHED_AT, null)
                .set(Transition.Column.EXIT_CODE, null)
                .set(Transition.Column.LAST_HEARTBEAT_AT, null)
                .set(Transition.Column.PROGRESS, null)
                .set(
                        Transition.Column.LEASE_EXPIRES_AT,
                        now.plusMillis(s.lease().ms()))
                .set(Transition.Column.ITERATION, runNo);
    }

    /** {@code running → done | failed}: the agent ended with {@code e}. */
    boolean agentEnded(SandboxRecord s, RunExit e, Instant now) throws StoreException {
        return store.transition(
                s.id(),
                Transition.of(SandboxState.RUNNING, e.succeeded() ? SandboxState.DONE : SandboxState.FAILED)
                        .set(Transition.Column.EXIT_CODE, e.code())
                        .set(Transition.Column.FINISHED_AT, now)
                        .set(Transition.Column.PID, null)
                        .set(Transition.Column.LAST_ERROR, e.succeeded() ? null : "the agent " + e.explanation())
                        .message(s.id()
                                + (e.succeeded()
                                        ? " is done: the agent " + e.explanation()
                                        : " failed: the agent " + e.explanation()))
                        .detail("exitCode", e.code()));
    }

    /** {@code running → timeout}: its lease ran out ({@code why}); its processes are about to be killed. */
    boolean leaseExpired(SandboxRecord s, String why, Instant now) throws StoreException {
        return store.transition(
                s.id(),
                Transition.of(SandboxState.RUNNING, SandboxState.TIMEOUT)
                        .set(Transition.Column.FINISHED_AT, now)
                        .set(Transition.Column.LAST_ERROR, why)
                        .set(Transition.Column.STOP_REASON, "lease expired")
                        .message(s.id() + " timed out: " + why + "; its processes are being killed"));
    }

    /** {@code failed | timeout → retrying}: an automatic retry, counted. */
    boolean scheduleRetry(SandboxRecord s) throws StoreException {
        return store.transition(
                s.id(),
                Transition.of(s.state(), SandboxState.RETRYING)
                        .set(Transition.Column.RETRY_COUNT, s.run().retryCount() + 1)
                        .message(s.id() + " will be retried (" + (s.run().retryCount() + 1) + " of "
                                + s.run().maxRetries() + ")"));
    }

    /** {@code failed | timeout → awaiting_human}: no automatic retry is left. */
    boolean retriesUsedUp(SandboxRecord s) throws StoreException {
        return store.transition(
                s.id(),
                Transition.of(s.state(), SandboxState.AWAITING_HUMAN)
                        .message(s.id() + " needs a person: "
                                + (s.run().maxRetries() == 0
                                        ? "no automatic retries"
                                        : "its " + Words.countIs(s.run().maxRetries(), "retry", "retries") + " used up")
                                + (s.run().lastError() == null
                                        ? ""
                                        : " (" + s.run().lastError() + ")")));
    }

    /** {@code from → awaiting_human}: {@code who} stopped it; its processes are about to be killed. */
    boolean stoppedBy(String id, SandboxState from, String who, Instant now) throws StoreException {
        String reason = "stopped by " + who;
        return store.transition(
                id,
                Transition.of(from, SandboxState.AWAITING_HUMAN)
                        .set(Transition.Column.STOP_REASON, reason)
                        .set(Transition.Column.LAST_ERROR, reason)
                        .set(Transition.Column.FINISHED_AT, now)
                        .message(id + " was " + reason));
    }

    /**
     * {@code from → retrying}: {@code who} runs it again (not counted against its automatic retries), from its task:
     * a follow-up sent before is forgotten.
     */
    boolean retriedBy(String id, SandboxState from, String who) throws StoreException {
        return store.transition(
                id,
                Transition.of(from, SandboxState.RETRYING)
                        .message(id + " retried by " + who)
                        .also(tx -> AgentTurns.dropFollowUp(tx, id)));
    }

    /** The event of a follow-up: the sandbox enters {@code retrying}, but nothing failed. */
    public static final String FOLLOW_UP_EVENT = "sandbox.follow_up";

    /**
     * {@code s.state() → retrying}: {@code who} sent a follow-up prompt; the next run resumes the agent's session
     * with it (not counted against its automatic retries, which resend it). Its event is {@link #FOLLOW_UP_EVENT}.
     */
    boolean followUpBy(SandboxRecord s, String text, String who, Instant now) throws StoreException {
        String shown = text.length() > 200 ? text.substring(0, 200) + "…" : text;
        return store.transition(
                s.id(),
                Transition.of(s.state(), SandboxState.RETRYING)
                        .kind(FOLLOW_UP_EVENT)
                        .message(s.id() + ": " + who + " sent a follow-up; its agent resumes"
                                + (s.run().agentSession() == null
                                        ? " its session"
                                        : " session " + s.run().agentSession())
                                + " in run " + (s.run().iteration() + 1))
                        .detail("followUp", shown)
                        .detail("by", who)
                        .detail("session", s.run().agentSession())
                        .also(tx -> AgentTurns.putFollowUp(tx, s.id(), text, who, now)));
    }
}
