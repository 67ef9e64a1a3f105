package dev.paddock.sandbox;

import dev.paddock.container.DockerContainers;
import dev.paddock.store.StoreException;
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
 * leaves the queue. The package-private operations below them are this package's own: removal
 * ({@link SandboxReclaimer}), the reconciler and the Docker engine's return ({@link ContainerEngineLifecycle}).
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
        return store.transition(id, Transition.of(from, SandboxState.CLEANING)
                .message(id + " is being removed by " + who + " (" + mode.name().toLowerCase(Locale.ROOT)
                        + (deleteBranch ? ", deleting its branch" : "") + ")")
                .detail("mode", mode.name()).detail("deleteBranch", deleteBranch).detail("by", who));
    }

    /**
     * {@code cleaning → closed}: its worktree is removed; the record stays for the history.
     *
     * @return whether it moved (false: it is gone or no longer cleaning)
     */
    boolean markClosed(String id, String who) throws StoreException {
        return store.transition(id, Transition.of(SandboxState.CLEANING, SandboxState.CLOSED)
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
                .message(s.id() + ": its worktree " + s.worktreePath() + " vanished"
                        + (alive ? "; its processes are being killed" : "") + "; a person decides (remove it, or"
                        + " recreate the worktree and retry)")
                .detail("path", s.worktreePath()).detail("pid", alive ? s.pid() : null);
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
        return store.transition(s.id(), Transition.of(SandboxState.RUNNING, SandboxState.FAILED)
                .set(Transition.Column.LAST_ERROR, ContainerEngineLifecycle.VANISHED)
                .set(Transition.Column.FINISHED_AT, now)
                .set(Transition.Column.EXIT_CODE, null)
                .message(s.id() + " failed: its " + ContainerEngineLifecycle.VANISHED + " (container "
                        + DockerContainers.shortId(s.containerId()) + ")")
                .detail("containerId", s.containerId()).detail("reason", "vanished"));
    }

    /**
     * {@code running → done | failed}: the agent in a running sandbox's container ended while the Docker engine
     * was away.
     *
     * @return whether it moved (false: it is gone or no longer running)
     */
    boolean containerExitedWhileEngineAway(SandboxRecord s, AgentExit a, Instant now) throws StoreException {
        String why = "the agent " + a.explanation() + " while the engine was away";
        return store.transition(s.id(), Transition.of(SandboxState.RUNNING,
                        a.succeeded() ? SandboxState.DONE : SandboxState.FAILED)
                .set(Transition.Column.EXIT_CODE, a.code())
                .set(Transition.Column.FINISHED_AT, now)
                .set(Transition.Column.PID, null)
                .set(Transition.Column.LAST_ERROR, a.succeeded() ? null : why)
                .message(s.id() + (a.succeeded() ? " is done: " : " failed: ") + why)
                .detail("exitCode", a.code()).detail("containerId", s.containerId()).detail("reason", "exited"));
    }
}
