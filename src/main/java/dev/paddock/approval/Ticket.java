package dev.paddock.approval;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A requester's hold on one approval: what the broker answered first, and the final answer to come.
 * A request the policy decided is final at once; a pending one completes when a person decides, it
 * expires, or it is cancelled. A requester that goes away calls {@link #abandon}: when nobody else waits
 * for the same approval, it is cancelled.
 */
public final class Ticket {
    private final Approval first;
    private final CompletableFuture<Approval> outcome;
    private final Runnable onAbandon;
    private final AtomicBoolean abandoned = new AtomicBoolean();

    Ticket(Approval first, CompletableFuture<Approval> outcome, Runnable onAbandon) {
        this.first = first;
        this.outcome = outcome;
        this.onAbandon = onAbandon;
    }

    static Ticket done(Approval a) {
        return new Ticket(a, CompletableFuture.completedFuture(a), () -> {});
    }

    /** The approval as first answered: final, or pending. */
    public Approval first() {
        return first;
    }

    /**
     * The approval in its final state. Completes exceptionally only when Paddock stops before it is
     * decided (the request then stays pending in the store).
     */
    public CompletableFuture<Approval> outcome() {
        return outcome;
    }

    /** Whether the first answer is already final (the policy decided). */
    public boolean isDecided() {
        return first.state().isFinal();
    }

    /** The requester went away: cancels the approval unless another requester waits for it too. */
    public void abandon() {
        if (abandoned.compareAndSet(false, true)) {
            onAbandon.run();
        }
    }
}
