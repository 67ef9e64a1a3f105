package dev.paddock.ui.mergequeue;

import dev.paddock.common.PaddockException;
import dev.paddock.common.Threads;
import dev.paddock.merge.MergeEntry;
import dev.paddock.merge.PolicyDiff;
import dev.paddock.ui.common.DesktopOpener;
import dev.paddock.ui.common.KeyedListSync;
import dev.paddock.ui.common.ThrottledLoader;
import dev.paddock.ui.common.UiError;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import javafx.application.Platform;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The merge queue tab of one repository (each entry's position, step, elapsed time and history, with cancel and
 * retry): the running entry, the entries waiting for a person to review their change to policy or
 * hook configuration, the queued ones in the queue's order, the history, and the commands cancel, retry, open test
 * log, and approve or reject a policy change, on the selected entry. The diff of a selected entry waiting for a
 * review is read for it; Approve is possible only once that diff shows, and is bound to the commit it shows.
 *
 * <p>Read on the {@code merge-queue-view} thread when the queue reports a change (a merge event), and every
 * {@link #REREAD_TICKS} ticks as a safety net (a running entry's test log appears without an event), through one
 * {@link ThrottledLoader} (bursts coalesce); applied on the FX thread at most once per pulse. Between reads only the clock ticks (every {@link #REFRESH_MS} ms), so elapsed times move
 * without reading the store. Commands run on the given executor; their result shows on the FX thread.
 */
public final class MergeQueueViewModel implements AutoCloseable {
    /** Period of the clock, in ms: the elapsed times tick with it. */
    public static final long REFRESH_MS = 1_000;
    /** Ticks between two reads of the store when the queue reported no change. */
    static final int REREAD_TICKS = 10;
    /** Most entries read (running and queued ones always, then the newest of the history). */
    public static final int LIMIT = 200;

    /** One read: the snapshot, or why the queue could not be read. */
    private record Read(QueueSnapshot snapshot, Exception error, Object source) {}

    private final Executor io;
    private final DesktopOpener desktop;
    // Properties
    private final ReadOnlyObjectWrapper<QueueSnapshot> snapshot = new ReadOnlyObjectWrapper<>(QueueSnapshot.EMPTY);
    private final ReadOnlyObjectWrapper<QueueRow> running = new ReadOnlyObjectWrapper<>();
    private final ObservableList<QueueRow> review = FXCollections.observableArrayList();
    private final ObservableList<QueueRow> reviewView = FXCollections.unmodifiableObservableList(review);
    private final ReadOnlyObjectWrapper<PolicyDiff> diff = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyBooleanWrapper canApprove = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper canReject = new ReadOnlyBooleanWrapper();
    /** Entry and commit of the diff last asked for, and the number of that request (FX thread only). */
    private String diffAsked;

    private long diffRequests;
    private final ObservableList<QueueRow> queued = FXCollections.observableArrayList();
    private final ObservableList<QueueRow> history = FXCollections.observableArrayList();
    private final ObservableList<QueueRow> queuedView = FXCollections.unmodifiableObservableList(queued);
    private final ObservableList<QueueRow> historyView = FXCollections.unmodifiableObservableList(history);
    private final ReadOnlyIntegerWrapper active = new ReadOnlyIntegerWrapper();
    private final ReadOnlyObjectWrapper<Instant> now = new ReadOnlyObjectWrapper<>(Instant.now());
    /** Clock ticks so far (refresher thread only). */
    private long ticks;

    private final ReadOnlyObjectWrapper<UiError> problem = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<UiError> error = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper notice = new ReadOnlyStringWrapper();
    private final ReadOnlyObjectWrapper<QueueRow> selected = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyBooleanWrapper canCancel = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper canRetry = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper canOpenLog = new ReadOnlyBooleanWrapper();

    private final ThrottledLoader<Read> loader = new ThrottledLoader<>("merge-queue-view", this::load, this::apply);
    private final ScheduledExecutorService refresher =
            Executors.newSingleThreadScheduledExecutor(Threads.daemon("merge-queue-clock"));
    private volatile MergeQueueBackend backend;
    private volatile Path repo;
    private Long selectedId;
    private Runnable unsubscribe = () -> {};
    private ScheduledFuture<?> ticking;

    /**
     * @param io      where cancel, retry and open-log run (they block on the store, git or the desktop's opener)
     * @param desktop opens a test log in the desktop's application
     */
    public MergeQueueViewModel(Executor io, DesktopOpener desktop) {
        this.io = io;
        this.desktop = desktop;
    }

    // Properties --------------------------------------------------------------------------------

    /** The newest snapshot applied. */
    public ReadOnlyObjectProperty<QueueSnapshot> snapshotProperty() {
        return snapshot.getReadOnlyProperty();
    }

    /** The entry being merged, or null. */
    public ReadOnlyObjectProperty<QueueRow> runningProperty() {
        return running.getReadOnlyProperty();
    }

    /** Entries waiting for a person to review their change to policy or hook configuration, oldest first. */
    public ObservableList<QueueRow> review() {
        return reviewView;
    }

    /** The diff of the selected entry waiting for a review, once read; null otherwise. */
    public ReadOnlyObjectProperty<PolicyDiff> diffProperty() {
        return diff.getReadOnlyProperty();
    }

    /** Whether the selected entry's policy change can be approved now (it waits, and its diff shows). */
    public ReadOnlyBooleanProperty canApproveProperty() {
        return canApprove.getReadOnlyProperty();
    }

    /** Whether the selected entry's policy change can be rejected now. */
    public ReadOnlyBooleanProperty canRejectProperty() {
        return canReject.getReadOnlyProperty();
    }

    /** Queued entries in the queue's order (position 1 first). */
    public ObservableList<QueueRow> queued() {
        return queuedView;
    }

    /** Merged, failed, cancelled and conflicted entries, newest first. */
    public ObservableList<QueueRow> history() {
        return historyView;
    }

    /** Entries running or queued (the tab's count). */
    public ReadOnlyIntegerProperty activeProperty() {
        return active.getReadOnlyProperty();
    }

    /** When the newest snapshot was read: elapsed and waiting times are counted up to it. */
    public ReadOnlyObjectProperty<Instant> nowProperty() {
        return now.getReadOnlyProperty();
    }

    /** Why the queue cannot be read, or null. */
    public ReadOnlyObjectProperty<UiError> problemProperty() {
        return problem.getReadOnlyProperty();
    }

    /** Why the last command failed, or null. */
    public ReadOnlyObjectProperty<UiError> errorProperty() {
        return error.getReadOnlyProperty();
    }

    /** True while a command runs. */
    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    /** What the last command did ("Cancelled #4 agent/fix."), or what runs now. */
    public ReadOnlyStringProperty noticeProperty() {
        return notice.getReadOnlyProperty();
    }

    /** The selected entry as the newest snapshot has it, or null. */
    public ReadOnlyObjectProperty<QueueRow> selectedProperty() {
        return selected.getReadOnlyProperty();
    }

    /** Whether the selected entry can be cancelled now. */
    public ReadOnlyBooleanProperty canCancelProperty() {
        return canCancel.getReadOnlyProperty();
    }

    /** Whether the selected entry can be retried now. */
    public ReadOnlyBooleanProperty canRetryProperty() {
        return canRetry.getReadOnlyProperty();
    }

    /** Whether the selected entry has a test log to open. */
    public ReadOnlyBooleanProperty canOpenLogProperty() {
        return canOpenLog.getReadOnlyProperty();
    }

    // Commands ----------------------------------------------------------------------------------

    /** Shows the queue of {@code repository} read through {@code b} (null for either empties it). Call on the FX thread. */
    public void connect(MergeQueueBackend b, Path repository) {
        unsubscribe.run();
        backend = b;
        repo = repository;
        selectedId = null;
        error.set(null);
        apply(new Read(QueueSnapshot.EMPTY, null, null));
        unsubscribe = b == null ? () -> {} : b.onChange(this::refresh);
        if (b != null && ticking == null && !refresher.isShutdown()) {
            ticking = refresher.scheduleWithFixedDelay(this::tick, 0, REFRESH_MS, TimeUnit.MILLISECONDS);
        } else {
            refresh();
        }
    }

    /** Reads the queue soon (from any thread); requests close together make one read. */
    public void refresh() {
        loader.request();
    }

    /** Selects the entry {@code id} (null: none); the selection follows the entry across reads. */
    public void select(Long id) {
        selectedId = id;
        showSelection();
    }

    /** Clears the last command's error (the close button of its bar). */
    public void dismissError() {
        error.set(null);
    }

    /** Cancels the selected entry. */
    public CompletableFuture<Void> cancel() {
        return cancel(selected.get());
    }

    /** Retries the selected entry. */
    public CompletableFuture<Void> retry() {
        return retry(selected.get());
    }

    /** Opens the selected entry's test log. */
    public CompletableFuture<Void> openLog() {
        return openLog(selected.get());
    }

    /** Approves the selected entry's policy change. */
    public CompletableFuture<Void> approve() {
        return approve(selected.get());
    }

    /** Rejects the selected entry's policy change. */
    public CompletableFuture<Void> reject() {
        return reject(selected.get());
    }

    /**
     * Approves the change to policy or hook configuration of {@code row}, bound to the commit of the diff shown: it
     * goes back in the queue. Does nothing unless {@code row} waits for a review and its diff is the one shown.
     */
    public CompletableFuture<Void> approve(QueueRow row) {
        MergeQueueBackend b = backend;
        PolicyDiff shown = diff.get();
        if (b == null || !diffShownFor(row, shown)) {
            return CompletableFuture.completedFuture(null);
        }
        return command(
                "Approving the policy change of " + row.entry().label() + "…",
                "Cannot approve the policy" + " change of " + row.entry().label(),
                () -> b.approvePolicy(row.id(), b.who(), shown.reviewCommit()),
                e -> "Approved the policy change of " + e.label() + " at " + QueueText.shortCommit(shown.reviewCommit())
                        + "; it is back in the queue.");
    }

    /** Rejects the change to policy or hook configuration of {@code row}: it is cancelled. */
    public CompletableFuture<Void> reject(QueueRow row) {
        MergeQueueBackend b = backend;
        if (b == null || row == null || !row.awaitsReview()) {
            return CompletableFuture.completedFuture(null);
        }
        return command(
                "Rejecting the policy change of " + row.entry().label() + "…",
                "Cannot reject the policy" + " change of " + row.entry().label(),
                () -> b.rejectPolicy(row.id(), b.who()),
                e -> "Rejected the policy change of " + e.label() + "; it is cancelled and base is unchanged.");
    }

    /** Whether {@code shown} is the diff of {@code row} as it waits now (same entry, same commit under review). */
    private static boolean diffShownFor(QueueRow row, PolicyDiff shown) {
        return row != null
                && row.awaitsReview()
                && shown != null
                && shown.entryId() == row.id()
                && java.util.Objects.equals(
                        shown.reviewCommit(), row.entry().attempt().theirsCommit());
    }

    /** Reads the diff of the selected entry when it waits for a review and its diff is not shown or asked yet. */
    private void followDiff(QueueRow row) {
        if (row == null || !row.awaitsReview()) {
            diffAsked = null;
            diffRequests++;
            diff.set(null);
            return;
        }
        String key = row.id() + " " + row.entry().attempt().theirsCommit();
        if (key.equals(diffAsked)) {
            return;
        }
        diffAsked = key;
        diff.set(null);
        long request = ++diffRequests;
        MergeQueueBackend b = backend;
        if (b == null) {
            return;
        }
        CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                return b.policyDiff(row.id());
                            } catch (PaddockException e) {
                                throw new java.util.concurrent.CompletionException(e);
                            }
                        },
                        io)
                .whenCompleteAsync(
                        (d, ex) -> {
                            if (request != diffRequests) {
                                return; // another entry was selected meanwhile
                            }
                            if (ex != null) { // not asked again for the same commit: select the entry again to retry
                                error.set(UiError.of(
                                        "Cannot show the policy change of "
                                                + row.entry().label(),
                                        ex.getCause() != null ? ex.getCause() : ex));
                            } else {
                                diff.set(d);
                            }
                            showSelection();
                        },
                        Platform::runLater);
    }

    /**
     * Cancels {@code row}: queued, it leaves the queue; running, its test is killed and it stops before it moves
     * base; in conflict, its merge is aborted. Does nothing for a row that cannot be cancelled.
     */
    public CompletableFuture<Void> cancel(QueueRow row) {
        MergeQueueBackend b = backend;
        if (b == null || row == null || !row.cancellable()) {
            return CompletableFuture.completedFuture(null);
        }
        return command(
                "Cancelling " + row.entry().label() + "…",
                "Cannot cancel " + row.entry().label(),
                () -> b.cancel(row.id(), b.who()),
                e -> e.state() == dev.paddock.merge.MergeState.RUNNING
                        ? e.label() + " stops before it moves base."
                        : e.label() + " is " + e.state().id() + ".");
    }

    /** Puts {@code row} back in the queue (failed, cancelled or conflicted); does nothing otherwise. */
    public CompletableFuture<Void> retry(QueueRow row) {
        MergeQueueBackend b = backend;
        if (b == null || row == null || !row.retryable()) {
            return CompletableFuture.completedFuture(null);
        }
        return command(
                "Retrying " + row.entry().label() + "…",
                "Cannot retry " + row.entry().label(),
                () -> b.retry(row.id(), b.who()),
                e -> e.label() + " is back in the queue.");
    }

    /** Opens the test log of {@code row}'s last run in the desktop's application. */
    public CompletableFuture<Void> openLog(QueueRow row) {
        if (row == null || row.entry().attempt().testLog() == null) {
            return CompletableFuture.completedFuture(null);
        }
        Path log = row.entry().attempt().testLog();
        return command(
                "Opening the test log…",
                "Cannot open the test log of " + row.entry().label(),
                () -> {
                    desktop.openFile(log);
                    return row.entry();
                },
                e -> "Opened " + log.getFileName() + ".");
    }

    private interface Op {
        MergeEntry run() throws PaddockException;
    }

    private CompletableFuture<Void> command(
            String progress, String failure, Op op, java.util.function.Function<MergeEntry, String> done) {
        busy.set(true);
        notice.set(progress);
        error.set(null);
        CompletableFuture<Void> finished = new CompletableFuture<>();
        CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                return op.run();
                            } catch (PaddockException e) {
                                throw new java.util.concurrent.CompletionException(e);
                            }
                        },
                        io)
                .whenCompleteAsync(
                        (entry, ex) -> {
                            busy.set(false);
                            Throwable cause =
                                    ex instanceof java.util.concurrent.CompletionException && ex.getCause() != null
                                            ? ex.getCause()
                                            : ex;
                            if (cause != null) {
                                notice.set(null);
                                error.set(UiError.of(failure, cause));
                            } else {
                                notice.set(done.apply(entry));
                            }
                            refresh();
                            finished.complete(null);
                        },
                        Platform::runLater);
        return finished;
    }

    /** One tick of the clock (on the refresher thread): the time moves; every {@link #REREAD_TICKS}th, a read. */
    private void tick() {
        if (ticks++ % REREAD_TICKS == 0) {
            loader.request();
        } else {
            Platform.runLater(() -> now.set(Instant.now()));
        }
    }

    private Read load() {
        MergeQueueBackend b = backend;
        Path r = repo;
        if (b == null || r == null) {
            return null;
        }
        try {
            Instant at = Instant.now();
            return new Read(QueueSnapshot.of(b.entries(r, LIMIT), b.maxAttempts(r), at), null, b);
        } catch (PaddockException | RuntimeException e) {
            return new Read(null, e, b);
        }
    }

    private void apply(Read read) {
        if (read.source() != null && read.source() != backend) {
            return; // read before a switch of repository
        }
        if (read.error() != null) {
            now.set(Instant.now());
            problem.set(UiError.of("Cannot read the merge queue", read.error()));
            return;
        }
        problem.set(null);
        QueueSnapshot s = read.snapshot();
        now.set(s == QueueSnapshot.EMPTY ? Instant.now() : s.at());
        snapshot.set(s);
        running.set(s.running());
        KeyedListSync.sync(review, s.review(), QueueRow::id);
        KeyedListSync.sync(queued, s.queued(), QueueRow::id);
        KeyedListSync.sync(history, s.history(), QueueRow::id);
        active.set(s.active());
        showSelection();
    }

    private void showSelection() {
        QueueRow row = selectedId == null ? null : snapshot.get().find(selectedId);
        selected.set(row);
        canCancel.set(row != null && row.cancellable());
        canRetry.set(row != null && row.retryable());
        canOpenLog.set(row != null && row.hasTestLog());
        canReject.set(row != null && row.awaitsReview());
        if (!diffShownFor(row, diff.get())) {
            followDiff(row);
        }
        canApprove.set(diffShownFor(row, diff.get()));
    }

    /** Stops reading. */
    @Override
    public void close() {
        unsubscribe.run();
        unsubscribe = () -> {};
        backend = null;
        loader.close();
        refresher.shutdownNow();
    }
}
