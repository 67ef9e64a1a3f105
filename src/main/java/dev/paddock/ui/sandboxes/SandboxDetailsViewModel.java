package dev.paddock.ui.sandboxes;

import dev.paddock.agent.LogFollower;
import dev.paddock.checkpoint.Checkpoint;
import dev.paddock.common.Threads;
import dev.paddock.events.Event;
import dev.paddock.layer.LayerChange;
import dev.paddock.status.RepositoryStatus;
import dev.paddock.ui.common.UiError;
import dev.paddock.worktree.WorktreeManager;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import javafx.application.Platform;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The details of one sandbox: its agent's transcript ({@link TranscriptViewModel}) and log followed live, its state
 * history, its worktree's change list
 * against the base, its checkpoints (a timeline: {@link CheckpointTimelineViewModel}; the history and checkpoints every
 * second), and the follow-up prompt
 * a person sends it once its agent's turn ended. Loads only what is on screen, on the {@code sandbox-details} thread:
 * the transcript or the log every {@link #POLL_MS} ms, the history every second, the changes every
 * {@link #CHANGES_EVERY_MS} ms and on demand. Properties change on the FX thread.
 */
public final class SandboxDetailsViewModel implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SandboxDetailsViewModel.class);
    /** How often the log (or the transcript) is read while it shows, in ms. */
    public static final long POLL_MS = 250;
    /** How often the change list is recomputed while it shows, in ms. */
    public static final long CHANGES_EVERY_MS = 3_000;
    /** Characters of log kept on screen; older lines are dropped. */
    static final int MAX_LOG_CHARS = 256 * 1024;

    /** States in which a sandbox's agent takes a follow-up: its run ended. */
    static final List<String> FOLLOW_UP_STATES = List.of("done", "failed", "timeout", "awaiting_human");

    /** The parts of the pane. */
    public enum Section {
        TRANSCRIPT,
        LOG,
        HISTORY,
        CHANGES,
        CHECKPOINTS
    }

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
    private final ReadOnlyObjectWrapper<List<LayerChange>> layerChanges = new ReadOnlyObjectWrapper<>(List.of());
    private final ReadOnlyObjectWrapper<UiError> error = new ReadOnlyObjectWrapper<>();
    private final StringProperty followUpText = new SimpleStringProperty("");
    private final ReadOnlyBooleanWrapper sending = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper followUpNotice = new ReadOnlyStringWrapper();
    private final ReadOnlyObjectWrapper<UiError> followUpProblem = new ReadOnlyObjectWrapper<>();
    private final BooleanBinding canFollowUp =
            Bindings.createBooleanBinding(() -> takesFollowUps(sandbox.get()), sandbox);
    private final BooleanBinding canSend = Bindings.createBooleanBinding(
            () -> takesFollowUps(sandbox.get())
                    && FOLLOW_UP_STATES.contains(sandbox.get().state())
                    && !sending.get()
                    && followUpText.get() != null
                    && !followUpText.get().isBlank(),
            sandbox,
            sending,
            followUpText);
    private Runnable onChanged = () -> {};
    private final ObservableList<Checkpoint> checkpoints = FXCollections.observableArrayList();
    private final ObservableList<Checkpoint> checkpointsView = FXCollections.unmodifiableObservableList(checkpoints);

    private final ScheduledExecutorService poller =
            Executors.newSingleThreadScheduledExecutor(Threads.daemon("sandbox-details"));
    private final TranscriptViewModel transcript = new TranscriptViewModel(poller, this::poke);
    private final ReviewActions review =
            new ReviewActions(() -> this.backend, sandbox.getReadOnlyProperty(), () -> this.onChanged.run());
    private final CheckpointTimelineViewModel timeline =
            new CheckpointTimelineViewModel(() -> this.backend, sandbox.getReadOnlyProperty(), this::checkpointsMoved);
    private volatile SandboxBackend backend;
    private volatile String id;
    private volatile Section visible = Section.LOG;
    private volatile boolean active;
    private volatile boolean changesWanted;
    private volatile boolean failing;
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

    /** The agent's transcript, followed while its tab shows. */
    public TranscriptViewModel transcript() {
        return transcript;
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

    /** What the sandbox changed in the shared layers (folders git ignores), read with the change list. */
    public ReadOnlyObjectProperty<List<LayerChange>> layerChangesProperty() {
        return layerChanges.getReadOnlyProperty();
    }

    /** When the change list was computed. */
    public ReadOnlyObjectProperty<Instant> changesAtProperty() {
        return changesAt.getReadOnlyProperty();
    }

    /** Why the last load failed (log unreadable, worktree gone), or null. */
    public ReadOnlyObjectProperty<UiError> errorProperty() {
        return error.getReadOnlyProperty();
    }

    /** The follow-up prompt being written (set by the view). */
    public StringProperty followUpTextProperty() {
        return followUpText;
    }

    /** Whether the sandbox shown runs an agent that can resume its session (not a custom command). */
    public BooleanBinding canFollowUpProperty() {
        return canFollowUp;
    }

    /** Whether the follow-up can be sent now: its agent's run ended, a text is written, nothing is being sent. */
    public BooleanBinding canSendProperty() {
        return canSend;
    }

    /** True while a follow-up is being sent. */
    public ReadOnlyBooleanProperty sendingProperty() {
        return sending.getReadOnlyProperty();
    }

    /** What happened to the last follow-up sent ("Sent to …"), or null. */
    public ReadOnlyStringProperty followUpNoticeProperty() {
        return followUpNotice.getReadOnlyProperty();
    }

    /** Why the last follow-up was refused (the agent still runs, ...), or null; kept until the next one is sent. */
    public ReadOnlyObjectProperty<UiError> followUpProblemProperty() {
        return followUpProblem.getReadOnlyProperty();
    }

    private static boolean takesFollowUps(RepositoryStatus.Sandbox s) {
        return s != null && s.agent() != null && !s.agent().equals("custom");
    }

    // Commands ----------------------------------------------------------------------------------

    /** Called after a follow-up was sent (the dashboard refreshes). */
    /** The decisions on a sandbox ready for review. */
    public ReviewActions review() {
        return review;
    }

    public void setOnChanged(Runnable r) {
        onChanged = r == null ? () -> {} : r;
    }

    /**
     * Sends the follow-up prompt written to the sandbox shown: its agent resumes its session with it. The text is
     * cleared once it is taken; a refusal (the agent still runs, ...) shows as the pane's error and keeps the text.
     */
    public CompletableFuture<Void> sendFollowUp() {
        SandboxBackend b = backend;
        String target = id;
        String text = followUpText.get() == null ? "" : followUpText.get().strip();
        if (b == null || target == null || text.isEmpty() || sending.get()) {
            return CompletableFuture.completedFuture(null);
        }
        sending.set(true);
        followUpNotice.set(null);
        followUpProblem.set(null);
        CompletableFuture<Void> done = new CompletableFuture<>();
        poller.execute(() -> {
            Exception failure = null;
            try {
                b.say(target, text);
            } catch (Exception e) {
                failure = e;
            }
            Exception f = failure;
            Platform.runLater(() -> {
                sending.set(false);
                if (f == null) {
                    if (text.equals(
                            followUpText.get() == null ? "" : followUpText.get().strip())) {
                        followUpText.set("");
                    }
                    followUpNotice.set("Sent: the agent of " + target + " resumes its session with it.");
                    onChanged.run();
                } else if (target.equals(id)) {
                    followUpProblem.set(UiError.of("Cannot send the follow-up to " + target, f));
                }
                done.complete(null);
            });
        });
        return done;
    }

    /** The Checkpoints tab's choice, its diff and its rollback. */
    public CheckpointTimelineViewModel timeline() {
        return timeline;
    }

    /** A rollback took a checkpoint and changed files: the list is read again now, the panel refreshes. */
    private void checkpointsMoved() {
        lastHistoryAt = 0;
        changesWanted = true;
        poke();
        onChanged.run();
    }

    /** The diffs of the backend, or null while Paddock is not running. */
    public dev.paddock.ui.diff.DiffBackend diffs() {
        SandboxBackend b = backend;
        return b == null ? null : b.diffs();
    }

    /** Where the details come from (null while Paddock is not running). */
    public void setBackend(SandboxBackend b) {
        backend = b;
        poke();
    }

    /** Shows this sandbox (its newest row), or nothing. Rows of the same sandbox only update the header. */
    public void show(RepositoryStatus.Sandbox row) {
        String newId = row == null ? null : row.id();
        boolean other = !Objects.equals(newId, id);
        RepositoryStatus.Sandbox before = sandbox.get();
        sandbox.set(row);
        if (!other) {
            // "Sent" stays until the sandbox moves on (to retrying): its state then says what happens.
            if (before != null && row != null && !before.state().equals(row.state())) {
                followUpNotice.set(null);
            }
            return;
        }
        id = newId;
        followUpText.set("");
        followUpNotice.set(null);
        followUpProblem.set(null);
        logText.set("");
        transcript.show(newId);
        history.clear();
        checkpoints.clear();
        changes.set(null);
        changesAt.set(null);
        layerChanges.set(List.of());
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
                case TRANSCRIPT -> {
                    transcript.poll(b);
                    if (failing) {
                        failing = false;
                        Platform.runLater(this::clearError);
                    }
                }
                case LOG -> pollLog(b, current);
                case HISTORY -> pollHistory(b, current);
                case CHANGES -> pollChanges(b, current);
                case CHECKPOINTS -> pollCheckpoints(b, current);
            }
        } catch (Exception e) {
            LOG.debug("Details of {}: {}", current, e.toString());
            Platform.runLater(() -> {
                if (current.equals(id)) {
                    failing = true;
                    error.set(UiError.of(e));
                }
            });
        }
    }

    private void pollLog(SandboxBackend b, String current) throws Exception {
        if (follower == null || !current.equals(followerId)) {
            follower = b.followLog(current);
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
        List<LayerChange> inLayers;
        try {
            inLayers = b.layerChanges(current);
        } catch (dev.paddock.common.PaddockException e) {
            inLayers = null; // the worktree's change list still shows; the shared layers' stays as it was
        }
        List<LayerChange> layered = inLayers;
        Instant at = Instant.now();
        Platform.runLater(() -> {
            if (current.equals(id)) {
                if (layered != null && !layerChanges.get().equals(layered)) {
                    layerChanges.set(List.copyOf(layered));
                }
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
        timeline.close();
    }
}
