package dev.paddock.events;

import dev.paddock.common.Threads;
import dev.paddock.store.StoreException;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes events older than the retention in days ({@code events.retentionDays}; 0 keeps them all), once an hour
 * and a minute after start, a few thousand at a time so no transaction holds the store long.
 */
public final class EventRetention implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EventRetention.class);
    private static final int BATCH = 5_000;

    private final EventLog events;
    private final IntSupplier retentionDays;
    private final Clock clock;
    private final ScheduledExecutorService timer =
            Executors.newSingleThreadScheduledExecutor(Threads.daemon("event-retention"));

    /**
     * @param retentionDays the retention in effect, read at each pass (a change applies from the next pass)
     */
    public EventRetention(EventLog events, IntSupplier retentionDays, Clock clock) {
        this.events = events;
        this.retentionDays = retentionDays;
        this.clock = clock;
    }

    /** Starts the hourly passes. */
    public void start() {
        timer.scheduleWithFixedDelay(
                () -> {
                    try {
                        deleteOld();
                    } catch (StoreException | RuntimeException e) {
                        LOG.warn("Deleting old events: {}", e.getMessage());
                    }
                },
                60,
                3600,
                TimeUnit.SECONDS);
    }

    /**
     * Deletes the events older than the retention now.
     *
     * @return how many were deleted
     */
    public int deleteOld() throws StoreException {
        int days = retentionDays.getAsInt();
        if (days <= 0) {
            return 0;
        }
        java.time.Instant cutoff = clock.instant().minus(Duration.ofDays(days));
        int total = 0;
        int n;
        do {
            n = events.deleteOlderThan(cutoff, BATCH);
            total += n;
        } while (n == BATCH);
        if (total > 0) {
            LOG.info("Deleted {} event(s) older than {} days", total, days);
        }
        return total;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
