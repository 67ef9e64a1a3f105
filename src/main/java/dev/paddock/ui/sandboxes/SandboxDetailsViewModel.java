package dev.paddock.ui.sandboxes;

import dev.paddock.checkpoint.Checkpoint;
import dev.paddock.common.Threads;
import dev.paddock.events.Event;
import dev.paddock.status.RepositoryStatus;
import dev.paddock.ui.common.UiError;
import dev.paddock.worktree.WorktreeManager;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import javafx.application.Platform;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The details of one sandbox: its state history, its agent's log followed live, its worktree's
 * change list against the base, and its checkpoints (read-only; the history and checkpoints every second). Loads only what is on screen, on the {@code sandbox-details} thread:
 * the log every {@link #POLL_MS} ms, the history every second, the changes every
 * {@link #CHANGES_EVERY_MS} ms and on demand. Properties change on the FX thread.
 */
public final class SandboxDetailsViewModel implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SandboxDetailsViewModel.class);
    /** How often the log is read while it shows, in ms. */
    public static final long POLL_MS = 500;
    /** How often the change list is recomputed while it shows, in ms. */
    public static final long CHANGES_EVERY_MS = 3_000;
    /** Characters of log kept on screen; older lines are dropped. */
    static final int MAX_LOG_CHARS = 256 * 1024;

    /** The parts of the pane. */
    public enum Section { LOG, HISTORY, CHANGES, CHECKPOINTS }

    // Properties (set by the view)
    private final BooleanProperty shown = new SimpleBooleanProperty(true);
    private final ObjectProperty<Section> section = new SimpleObjectProperty<>(Section.LOG);
    // Properties (read-only)
    private final ReadOnlyObjectWrapper<RepositoryStatus.Sandbox> sandbox = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyStringWrapper logText = new ReadOnlyStringWrapper("");
    private final ObservableList<Event> history = FXCollections.observableArrayList();
    private final ObservableList<Event> historyView = FXCollections.unmodifiableObservableList(history);
    private final ReadOnlyObjectWrapper<WorktreeManager.ChangeList> changes = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<Instant> changesAt = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<UiError> error = new ReadOnlyObjectWrapper<>();
    private final ObservableList<Checkpoint> checkpoints = FXCollections.observableArrayList();
    private final ObservableList<Checkpoint> checkpointsView = FXCollections.unmodifiableObservableList(checkpoints);

    private final ScheduledExecutorService poller = Executors.newSingleThreadScheduledExecutor(Threads.daemon("sandbox-details"));
    private volatile SandboxBackend backend;
    private volatile String id;
    private volatile Section visible = Section.LOG;
    private volatile boolean active;
    private volatile boolean changesWanted;
    // poller thread only
    private LogFollower follower;
    private String followerId;
    private volatile long lastHistoryAt;
    private long lastChangesAt;
    private ScheduledFuture<?> ticking;

    public SandboxDetailsViewModel() {
        shown.addListener((o, a, b) -> updateActive());
        section.addListener((o, a, s) -> {
            visible = s;
            lastHistoryAt = 0;
            changesWanted = s == Section.CHANGES;
            poke();
        });
    }

    // Properties --------------------------------------------------------------------------------

    /** Whether the pane shows (polling stops while it does not). */
    public BooleanProperty shownProperty() {
        return shown;
    }

    /** Which part of the pane shows. */
    public ObjectProperty<Section> sectionProperty() {
        return section;
    }

    /** The sandbox shown (its latest dashboard row), or null. */
    public ReadOnlyObjectProperty<RepositoryStatus.Sandbox> sandboxProperty() {
        return sandbox.getReadOnlyProperty();
    }

    /** The end of the agent's log (at most {@link #MAX_LOG_CHARS} characters, from a line start). */
    public ReadOnlyStringProperty logTextProperty() {
        return logText.getReadOnlyProperty();
    }

    /** The sandbox's events, oldest first. */
    public ObservableList<Event> history() {
        return historyView;
    }

    /** The sandbox's checkpoints, newest first. */
    public ObservableList<Checkpoint> checkpoints() {
        return checkpointsView;
    }

    /** What the worktree changed against the base commit, or null before the first look. */
    public ReadOnlyObjectProperty<WorktreeManager.ChangeList> changesProperty() {
        return changes.getReadOnlyProperty();
    }

    /** When the change list was computed. */
    public ReadOnlyObjectProperty<Instant> changesAtProperty() {
        return changesAt.getReadOnlyProperty();
    }

    /** Why the last load failed (log unreadable, worktree gone), or null. */
    public ReadOnlyObjectProperty<UiError> errorProperty() {
        return error.getReadOnlyProperty();
    }

    // Commands ----------------------------------------------------------------------------------

    /** Where the details come from (null while Paddock is not running). */
    public void setBackend(SandboxBackend b) {
        backend = b;
        poke();
    }

    /** Shows this sandbox (its newest row), or nothing. Rows of the same sandbox only update the header. */
    public void show(RepositoryStatus.Sandbox row) {
        String newId = row == null ? null : row.id();
        boolean other = !Objects.equals(newId, id);
        sandbox.set(row);
        if (!other) {
            return;
        }
        id = newId;
        logText.set("");
        history.clear();
        checkpoints.clear();
        changes.set(null);
        changesAt.set(null);
        error.set(null);
        lastHistoryAt = 0;
        changesWanted = true;
        updateActive();
        poke();
    }

    /** Recomputes the change list now. */
    public void refreshChanges() {
        changesWanted = true;
        poke();
    }

    private void updateActive() {
        active = shown.get() && id != null;
        if (active && ticking == null && !poller.isShutdown()) {
            ticking = poller.scheduleWithFixedDelay(this::tick, 0, POLL_MS, TimeUnit.MILLISECONDS);
        } else if (!active && ticking != null) {
            ticking.cancel(false);
            ticking = null;
        }
    }

    private void poke() {
        if (active && !poller.isShutdown()) {
            poller.execute(this::tick);
        }
    }

    // Poller thread -----------------------------------------------------------------------------

    private void tick() {
        SandboxBackend b = backend;
        String current = id;
        if (!active || b == null || current == null) {
            return;
        }
        try {
            switch (visible) {
                case LOG -> pollLog(b, current);
                case HISTORY -> pollHistory(b, current);
                case CHANGES -> pollChanges(b, current);
                case CHECKPOINTS -> pollCheckpoints(b, current);
            }
        } catch (Exception e) {
            LOG.debug("Details of {}: {}", current, e.toString());
            Platform.runLater(() -> {
                if (current.equals(id)) {
                    error.set(UiError.of(e));
                }
            });
        }
    }

    private void pollLog(SandboxBackend b, String current) throws Exception {
        if (follower == null || !current.equals(followerId)) {
            follower = new LogFollower(b.logFile(current));
            followerId = current;
        }
        LogFollower.Chunk c = follower.poll();
        if (!c.reset() && c.text().isEmpty()) {
            return;
        }
        Platform.runLater(() -> {
            if (!current.equals(id)) {
                return;
            }
            String text = c.reset() ? c.text() : logText.get() + c.text();
            logText.set(trim(text));
            clearError();
        });
    }

    /** Keeps the newest {@link #MAX_LOG_CHARS} characters, cut at a line start. */
    static String trim(String text) {
        if (text.length() <= MAX_LOG_CHARS) {
            return text;
        }
        int from = text.length() - MAX_LOG_CHARS * 3 / 4;
        int nl = text.indexOf('\n', from);
        return text.substring(nl < 0 ? from : nl + 1);
    }

    private void pollHistory(SandboxBackend b, String current) throws Exception {
        long now = System.nanoTime();
        if (lastHistoryAt != 0 && now - lastHistoryAt < TimeUnit.MILLISECONDS.toNanos(1_000)) {
            return;
        }
        lastHistoryAt = now;
        List<Event> events = b.history(current);
        Platform.runLater(() -> {
            if (current.equals(id) && !history.equals(events)) {
                history.setAll(events);
            }
            clearError();
        });
    }

    private void pollCheckpoints(SandboxBackend b, String current) throws Exception {
        long now = System.nanoTime();
        if (lastHistoryAt != 0 && now - lastHistoryAt < TimeUnit.MILLISECONDS.toNanos(1_000)) {
            return;
        }
        lastHistoryAt = now;
        List<Checkpoint> newestFirst = new java.util.ArrayList<>(b.checkpoints(current));
        java.util.Collections.reverse(newestFirst);
        Platform.runLater(() -> {
            if (current.equals(id) && !checkpoints.equals(newestFirst)) {
                checkpoints.setAll(newestFirst);
            }
            clearError();
        });
    }

    private void pollChanges(SandboxBackend b, String current) throws Exception {
        long now = System.nanoTime();
        if (!changesWanted && now - lastChangesAt < TimeUnit.MILLISECONDS.toNanos(CHANGES_EVERY_MS)) {
            return;
        }
        changesWanted = false;
        lastChangesAt = now;
        WorktreeManager.ChangeList list = b.changes(current);
        Instant at = Instant.now();
        Platform.runLater(() -> {
            if (current.equals(id)) {
                changes.set(list);
                changesAt.set(at);
                clearError();
            }
        });
    }

    private void clearError() {
        error.set(null);
    }

    /** Stops polling. */
    @Override
    public void close() {
        poller.shutdownNow();
    }
}
