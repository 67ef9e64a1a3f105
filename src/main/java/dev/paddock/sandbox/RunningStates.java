package dev.paddock.sandbox;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Which sandboxes are running, as last read from the store (only those: the set stays as small as the running set),
 * for {@link SandboxStore#heartbeat}: heartbeats are the API's most frequent request (one a second per agent), and
 * each read the sandbox's state again although it changes only with a transition. Every transition goes through
 * {@link SandboxStore}, which forgets the sandbox here once it committed; so this holds while the process is the
 * store's only writer, as with the embedded store (like {@link SandboxTokens.Cache}).
 *
 * <p>A read that raced a transition is not kept: each forget moves a generation on, and an answer read under an
 * older generation is dropped.
 */
final class RunningStates {
    private final Set<String> running = ConcurrentHashMap.newKeySet();
    private final AtomicLong generation = new AtomicLong();

    /** Whether {@code id} is known to be running (false: not known, ask the store). */
    boolean knownRunning(String id) {
        return running.contains(id);
    }

    /** The generation to pass to {@link #put} with an answer read from the store after this call. */
    long generation() {
        return generation.get();
    }

    /** Keeps that {@code id} runs unless the sandbox was forgotten since {@code readAt} was taken. */
    void running(String id, long readAt) {
        if (generation.get() == readAt) {
            running.add(id);
            if (generation.get() != readAt) {
                running.remove(id); // a transition committed meanwhile: its forget may have come first
            }
        }
    }

    /** Forgets {@code id}'s state: call after a transition of it committed (or failed: the state is then unknown). */
    void forget(String id) {
        generation.incrementAndGet();
        running.remove(id);
    }
}
