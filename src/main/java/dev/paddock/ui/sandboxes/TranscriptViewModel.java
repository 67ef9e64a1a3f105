package dev.paddock.ui.sandboxes;

import dev.paddock.agent.TranscriptFollower;
import dev.paddock.common.PaddockException;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javafx.application.Platform;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The Transcript tab's state: the selected sandbox's agent transcript, followed live. The log is read and parsed on
 * the details' {@code sandbox-details} thread ({@link #poll}, a step of at most {@link TranscriptFollower#STEP_BYTES}
 * at a time, so a long log arrives in parts); only what changed reaches the FX thread — rows appended, a row
 * replaced when its decision or message changed — batched, at most one update every {@link #FLUSH_MS} ms. Tool calls
 * get their decisions from the sandbox's approvals, read again about once a second while one is still open.
 */
public final class TranscriptViewModel {
    /** Least time between two updates of the FX thread's rows, in ms (at most 20 a second). */
    static final long FLUSH_MS = 50;
    /** How often the approvals are read again while a tool call has no final decision, in ms. */
    static final long APPROVALS_EVERY_MS = 1_000;
    /** Most approvals read (the newest). */
    static final int MAX_APPROVALS = 20_000;

    /** The sandbox whose transcript is wanted, and the FX side's count of sandboxes shown so far. */
    private record Target(String id, long epoch) {}

    /** What one read changed, for the FX thread: rows from {@code from} on replaced by {@code tail}, and a few set. */
    private record Delta(
            long epoch,
            boolean reset,
            int from,
            List<TranscriptRow> tail,
            List<TranscriptRow> changed,
            String summary,
            String summaryInFull,
            boolean reading) {}

    private final ScheduledExecutorService thread;
    private final Runnable readAgain;
    // FX thread
    private final ObservableList<TranscriptRow> rows = FXCollections.observableArrayList();
    private final ObservableList<TranscriptRow> rowsView = FXCollections.unmodifiableObservableList(rows);
    private final ReadOnlyStringWrapper summary = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper summaryInFull = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper reading = new ReadOnlyBooleanWrapper();
    private long epoch;
    private final List<Long> flushTimes = Collections.synchronizedList(new ArrayList<>());
    // handed over
    private volatile Target target = new Target(null, 0);
    private final ConcurrentLinkedQueue<Delta> queue = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean flushScheduled = new AtomicBoolean();
    private volatile long lastFlushAt = System.nanoTime() - TimeUnit.SECONDS.toNanos(1);
    // reader thread
    private long readEpoch = -1;
    private TranscriptFollower follower;
    private final TranscriptRows model = new TranscriptRows();
    private long lastApprovalsAt;
    private String lastSummary = "";
    private boolean wasBehind;

    /**
     * @param thread the thread that reads (the details' poller); it also times the FX updates
     * @param readAgain asks for another {@link #poll} soon: called while a long log is still being read
     */
    TranscriptViewModel(ScheduledExecutorService thread, Runnable readAgain) {
        this.thread = thread;
        this.readAgain = readAgain;
    }

    /** The rows, oldest first (FX thread). */
    public ObservableList<TranscriptRow> rows() {
        return rowsView;
    }

    /** "130 calls (2 denied) · 1 error · 157k tokens · $1.23", or "" (short, for the tabs' row). */
    public ReadOnlyStringProperty summaryProperty() {
        return summary.getReadOnlyProperty();
    }

    /** "412 entries · 130 tool calls, 2 denied · 1 error · 3 runs: 145,210 tokens in, 12,000 out, $1.2345", or "". */
    public ReadOnlyStringProperty summaryInFullProperty() {
        return summaryInFull.getReadOnlyProperty();
    }

    /** True while a long log is still being read (its rows arrive in parts). */
    public ReadOnlyBooleanProperty readingProperty() {
        return reading.getReadOnlyProperty();
    }

    /** Shows or hides the whole text of a row (a tool result, a long call); FX thread. */
    public void toggle(int index) {
        if (index >= 0 && index < rows.size() && rows.get(index).expandable()) {
            TranscriptRow r = rows.get(index);
            rows.set(index, r.withExpanded(!r.expanded()));
        }
    }

    /** Forgets the rows shown and follows the transcript of sandbox {@code id} (null: none) from now on (FX thread). */
    void show(String id) {
        epoch++;
        target = new Target(id, epoch);
        rows.clear();
        summary.set("");
        summaryInFull.set("");
        reading.set(false);
    }

    /** When the rows were updated on the FX thread ({@link System#nanoTime}), for tests. */
    List<Long> flushTimes() {
        synchronized (flushTimes) {
            return List.copyOf(flushTimes);
        }
    }

    // Reader thread -------------------------------------------------------------------------------

    /**
     * Reads one step of the shown sandbox's log and hands what changed to the FX thread; asks to be called again at once
     * while more of the log waits.
     *
     * @throws IOException when the log cannot be read
     * @throws PaddockException when the sandbox or its approvals cannot be read
     */
    void poll(SandboxBackend b) throws IOException, PaddockException {
        Target t = target;
        String id = t.id();
        long want = t.epoch();
        if (id == null) {
            return;
        }
        if (follower == null || readEpoch != want) {
            follower = b.followTranscript(id);
            readEpoch = want;
            lastApprovalsAt = System.nanoTime() - TimeUnit.DAYS.toNanos(1); // read them with the first rows
        }
        TranscriptFollower.Update u = follower.poll();
        int from;
        if (u.reset()) {
            model.reset(u.skippedBytes());
            model.add(u.entries());
            from = 0;
        } else {
            from = model.add(u.entries());
        }
        boolean behind = follower.behind();
        List<Integer> decided = List.of();
        long now = System.nanoTime();
        if (!behind
                && model.undecided()
                && now - lastApprovalsAt >= TimeUnit.MILLISECONDS.toNanos(APPROVALS_EVERY_MS)) {
            lastApprovalsAt = now;
            decided = model.decide(b.approvals(id, MAX_APPROVALS), Instant.now());
        }
        List<TranscriptRow> changed = new ArrayList<>();
        for (int i : decided) {
            if (i < from) {
                changed.add(model.get(i));
            }
        }
        String s = model.summary();
        if (u.reset() || from < model.size() || !changed.isEmpty() || !s.equals(lastSummary) || behind != wasBehind) {
            lastSummary = s;
            wasBehind = behind;
            publish(new Delta(want, u.reset(), from, model.from(from), changed, s, model.summaryInFull(), behind));
        }
        if (behind) {
            readAgain.run();
        }
    }

    private void publish(Delta d) {
        queue.add(d);
        if (flushScheduled.compareAndSet(false, true)) {
            long wait = Math.max(0, lastFlushAt + TimeUnit.MILLISECONDS.toNanos(FLUSH_MS) - System.nanoTime());
            try {
                thread.schedule(() -> Platform.runLater(this::flush), wait, TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException closed) {
                flushScheduled.set(false);
            }
        }
    }

    // FX thread -----------------------------------------------------------------------------------

    private void flush() {
        lastFlushAt = System.nanoTime();
        synchronized (flushTimes) {
            if (flushTimes.size() >= 1000) {
                flushTimes.remove(0);
            }
            flushTimes.add(lastFlushAt);
        }
        flushScheduled.set(false);
        for (Delta d = queue.poll(); d != null; d = queue.poll()) {
            apply(d);
        }
    }

    private void apply(Delta d) {
        if (d.epoch() != epoch) {
            return;
        }
        if (d.reset()) {
            rows.clear();
        }
        if (d.from() < rows.size()) {
            rows.remove(d.from(), rows.size());
        }
        if (!d.tail().isEmpty()) {
            rows.addAll(d.tail());
        }
        for (TranscriptRow r : d.changed()) {
            if (r.index() < rows.size()) {
                rows.set(r.index(), r.withExpanded(rows.get(r.index()).expanded()));
            }
        }
        summary.set(d.summary());
        summaryInFull.set(d.summaryInFull());
        reading.set(d.reading());
    }
}
