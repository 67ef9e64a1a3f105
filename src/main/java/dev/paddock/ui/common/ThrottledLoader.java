package dev.paddock.ui.common;

import dev.paddock.common.Threads;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A view model's one reloader: {@link #request()} from any thread (an event arrived, a command finished, F5) asks for
 * a reload; requests that come while one is waiting are merged into it, and two reloads start at least
 * {@code minIntervalMs} apart, so a burst of events costs one or two reloads. The reload runs on the loader's own
 * daemon thread (never the FX thread); its result is handed to the FX thread through an {@link FxCoalescer}, and
 * only applying it runs there.
 *
 * <p>An optional safety poll ({@link #every}) requests a reload at a fixed period, for what changes without an
 * event.
 */
public final class ThrottledLoader<T> implements AutoCloseable {
    /** Least time between the starts of two reloads, in ms, unless given otherwise. */
    public static final long MIN_INTERVAL_MS = 50;

    private final ScheduledExecutorService thread;
    private final long minIntervalNanos;
    private final Supplier<T> load;
    private final FxCoalescer<T> toFx;
    private final AtomicBoolean pending = new AtomicBoolean();
    private volatile long lastStart = System.nanoTime() - TimeUnit.DAYS.toNanos(1);
    private ScheduledFuture<?> poll;

    /**
     * @param threadName the loader thread's name ({@code dashboard-refresh})
     * @param load reads a snapshot, off the FX thread; returning null applies nothing
     * @param apply applies the newest snapshot on the FX thread
     */
    public ThrottledLoader(String threadName, long minIntervalMs, Supplier<T> load, Consumer<T> apply) {
        this.thread = Executors.newSingleThreadScheduledExecutor(Threads.daemon(threadName));
        this.minIntervalNanos = TimeUnit.MILLISECONDS.toNanos(minIntervalMs);
        this.load = load;
        this.toFx = new FxCoalescer<>(apply);
    }

    public ThrottledLoader(String threadName, Supplier<T> load, Consumer<T> apply) {
        this(threadName, MIN_INTERVAL_MS, load, apply);
    }

    /** Asks for a reload (from any thread); merged with one already waiting. */
    public void request() {
        if (!pending.compareAndSet(false, true)) {
            return;
        }
        long wait = Math.max(0, lastStart + minIntervalNanos - System.nanoTime());
        try {
            thread.schedule(this::run, wait, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closed) {
            pending.set(false);
        }
    }

    /** Also requests a reload every {@code periodMs} ms, from now on (the safety poll); a second call replaces it. */
    public synchronized void every(long periodMs) {
        if (poll != null) {
            poll.cancel(false);
        }
        try {
            poll = thread.scheduleWithFixedDelay(this::request, periodMs, periodMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closed) {
            poll = null;
        }
    }

    /** Runs {@code work} on the loader's thread, after any reload already running (from any thread). */
    public void execute(Runnable work) {
        try {
            thread.execute(work);
        } catch (RejectedExecutionException closed) {
            // closed meanwhile
        }
    }

    /** True once closed. */
    public boolean isClosed() {
        return thread.isShutdown();
    }

    private void run() {
        // Cleared before reading, so a change made during the read asks for another one.
        pending.set(false);
        lastStart = System.nanoTime();
        T value = load.get();
        if (value != null && !thread.isShutdown()) {
            toFx.publish(value);
        }
    }

    /** Stops reloading; a reload running finishes, its result is not applied. */
    @Override
    public void close() {
        thread.shutdownNow();
    }
}
