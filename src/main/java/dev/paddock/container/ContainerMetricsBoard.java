package dev.paddock.container;

import dev.paddock.common.Threads;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The latest CPU and memory of every watched container, and a history of the last {@link #HISTORY} seconds of
 * each for charts. Stats streams ({@link ContainerStatsStream}) {@link #update} it on their threads as samples
 * arrive; once a second the {@code container-metrics} daemon thread appends each container's latest sample
 * to its history and publishes one immutable snapshot (sandbox id → metrics) to the listeners and to
 * {@link #latest()}. So 50 streams cost one snapshot a second, not 50.
 *
 * <p>Imports no docker-java: the panel can listen before any engine is connected.
 */
public final class ContainerMetricsBoard implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ContainerMetricsBoard.class);
    /** How many one-second points each container's history keeps: five minutes. */
    public static final int HISTORY = 300;
    /** Period of the snapshot, in ms (the engine sends one sample a second per stream). */
    public static final long TICK_MS = 1_000;

    private final Clock clock;
    /** Newest sample per sandbox id (a stopped container is a {@link ContainerMetrics#stopped} entry). */
    private final Map<String, ContainerMetrics> current = new ConcurrentHashMap<>();

    private final Map<String, Deque<ContainerMetrics>> history = new ConcurrentHashMap<>();
    private final AtomicReference<Map<String, ContainerMetrics>> latest = new AtomicReference<>(Map.of());
    private final List<Consumer<Map<String, ContainerMetrics>>> listeners = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService ticker;
    private volatile boolean started;

    /** @param clock the time of "stopped" entries */
    public ContainerMetricsBoard(Clock clock) {
        this.clock = clock;
        this.ticker = Executors.newSingleThreadScheduledExecutor(Threads.numbered("container-metrics"));
    }

    /** A new sample of a running container (from a stats stream's thread). A container that replaced another
     * in the same sandbox starts a new history. */
    public void update(ContainerMetrics m) {
        ContainerMetrics old = current.put(m.sandboxId(), m);
        if (old != null && !old.containerId().equals(m.containerId())) {
            history.remove(m.sandboxId());
        }
        startTicking();
    }

    /** The sandbox's container {@code containerId} stopped or vanished: it shows "stopped" from the next tick. */
    public void stopped(String sandboxId, String containerId) {
        current.compute(
                sandboxId,
                (k, old) -> old == null || old.containerId().equals(containerId)
                        ? ContainerMetrics.stopped(sandboxId, containerId, clock.instant())
                        : old);
        startTicking();
        tick();
    }

    /** Forgets a sandbox (it was removed): it leaves the table and the charts. */
    public void forget(String sandboxId) {
        current.remove(sandboxId);
        history.remove(sandboxId);
        tick();
    }

    /** The last published snapshot: sandbox id → newest metrics (running or stopped); immutable. */
    public Map<String, ContainerMetrics> latest() {
        return latest.get();
    }

    /**
     * The sandbox's points of the last {@link #HISTORY} seconds, oldest first, one per tick while its container
     * ran; empty when none.
     */
    public List<ContainerMetrics> history(String sandboxId) {
        Deque<ContainerMetrics> h = history.get(sandboxId);
        if (h == null) {
            return List.of();
        }
        synchronized (h) {
            return List.copyOf(h);
        }
    }

    /**
     * Calls {@code listener} with every snapshot (once a second while containers are watched, and at once when
     * one stops), on the {@code container-metrics} thread.
     *
     * @return unregisters the listener
     */
    public Runnable addListener(Consumer<Map<String, ContainerMetrics>> listener) {
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    private void startTicking() {
        if (!started) {
            synchronized (this) {
                if (!started && !ticker.isShutdown()) {
                    started = true;
                    ticker.scheduleAtFixedRate(this::tick, TICK_MS, TICK_MS, TimeUnit.MILLISECONDS);
                }
            }
        }
    }

    private synchronized void tick() {
        try {
            Map<String, ContainerMetrics> snap = new LinkedHashMap<>();
            current.entrySet().stream()
                    .sorted(Map.Entry.comparingByKey())
                    .forEach(e -> snap.put(e.getKey(), e.getValue()));
            for (ContainerMetrics m : snap.values()) {
                if (m.running()) {
                    Deque<ContainerMetrics> h = history.computeIfAbsent(m.sandboxId(), k -> new ArrayDeque<>());
                    synchronized (h) {
                        if (h.isEmpty() || !h.peekLast().at().equals(m.at())) {
                            h.addLast(m);
                            while (h.size() > HISTORY) {
                                h.removeFirst();
                            }
                        }
                    }
                }
            }
            Map<String, ContainerMetrics> published = java.util.Collections.unmodifiableMap(snap);
            latest.set(published);
            for (Consumer<Map<String, ContainerMetrics>> l : listeners) {
                l.accept(published);
            }
        } catch (RuntimeException e) {
            LOG.warn("Publishing container metrics failed", e);
        }
    }

    /** Totals over the running containers of a snapshot: CPU in percent of one CPU and of the host, memory. */
    public static Totals totals(Map<String, ContainerMetrics> snapshot) {
        double oneCpu = 0;
        double host = 0;
        long memory = 0;
        long limit = 0;
        int running = 0;
        for (ContainerMetrics m : snapshot.values()) {
            if (m.running()) {
                running++;
                oneCpu += m.cpuPercentOfOneCpu();
                host += m.cpuPercentOfHost();
                memory += m.memoryBytes();
                limit += m.memoryLimitBytes();
            }
        }
        return new Totals(running, snapshot.size() - running, oneCpu, host, memory, limit);
    }

    /**
     * Sums over a snapshot's containers.
     *
     * @param running how many containers run
     * @param stopped how many are shown stopped
     * @param cpuPercentOfOneCpu their CPU summed, in percent of one CPU (may exceed 100)
     * @param cpuPercentOfHost their CPU summed, in percent of the host's CPUs
     * @param memoryBytes their memory without page cache, summed, in bytes
     * @param memoryLimitBytes their memory limits summed, in bytes
     */
    public record Totals(
            int running,
            int stopped,
            double cpuPercentOfOneCpu,
            double cpuPercentOfHost,
            long memoryBytes,
            long memoryLimitBytes) {}

    /** Copies of the newest sample per sandbox, without waiting for the tick (tests, benchmarks). */
    public Map<String, ContainerMetrics> current() {
        return Map.copyOf(current);
    }

    /** Stops the ticker; listeners hear nothing more. */
    @Override
    public void close() {
        ticker.shutdownNow();
        listeners.clear();
    }
}
