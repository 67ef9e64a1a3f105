package dev.paddock.status;

import dev.paddock.common.Threads;
import dev.paddock.container.DockerEngine;
import dev.paddock.container.EngineStatus;
import dev.paddock.container.EngineWatch;
import dev.paddock.isolation.bubblewrap.BubblewrapProbe;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Keeps track of what the isolation tiers can use: whether the Docker engine answers (an {@link EngineWatch}:
 * a ping every 5 s, with back-off from 1 s to 30 s while it does not answer) and whether bubblewrap works
 * (probed once at start, on a daemon thread {@code environment-probe}). Listeners are called on those threads
 * when something changed.
 */
public final class EnvironmentMonitor implements AutoCloseable {
    /** Seconds between two Docker pings while the engine answers. */
    public static final long DOCKER_INTERVAL_S = EngineWatch.UP_INTERVAL.toSeconds();

    /**
     * The latest known state of both.
     *
     * @param docker the last engine check
     * @param bubblewrap the bubblewrap probe
     * @param engine the engine watch's state (outage start, next ping), {@link EngineWatch.State#initial()} before
     *     the first check
     */
    public record Snapshot(EngineStatus docker, BubblewrapProbe.Status bubblewrap, EngineWatch.State engine) {
        /** A snapshot without the watch's details. */
        public Snapshot(EngineStatus docker, BubblewrapProbe.Status bubblewrap) {
            this(docker, bubblewrap, new EngineWatch.State(docker, null, null, docker.reachable()));
        }
    }

    private final EngineWatch engineWatch;
    private final boolean ownsWatch;
    private final BubblewrapProbe bubblewrap;
    private final List<Consumer<Snapshot>> listeners = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService timer =
            Executors.newSingleThreadScheduledExecutor(Threads.daemon("environment-probe"));
    private volatile Snapshot last =
            new Snapshot(EngineStatus.unknown(), BubblewrapProbe.Status.notChecked(), EngineWatch.State.initial());

    /**
     * @param engineFactory makes the docker-java connection (called once, on the watch thread)
     */
    public EnvironmentMonitor(Supplier<DockerEngine> engineFactory, BubblewrapProbe bubblewrap) {
        this(new EngineWatch(engineFactory), true, bubblewrap);
    }

    /** @param engineWatch the engine watch shared with the container tier (closed by its owner) */
    public EnvironmentMonitor(EngineWatch engineWatch, BubblewrapProbe bubblewrap) {
        this(engineWatch, false, bubblewrap);
    }

    private EnvironmentMonitor(EngineWatch engineWatch, boolean ownsWatch, BubblewrapProbe bubblewrap) {
        this.engineWatch = engineWatch;
        this.ownsWatch = ownsWatch;
        this.bubblewrap = bubblewrap;
        engineWatch.addListener((before, now) -> updateEngine(now));
    }

    /**
     * Starts probing after {@code delay}, then periodically. The panel waits a moment: loading
     * docker-java and its HTTP client costs about a second of CPU, which the first frame should not
     * share on a small machine.
     */
    public void start(Duration delay) {
        timer.schedule(() -> updateBubblewrap(bubblewrap.probe()), delay.toMillis(), TimeUnit.MILLISECONDS);
        engineWatch.start(delay);
    }

    /** Probes both now, on the calling thread, and returns the result (for one-shot CLI use). */
    public Snapshot probeNow() {
        engineWatch.checkNow();
        updateBubblewrap(bubblewrap.probe());
        return last;
    }

    /** The latest snapshot. */
    public Snapshot snapshot() {
        return last;
    }

    /** The engine watch behind {@link Snapshot#docker()}. */
    public EngineWatch engineWatch() {
        return engineWatch;
    }

    public void addListener(Consumer<Snapshot> listener) {
        listeners.add(listener);
    }

    /**
     * The engine's news with the bubblewrap status as it is now. Each half is merged into the latest snapshot
     * under the lock: a probe that took seconds must not put back the engine state it began with (the watch tells
     * only of changes, so a lost one would stay lost).
     */
    private synchronized void updateEngine(EngineWatch.State engine) {
        update(new Snapshot(engine.status(), last.bubblewrap(), engine));
    }

    /** The bubblewrap probe's result with the engine's latest state. */
    private synchronized void updateBubblewrap(BubblewrapProbe.Status probed) {
        EngineWatch.State engine = engineWatch.state();
        update(new Snapshot(engine.status(), probed, engine));
    }

    private synchronized void update(Snapshot s) {
        Snapshot before = last;
        last = s;
        boolean changed = before.docker().reachable() != s.docker().reachable()
                || before.docker().checked() != s.docker().checked()
                || !java.util.Objects.equals(
                        before.docker().version(), s.docker().version())
                || !java.util.Objects.equals(before.docker().error(), s.docker().error())
                || !before.bubblewrap().equals(s.bubblewrap());
        if (changed) {
            listeners.forEach(l -> l.accept(s));
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(6, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (ownsWatch) {
            engineWatch.close();
        }
    }
}
