package dev.paddock.checkpoint;

import dev.paddock.common.PaddockException;
import dev.paddock.common.Threads;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checkpoints running sandboxes on a timer ({@link CheckpointRules#everySeconds()}; off by default): every period,
 * each running sandbox whose worktree changed since its newest checkpoint gets one ("every N s"). A sandbox whose
 * worktree did not change costs one {@code git add -A} into Paddock's own index, no checkpoint.
 */
public final class TimedCheckpoints implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TimedCheckpoints.class);
    /** How often the timer looks whether a period has passed (the period itself is a setting). */
    static final long LOOK_EVERY_MS = 2_000;

    private final CheckpointService checkpoints;
    private final Supplier<List<String>> running;
    private final Supplier<CheckpointRules> rules;
    private final Clock clock;
    private final Map<String, Instant> lastLook = new ConcurrentHashMap<>();
    private ScheduledExecutorService timer;

    /**
     * @param running the ids of the sandboxes whose agent runs now
     */
    public TimedCheckpoints(
            CheckpointService checkpoints,
            Supplier<List<String>> running,
            Supplier<CheckpointRules> rules,
            Clock clock) {
        this.checkpoints = checkpoints;
        this.running = running;
        this.rules = rules;
        this.clock = clock;
    }

    /** Starts looking (on a thread of its own). */
    public synchronized void start() {
        if (timer == null) {
            timer = Executors.newSingleThreadScheduledExecutor(Threads.numbered("checkpoint-timer"));
            timer.scheduleWithFixedDelay(this::safeLook, LOOK_EVERY_MS, LOOK_EVERY_MS, TimeUnit.MILLISECONDS);
        }
    }

    private void safeLook() {
        try {
            look();
        } catch (RuntimeException e) {
            LOG.warn("Timed checkpoints: {}", e.toString());
        }
    }

    /**
     * One look: a checkpoint for each running sandbox whose period passed and whose worktree changed.
     *
     * @return how many checkpoints were taken
     */
    int look() {
        int every = rules.get().everySeconds();
        if (every <= 0) {
            lastLook.clear();
            return 0;
        }
        Instant now = clock.instant();
        List<String> ids = running.get();
        lastLook.keySet().retainAll(ids);
        int taken = 0;
        for (String id : ids) {
            Instant last = lastLook.putIfAbsent(id, now);
            if (last == null || now.isBefore(last.plusSeconds(every))) {
                continue; // a sandbox just seen running waits one period first
            }
            lastLook.put(id, now);
            try {
                if (checkpoints
                        .checkpointIfChanged(id, "every " + every + " s", null, "Paddock")
                        .isPresent()) {
                    taken++;
                }
            } catch (PaddockException e) {
                LOG.debug("Timed checkpoint of {}: {}", id, e.getMessage());
            }
        }
        return taken;
    }

    @Override
    public synchronized void close() {
        if (timer != null) {
            timer.shutdownNow();
            timer = null;
        }
    }
}
