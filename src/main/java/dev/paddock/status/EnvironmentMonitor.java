package dev.paddock.status;

import dev.paddock.container.DockerEngine;
import dev.paddock.container.EngineStatus;
import dev.paddock.sandbox.BubblewrapProbe;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Keeps track of what the isolation tiers can use: pings the Docker engine every
 * {@link #DOCKER_INTERVAL_S} seconds and probes bubblewrap once at start. Runs on a daemon thread
 * ({@code environment-probe}); listeners are called there when something changed.
 */
public final class EnvironmentMonitor implements AutoCloseable {
    /** Seconds between two Docker pings. */
    public static final long DOCKER_INTERVAL_S = 5;

    /** The latest known state of both. */
    public record Snapshot(EngineStatus docker, BubblewrapProbe.Status bubblewrap) {
    }

    private final Supplier<DockerEngine> engineFactory;
    private final BubblewrapProbe bubblewrap;
    private final List<Consumer<Snapshot>> listeners = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "environment-probe");
        t.setDaemon(true);
        return t;
    });
    private volatile Snapshot last = new Snapshot(EngineStatus.unknown(), BubblewrapProbe.Status.notChecked());
    private DockerEngine engine; // created lazily on the probe thread: docker-java is slow to load

    /**
     * @param engineFactory makes the docker-java connection (called once, on the probe thread)
     */
    public EnvironmentMonitor(Supplier<DockerEngine> engineFactory, BubblewrapProbe bubblewrap) {
        this.engineFactory = engineFactory;
        this.bubblewrap = bubblewrap;
    }

    /**
     * Starts probing after {@code delay}, then periodically. The panel waits a moment: loading
     * docker-java and its HTTP client costs about a second of CPU, which the first frame should not
     * share on a small machine.
     */
    public void start(Duration delay) {
        timer.schedule(() -> update(new Snapshot(last.docker(), bubblewrap.probe())), delay.toMillis(),
                TimeUnit.MILLISECONDS);
        timer.scheduleWithFixedDelay(this::pingDocker, delay.toMillis(), DOCKER_INTERVAL_S * 1000,
                TimeUnit.MILLISECONDS);
    }

    /** Probes both now, on the calling thread, and returns the result (for one-shot CLI use). */
    public Snapshot probeNow() {
        if (engine == null) {
            engine = engineFactory.get();
        }
        Snapshot s = new Snapshot(engine.check(), bubblewrap.probe());
        update(s);
        return s;
    }

    /** The latest snapshot. */
    public Snapshot snapshot() {
        return last;
    }

    public void addListener(Consumer<Snapshot> listener) {
        listeners.add(listener);
    }

    private void pingDocker() {
        if (engine == null) {
            engine = engineFactory.get();
        }
        update(new Snapshot(engine.check(), last.bubblewrap()));
    }

    private synchronized void update(Snapshot s) {
        Snapshot before = last;
        last = s;
        boolean changed = before.docker().reachable() != s.docker().reachable()
                || !java.util.Objects.equals(before.docker().version(), s.docker().version())
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
        if (engine != null) {
            engine.close();
        }
    }
}
