package dev.paddock.sandbox;

import dev.paddock.common.PaddockException;
import dev.paddock.common.Threads;
import dev.paddock.isolation.IsolationRuntime;
import dev.paddock.isolation.RunRef;
import dev.paddock.store.StoreException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The supervisor's stops of runs, on a thread of their own ({@code process-reaper}) so a slow kill or an engine that
 * does not answer never holds up its tick: once at a time per run, then the run is forgotten in the store.
 */
final class RunStopper implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Supervisor.class);

    private final SandboxStore store;
    private final Supplier<Duration> grace;
    private final Runnable poke;
    private final ExecutorService reaper = Executors.newCachedThreadPool(Threads.daemon("process-reaper"));
    /** Runs being stopped ({@link RunRef#key()}), and those whose stop failed (said once). */
    private final Set<String> stopping = ConcurrentHashMap.newKeySet();

    private final Set<String> stopFailed = ConcurrentHashMap.newKeySet();

    /**
     * @param grace time between asking a run to end and forcing it
     * @param poke asks the supervisor for a tick (after a stop that worked)
     */
    RunStopper(SandboxStore store, Supplier<Duration> grace, Runnable poke) {
        this.store = store;
        this.grace = grace;
        this.poke = poke;
    }

    /** Whether {@code ref} is being stopped now. */
    boolean stopping(RunRef ref) {
        return stopping.contains(ref.key());
    }

    /**
     * Stops a run on the reaper thread (once at a time: a kill of a process tree, a container's removal), then
     * forgets it in the store. One that cannot be stopped (an engine away) is tried again on a later tick, and said
     * once, not every second.
     */
    void stopLater(IsolationRuntime runtime, String id, RunRef ref, String why) {
        String key = ref.key();
        if (!stopping.add(key)) {
            return;
        }
        if (!stopFailed.contains(key)) {
            LOG.info("Stopping the {} of {} ({})", ref.describe(), id, why);
        }
        reaper.execute(() -> {
            boolean stopped = false;
            try {
                runtime.stop(id, ref, grace.get());
                clear(id, ref);
                stopFailed.remove(key);
                stopped = true;
            } catch (PaddockException | RuntimeException e) {
                // No poke: the next regular tick tries again (an engine that is away must not make a busy loop).
                if (stopFailed.add(key)) {
                    LOG.warn(
                            "Could not stop the {} of {} (trying again every tick): {}",
                            ref.describe(),
                            id,
                            e.getMessage());
                }
            } finally {
                stopping.remove(key);
            }
            if (stopped) {
                poke.run();
            }
        });
    }

    /** Forgets a stopped run in the store (its pid, or its container). */
    void clear(String id, RunRef ref) {
        try {
            if (ref.engineId() != null) {
                store.clearContainer(id, ref.engineId());
            } else if (ref.pid() != null) {
                store.clearPid(id, ref.pid());
            }
        } catch (StoreException e) {
            LOG.warn("Cannot forget the {} of {}: {}", ref.describe(), id, e.getMessage());
        }
    }

    @Override
    public void close() {
        reaper.shutdown();
        try {
            reaper.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
