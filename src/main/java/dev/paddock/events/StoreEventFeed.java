package dev.paddock.events;

import dev.paddock.common.Threads;
import dev.paddock.store.StoreException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The events a view shows, wherever they were made: a bus of its own ({@link #bus}) that hears every event of this
 * process's bus and, on a store several Paddocks share, the events the others stored, read every {@link #POLL_MS}
 * (those with ids above the last seen; this process's own are not published twice). Views that reload on events
 * (the panel's) then show what another Paddock did within that period.
 *
 * <p>The events read from the store go to this bus only, never to the process's own: what acts on events there (a
 * checkpoint at the end of a turn) must act once, in the Paddock that made them.
 */
public final class StoreEventFeed implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StoreEventFeed.class);
    /** How often a shared store's events are read, in ms. */
    public static final long POLL_MS = 1_500;
    /** How many events one read takes at most. */
    private static final int BATCH = 500;

    private final EventLog log;
    private final EventBus bus = new EventBus();
    private final EventBus.Subscription local;
    private final Set<Long> ours = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService timer =
            Executors.newSingleThreadScheduledExecutor(Threads.daemon("store-events"));
    private long last;

    private StoreEventFeed(EventLog log, EventBus own, boolean shared) {
        this.log = log;
        this.local = own.subscribe(e -> true, e -> {
            if (shared) {
                ours.add(e.id());
            }
            bus.publish(e);
        });
    }

    /**
     * A feed of {@code own}'s events, and of the other Paddocks' when {@code shared} (a store on a server), read
     * from {@code log} every {@link #POLL_MS}.
     */
    public static StoreEventFeed start(EventLog log, EventBus own, boolean shared) {
        StoreEventFeed f = new StoreEventFeed(log, own, shared);
        if (shared) {
            try {
                f.last = log.lastId();
            } catch (StoreException e) {
                LOG.warn("Cannot read the store's last event: {}", e.getMessage());
            }
            f.timer.scheduleWithFixedDelay(f::pollQuietly, POLL_MS, POLL_MS, TimeUnit.MILLISECONDS);
        }
        return f;
    }

    /** The bus views subscribe to. */
    public EventBus bus() {
        return bus;
    }

    /** Publishes the events other Paddocks stored since the last read; returns how many. */
    synchronized int poll() throws StoreException {
        int published = 0;
        List<Event> read;
        do {
            read = log.after(last, BATCH);
            for (Event e : read) {
                last = Math.max(last, e.id());
                if (!ours.remove(e.id())) {
                    bus.publish(e);
                    published++;
                }
            }
        } while (read.size() == BATCH);
        long before = last;
        ours.removeIf(id -> id <= before - 10_000); // committed so late that no read met them
        return published;
    }

    private void pollQuietly() {
        try {
            poll();
        } catch (StoreException | RuntimeException e) {
            LOG.warn("Cannot read the events other Paddocks stored: {}", e.getMessage());
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
        local.close();
        bus.close();
    }
}
