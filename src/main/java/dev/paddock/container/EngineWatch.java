package dev.paddock.container;

import dev.paddock.common.Threads;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches whether the Docker engine answers, on its own daemon thread ({@code docker-engine-watch}): a ping
 * every {@link #UP_INTERVAL} while it answers; while it does not, again after {@link #FIRST_RETRY}, then after
 * twice the last pause each time, up to {@link #MAX_RETRY} (exponential back-off: an engine that is restarting
 * is seen back within about a second, one that is gone for good costs one ping every half minute). The latest
 * {@link State} is an immutable snapshot; listeners hear of every change of reachability, version or error.
 *
 * <p>The engine's connection is made on the watch thread at the first check: loading docker-java costs about a
 * second of CPU.
 */
public final class EngineWatch implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EngineWatch.class);
    /** Pause between two pings while the engine answers. */
    public static final Duration UP_INTERVAL = Duration.ofSeconds(5);
    /** First pause after a ping that failed. */
    public static final Duration FIRST_RETRY = Duration.ofSeconds(1);
    /** Longest pause between two pings while the engine does not answer. */
    public static final Duration MAX_RETRY = Duration.ofSeconds(30);

    /**
     * What is known of the engine.
     *
     * @param status the last check's result ({@link EngineStatus#unknown()} before the first)
     * @param awaySince when the engine was first seen not answering in the current outage, else null
     * @param nextCheckAt when the next ping is due (null when not watching)
     * @param everReachable whether the engine answered at least once since this Paddock started
     */
    public record State(EngineStatus status, Instant awaySince, Instant nextCheckAt, boolean everReachable) {
        /** Before the first check. */
        public static State initial() {
            return new State(EngineStatus.unknown(), null, null, false);
        }

        /** Whether a check ran and the engine did not answer. Before the first check this is false. */
        public boolean away() {
            return status.checked() && !status.reachable();
        }
    }

    private final Supplier<DockerEngine> factory;
    private final List<BiConsumer<State, State>> listeners = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService timer =
            Executors.newSingleThreadScheduledExecutor(Threads.daemon("docker-engine-watch"));
    private volatile State state = State.initial();
    private volatile boolean started;
    private DockerEngine engine;
    private Duration retry = FIRST_RETRY;

    /** @param factory makes the connection (called once, on the watch thread or the first {@link #checkNow()}) */
    public EngineWatch(Supplier<DockerEngine> factory) {
        this.factory = factory;
    }

    /** Starts watching: the first ping after {@code delay}, the next ones as the class says. */
    public void start(Duration delay) {
        started = true;
        timer.schedule(this::checkAndReschedule, delay.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void checkAndReschedule() {
        State s;
        try {
            s = checkNow();
        } catch (RuntimeException e) {
            LOG.warn("Docker engine check failed: {}", e.toString());
            s = state;
        }
        Duration next = s.status().reachable()
                ? UP_INTERVAL
                : s.nextCheckAt() == null
                        ? FIRST_RETRY
                        : Duration.between(s.status().checkedAt(), s.nextCheckAt());
        if (!timer.isShutdown()) {
            timer.schedule(this::checkAndReschedule, Math.max(0, next.toMillis()), TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Pings the engine now on the calling thread (blocks up to a few seconds), publishes the result and tells
     * the listeners when something changed.
     */
    public synchronized State checkNow() {
        if (engine == null) {
            engine = factory.get();
        }
        EngineStatus s = engine.check();
        State before = state;
        Duration pause;
        if (s.reachable()) {
            retry = FIRST_RETRY;
            pause = UP_INTERVAL;
        } else {
            pause = before.away() ? retry : FIRST_RETRY;
            retry = nextRetry(pause);
        }
        State now = new State(
                s,
                s.reachable() ? null : before.away() ? before.awaySince() : s.checkedAt(),
                s.checkedAt().plus(pause),
                before.everReachable() || s.reachable());
        state = now;
        if (before.status().reachable() != s.reachable()
                || before.status().checked() != s.checked()
                || !Objects.equals(before.status().version(), s.version())
                || !Objects.equals(before.status().error(), s.error())) {
            if (before.status().reachable() != s.reachable() || !before.status().checked()) {
                LOG.info(
                        s.reachable()
                                ? (before.away()
                                        ? "Docker engine at {} answers again (Docker {})"
                                        : "Docker engine at {} answers (Docker {})")
                                : "Docker engine at {} does not answer: {}",
                        s.endpointText(),
                        s.reachable() ? s.version() : s.error());
            }
            for (BiConsumer<State, State> l : listeners) {
                try {
                    l.accept(before, now);
                } catch (RuntimeException e) {
                    LOG.warn("Docker engine listener failed: {}", e.toString());
                }
            }
        }
        return now;
    }

    /** The pause after {@code pause} while the engine stays away: twice as long, at most {@link #MAX_RETRY}. */
    static Duration nextRetry(Duration pause) {
        Duration twice = pause.multipliedBy(2);
        return twice.compareTo(MAX_RETRY) > 0 ? MAX_RETRY : twice;
    }

    /**
     * Whether {@link #start} was called: this process watches the engine (a panel or server), as opposed to a
     * one-shot {@link #checkNow()} of a CLI command, whose result must not change any sandbox.
     */
    public boolean started() {
        return started;
    }

    /** The latest state (never null). */
    public State state() {
        return state;
    }

    /**
     * Registers a listener called with (before, now) on the watch thread (or the caller of {@link #checkNow()})
     * when reachability, version or error changed.
     */
    public void addListener(BiConsumer<State, State> listener) {
        listeners.add(listener);
    }

    /** Stops watching and closes the connection. */
    @Override
    public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(6, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            if (engine != null) {
                engine.close();
            }
        }
    }
}
