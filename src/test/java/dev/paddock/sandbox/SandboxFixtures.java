package dev.paddock.sandbox;

import dev.paddock.store.StoreException;

/**
 * Moves for tests of other packages that need a sandbox in a state the supervisor would have left it in, without
 * running its agent. They go through the store's compare-and-set like every move; {@link Transition} stays
 * package-private.
 */
public final class SandboxFixtures {
    private SandboxFixtures() {}

    /** Moves a pending sandbox to running, then done, with an event each ("{id} runs", "{id} is done"). */
    public static void runToDone(SandboxStore store, String id) throws StoreException {
        store.transition(
                id, Transition.of(SandboxState.PENDING, SandboxState.RUNNING).message(id + " runs"));
        store.transition(
                id, Transition.of(SandboxState.RUNNING, SandboxState.DONE).message(id + " is done"));
    }
}
