package dev.paddock.sandbox;

import dev.paddock.store.StoreException;

/**
 * The lifecycle's named operations for the packages beside {@code sandbox}: the only way they move a sandbox.
 * Each is one compare-and-set of the stored state with its event in the same transaction
 * ({@link SandboxStore#transition}): it happens if, and only if, the sandbox is still in {@code from}, the state
 * the caller read. None sets other columns; the message is the event's.
 *
 * <p>The merge queue moves a finished sandbox along with its entry: {@code done → merging → merged | conflict},
 * {@code merging | conflict → awaiting_human} when a person must look, {@code merging → done} when the entry
 * leaves the queue. The supervisor, the reconciler and removal move sandboxes inside this package.
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
}
