package dev.paddock.approval;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;

/**
 * Who waits for the answers of pending approvals in {@link ApprovalBroker}: one future per approval, shared by every
 * requester attached to it, and how many requesters still hold it. Thread-safe.
 */
final class PendingWaiters {
    /** Who waits for one pending approval: the future they share and how many requesters hold it. */
    private static final class Waiter {
        final CompletableFuture<Approval> future = new CompletableFuture<>();
        int requesters;
    }

    private final Map<Long, Waiter> waiters = new HashMap<>();
    private boolean closed;

    /** One more requester waits for approval {@code id}: the future it shares with the others. */
    synchronized CompletableFuture<Approval> attach(long id) {
        Waiter w = waiters.computeIfAbsent(id, x -> new Waiter());
        w.requesters++;
        return w.future;
    }

    /** The approvals someone waits for now. */
    synchronized List<Long> ids() {
        return List.copyOf(waiters.keySet());
    }

    /** Hands a final approval to everyone waiting for it. */
    void release(Approval done) {
        Waiter w;
        synchronized (this) {
            w = waiters.remove(done.id());
        }
        if (w != null) {
            w.future.complete(done);
        }
    }

    /**
     * A requester of approval {@code id} went away: whether it was the last one (so nobody waits for the answer),
     * which is never the case once closed.
     */
    synchronized boolean detach(long id) {
        Waiter w = waiters.get(id);
        return w != null && !closed && --w.requesters <= 0;
    }

    /** Releases every waiting requester with an error: the approvals stay pending. */
    void close() {
        List<Waiter> left;
        synchronized (this) {
            closed = true;
            left = List.copyOf(waiters.values());
            waiters.clear();
        }
        for (Waiter w : left) {
            w.future.completeExceptionally(new CancellationException("Paddock is stopping; the request stays pending"));
        }
    }
}
