package dev.paddock.approval;

import dev.paddock.store.StoreException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * On a store several Paddocks share, a request a hook waits for in this Paddock may be decided in another (its panel,
 * its API, its timer): that one releases its own waiters only. Every {@link #POLL_MS} this Paddock reads which of the
 * requests its requesters wait for are no longer pending, and hands them their answer. One query, and only while
 * someone waits; never on a store in an H2 file (one Paddock).
 */
final class DecidedElsewhere {
    private static final Logger LOG = LoggerFactory.getLogger(DecidedElsewhere.class);
    /** How often the pending requests someone waits for are read again, in ms. */
    static final long POLL_MS = 250;

    private final ApprovalStore store;
    private final PendingWaiters waiters;

    DecidedElsewhere(ApprovalStore store, PendingWaiters waiters) {
        this.store = store;
        this.waiters = waiters;
    }

    /** Releases the waiters of requests finished elsewhere; returns how many requests. */
    int poll() throws StoreException {
        List<Approval> done = store.finalOf(waiters.ids());
        done.forEach(waiters::release);
        return done.size();
    }

    void pollQuietly() {
        try {
            poll();
        } catch (StoreException | RuntimeException e) {
            LOG.warn("Cannot read the decisions made by other Paddocks: {}", e.getMessage());
        }
    }
}
