package dev.paddock.sandbox;

import dev.paddock.common.Threads;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The latest heartbeat of each running sandbox not yet written to the store. Heartbeats are Paddock's most frequent
 * write (100 agents at 1 Hz are 100 commits a second), and each commit appends a chunk of several KB to H2's file;
 * kept here and written every {@link #FLUSH_MS} ms, the latest one per sandbox in one transaction, they cost a
 * chunk every few seconds whatever their number. Reads of sandbox records see them at once ({@link #overlay}).
 *
 * <p>What a {@code kill -9} can lose: the heartbeats of the last {@link #FLUSH_MS} ms (a lease is minutes long).
 */
final class HeartbeatBuffer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HeartbeatBuffer.class);
    /** How often pending heartbeats are written, in ms. */
    static final long FLUSH_MS = 2_000;

    /** A heartbeat: when it came and its progress text. */
    record Beat(Instant at, String progress) {}

    /** Writes pending heartbeats (the store's side). */
    interface Writer {
        void write(Map<String, Beat> beats) throws Exception;
    }

    private final Map<String, Beat> pending = new ConcurrentHashMap<>();
    private final Writer writer;
    private ScheduledExecutorService flusher;
    private boolean closed;

    HeartbeatBuffer(Writer writer) {
        this.writer = writer;
    }

    /** Keeps {@code beat} as the sandbox's latest, to be written within {@link #FLUSH_MS} ms. */
    void put(String id, Beat beat) {
        pending.put(id, beat);
        startFlusher();
    }

    /** The heartbeat of {@code id} not written yet, if any. */
    Optional<Beat> pending(String id) {
        return Optional.ofNullable(pending.get(id));
    }

    /** Forgets {@code beat} of {@code id} once written (a newer one that came meanwhile stays). */
    void written(String id, Beat beat) {
        pending.remove(id, beat);
    }

    /** The record with its pending heartbeat applied (a running sandbox only: others take no heartbeat). */
    SandboxRecord overlay(SandboxRecord s) {
        Beat b = pending.get(s.id());
        if (b == null || s.state() != SandboxState.RUNNING) {
            return s;
        }
        return s.toBuilder()
                .lastHeartbeatAt(b.at())
                .progress(b.progress())
                .leaseExpiresAt(b.at().plusMillis(s.lease().ms()))
                .build();
    }

    /** Writes every pending heartbeat now (a failed write keeps them for the next try). */
    void flush() {
        if (pending.isEmpty()) {
            return;
        }
        Map<String, Beat> batch = Map.copyOf(pending);
        try {
            writer.write(batch);
            batch.forEach(this::written);
        } catch (Exception e) {
            LOG.warn("Cannot write {} heartbeat(s): {}", batch.size(), e.getMessage());
        }
    }

    private synchronized void startFlusher() {
        if (flusher != null || closed) {
            return;
        }
        flusher = Executors.newSingleThreadScheduledExecutor(Threads.daemon("heartbeat-writer"));
        flusher.scheduleWithFixedDelay(this::flush, FLUSH_MS, FLUSH_MS, TimeUnit.MILLISECONDS);
    }

    /** Stops the periodic writes and writes what is pending. */
    @Override
    public void close() {
        ScheduledExecutorService f;
        synchronized (this) {
            closed = true;
            f = flusher;
            flusher = null;
        }
        if (f != null) {
            f.shutdown();
            try {
                f.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        flush();
    }
}
