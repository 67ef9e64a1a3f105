package dev.paddock.ui.conflicts;

import dev.paddock.common.PaddockException;
import dev.paddock.common.Threads;
import dev.paddock.ui.common.FxCoalescer;
import dev.paddock.ui.common.KeyedListSync;
import dev.paddock.ui.common.ThrottledLoader;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The conflict queue of the dashboard: merge requests waiting for a three-way resolution, oldest
 * first. Reloaded on the {@code conflicts-refresh} thread when the backend reports a change (a merge event),
 * through one {@link ThrottledLoader} (bursts coalesce); applied on the FX thread at most once per pulse. The
 * clock of the ages ticks every {@link #REFRESH_MS} ms without reading anything. Entries that arrive after the
 * first reload are announced once each to {@link #setOnArrived}.
 */
public final class ConflictQueueViewModel implements AutoCloseable {
    /** Period of the clock of the ages, in ms. */
    public static final long REFRESH_MS = 1_000;

    /** One reload: the queue, or why it could not be read. */
    private record Snapshot(List<ConflictQueueRow> rows, Instant at, Exception error) {}

    private final Executor io;
    // Properties
    private final ObservableList<ConflictQueueRow> rows = FXCollections.observableArrayList();
    private final ObservableList<ConflictQueueRow> rowsView = FXCollections.unmodifiableObservableList(rows);
    private final ReadOnlyObjectWrapper<Instant> now = new ReadOnlyObjectWrapper<>(Instant.now());
    private final ReadOnlyObjectWrapper<String> problem = new ReadOnlyObjectWrapper<>();

    private final ThrottledLoader<Snapshot> loader =
            new ThrottledLoader<>("conflicts-refresh", this::load, this::apply);
    private final ScheduledExecutorService clockTicks =
            Executors.newSingleThreadScheduledExecutor(Threads.daemon("conflicts-clock"));
    private final FxCoalescer<Instant> clock = new FxCoalescer<>(t -> now.set(t));
    private volatile ConflictBackend backend;
    private Set<Long> known;
    private Consumer<List<ConflictQueueRow>> onArrived = a -> {};
    private Runnable unsubscribe = () -> {};
    private ScheduledFuture<?> ticking;

    /** @param io where the three-way views it opens read and send (their backend calls) */
    public ConflictQueueViewModel(Executor io) {
        this.io = io;
    }

    // Properties --------------------------------------------------------------------------------

    /** Merge requests in the conflict queue, oldest first. */
    public ObservableList<ConflictQueueRow> rows() {
        return rowsView;
    }

    /** The time of the last reload: ages re-render with it. */
    public ReadOnlyObjectProperty<Instant> nowProperty() {
        return now.getReadOnlyProperty();
    }

    /** Why the queue cannot be read, or null. */
    public ReadOnlyObjectProperty<String> problemProperty() {
        return problem.getReadOnlyProperty();
    }

    // Commands ----------------------------------------------------------------------------------

    /** Shows the queue read through {@code b} (null disconnects and empties it). */
    public void connect(ConflictBackend b) {
        unsubscribe.run();
        backend = b;
        rows.clear();
        known = null;
        unsubscribe = b == null ? () -> {} : b.onChange(this::refresh);
        if (b != null && ticking == null && !clockTicks.isShutdown()) {
            ticking = clockTicks.scheduleWithFixedDelay(
                    () -> clock.publish(Instant.now()), REFRESH_MS, REFRESH_MS, TimeUnit.MILLISECONDS);
        }
        refresh();
    }

    /** Called on the FX thread with entries that arrived since the last reload. */
    public void setOnArrived(Consumer<List<ConflictQueueRow>> c) {
        onArrived = c == null ? a -> {} : c;
    }

    /** Reloads soon (from any thread); requests close together make one reload. */
    public void refresh() {
        loader.request();
    }

    /**
     * The three-way resolution of {@code row}, not loaded yet; when it finishes (resolved or aborted)
     * the queue reloads.
     *
     * @return null when no backend is connected
     */
    public ThreeWayViewModel open(ConflictQueueRow row) {
        ConflictBackend b = backend;
        if (b == null || row == null) {
            return null;
        }
        ThreeWayViewModel vm = new ThreeWayViewModel(b, row.mergeRequestId(), io);
        vm.finishedProperty().addListener((o, a, done) -> refresh());
        vm.abortedProperty().addListener((o, a, done) -> refresh());
        return vm;
    }

    private Snapshot load() {
        ConflictBackend b = backend;
        if (b == null) {
            return null;
        }
        try {
            return new Snapshot(b.queue(), Instant.now(), null);
        } catch (PaddockException | RuntimeException e) {
            return new Snapshot(null, Instant.now(), e);
        }
    }

    private void apply(Snapshot s) {
        now.set(s.at());
        if (s.error() != null) {
            problem.set("Cannot read the conflict queue: " + s.error().getMessage());
            return;
        }
        problem.set(null);
        KeyedListSync.sync(rows, s.rows(), ConflictQueueRow::mergeRequestId);
        Set<Long> ids = new HashSet<>();
        s.rows().forEach(r -> ids.add(r.mergeRequestId()));
        if (known != null) {
            List<ConflictQueueRow> arrived = s.rows().stream()
                    .filter(r -> !known.contains(r.mergeRequestId()))
                    .toList();
            if (!arrived.isEmpty()) {
                onArrived.accept(arrived);
            }
        }
        known = ids;
    }

    /** Stops reloading. */
    @Override
    public void close() {
        unsubscribe.run();
        backend = null;
        loader.close();
        clockTicks.shutdownNow();
    }
}
