package dev.paddock.ui.dashboard;

import dev.paddock.common.PaddockException;
import dev.paddock.common.Threads;
import dev.paddock.status.Counts;
import dev.paddock.status.RepositoryStatus;
import dev.paddock.ui.approvals.ApprovalsViewModel;
import dev.paddock.ui.common.DesktopOpener;
import dev.paddock.ui.common.FxCoalescer;
import dev.paddock.ui.common.KeyedListSync;
import dev.paddock.ui.common.ThrottledLoader;
import dev.paddock.ui.common.UiExecutor;
import dev.paddock.ui.conflicts.ConflictQueueViewModel;
import dev.paddock.ui.containers.ContainersViewModel;
import dev.paddock.ui.sandboxes.LiveRows;
import dev.paddock.ui.sandboxes.SandboxesViewModel;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javafx.beans.property.ReadOnlyLongProperty;
import javafx.beans.property.ReadOnlyLongWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dashboard of one repository: rows and tiles as JavaFX properties, reloaded from a {@link StatusSource}
 * whenever the source reports a change (an event of the repository, a change on disk), and every
 * {@link #SAFETY_POLL_MS} ms for what changes without an event (heartbeats and progress, the 24-hour counts).
 * Loading runs on the {@code dashboard-refresh} thread through one {@link ThrottledLoader} (bursts coalesce); only
 * applying the snapshot runs on the FX thread, at most once per pulse. The clock the ages are shown against ticks
 * every {@link #REFRESH_MS} ms without reading anything.
 */
public final class DashboardViewModel implements AutoCloseable {
    // Looked up when needed: the first logger initialises Logback, which the first frame must not wait for.
    private static Logger log() {
        return LoggerFactory.getLogger(DashboardViewModel.class);
    }
    /** Period of the clock the ages are shown against, in ms. */
    public static final long REFRESH_MS = 1_000;
    /** Period of the safety reload, in ms: heartbeats, progress and the 24-hour counts have no event. */
    public static final long SAFETY_POLL_MS = 5_000;

    // Properties
    private final ObservableList<RepositoryStatus.Worktree> worktrees = FXCollections.observableArrayList();
    private final ObservableList<RepositoryStatus.Sandbox> sandboxes = FXCollections.observableArrayList();
    private final ObservableList<RepositoryStatus.EventLine> events = FXCollections.observableArrayList();
    private final ObservableList<RepositoryStatus.Worktree> worktreesView =
            FXCollections.unmodifiableObservableList(worktrees);
    private final ObservableList<RepositoryStatus.Sandbox> sandboxesView =
            FXCollections.unmodifiableObservableList(sandboxes);
    private final ObservableList<RepositoryStatus.EventLine> eventsView =
            FXCollections.unmodifiableObservableList(events);
    private final ReadOnlyLongWrapper active = new ReadOnlyLongWrapper();
    private final ReadOnlyLongWrapper pending = new ReadOnlyLongWrapper();
    private final ReadOnlyLongWrapper failed24h = new ReadOnlyLongWrapper();
    private final ReadOnlyLongWrapper merged24h = new ReadOnlyLongWrapper();
    private final ReadOnlyLongWrapper awaitingHuman = new ReadOnlyLongWrapper();
    private final ReadOnlyLongWrapper waitingForYou = new ReadOnlyLongWrapper();
    private final ReadOnlyLongWrapper readyForReview = new ReadOnlyLongWrapper();
    private final ReadOnlyStringWrapper problem = new ReadOnlyStringWrapper();
    private final ReadOnlyObjectWrapper<RepositoryStatus> latest = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<Instant> now = new ReadOnlyObjectWrapper<>(Instant.now());

    private final ThrottledLoader<Object> loader = new ThrottledLoader<>("dashboard-refresh", this::load, this::apply);
    private final FxCoalescer<Instant> clock = new FxCoalescer<>(now::set);
    private final SandboxesViewModel sandboxPanel =
            new SandboxesViewModel(sandboxesView, UiExecutor.io(), new DesktopOpener());

    private final ApprovalsViewModel approvals = new ApprovalsViewModel(UiExecutor.io());
    private final ConflictQueueViewModel conflicts = new ConflictQueueViewModel(UiExecutor.io());
    private final ContainersViewModel containers = new ContainersViewModel();
    private final dev.paddock.ui.mergequeue.MergeQueueViewModel mergeQueue =
            new dev.paddock.ui.mergequeue.MergeQueueViewModel(UiExecutor.io(), new DesktopOpener());

    {
        sandboxPanel.setOnChanged(this::refresh);
        sandboxPanel.showContainerMetrics(containers.metricsProperty());
        // A running sandbox whose agent waits on a person's approval shows so in the table.
        approvals.rows().addListener((javafx.collections.ListChangeListener<dev.paddock.approval.Approval>) c ->
                sandboxPanel.showAsking(approvals.rows().stream()
                        .filter(a -> a.sandboxId() != null)
                        .collect(java.util.stream.Collectors.groupingBy(
                                dev.paddock.approval.Approval::sandboxId,
                                java.util.stream.Collectors.mapping(
                                        a -> a.tool() + " "
                                                + (a.request() == null
                                                        ? ""
                                                        : a.request()
                                                                .lines()
                                                                .findFirst()
                                                                .orElse("")),
                                        java.util.stream.Collectors.toList())))));
    }

    private volatile StatusSource source;
    private Runnable unsubscribe = () -> {};
    private final ScheduledExecutorService clockTicks =
            Executors.newSingleThreadScheduledExecutor(Threads.daemon("dashboard-clock"));
    private boolean started;

    // Properties --------------------------------------------------------------------------------

    public ObservableList<RepositoryStatus.Worktree> worktrees() {
        return worktreesView;
    }

    public ObservableList<RepositoryStatus.Sandbox> sandboxes() {
        return sandboxesView;
    }

    public ObservableList<RepositoryStatus.EventLine> events() {
        return eventsView;
    }

    public ReadOnlyLongProperty activeProperty() {
        return active.getReadOnlyProperty();
    }

    public ReadOnlyLongProperty pendingProperty() {
        return pending.getReadOnlyProperty();
    }

    public ReadOnlyLongProperty failed24hProperty() {
        return failed24h.getReadOnlyProperty();
    }

    public ReadOnlyLongProperty merged24hProperty() {
        return merged24h.getReadOnlyProperty();
    }

    public ReadOnlyLongProperty awaitingHumanProperty() {
        return awaitingHuman.getReadOnlyProperty();
    }

    /** Sandboxes whose agent's turn ended or that ask for attention ("waiting for you"). */
    public ReadOnlyLongProperty waitingForYouProperty() {
        return waitingForYou.getReadOnlyProperty();
    }

    /** Sandboxes whose change waits for a person's review (the "Ready for review" tile). */
    public ReadOnlyLongProperty readyForReviewProperty() {
        return readyForReview.getReadOnlyProperty();
    }

    /** The sandboxes tab: selection, row actions, details. */
    public SandboxesViewModel sandboxPanel() {
        return sandboxPanel;
    }

    /** Live CPU and memory of Paddock's containers (the containers tab and the table's CPU and memory). */
    public ContainersViewModel containers() {
        return containers;
    }

    /** The merge queue of the repository shown (the merge queue tab). */
    public dev.paddock.ui.mergequeue.MergeQueueViewModel mergeQueue() {
        return mergeQueue;
    }

    /** The approval queue of the repository shown. */
    public ApprovalsViewModel approvals() {
        return approvals;
    }

    /** The conflict queue (merge requests waiting for a three-way resolution). */
    public ConflictQueueViewModel conflicts() {
        return conflicts;
    }

    /** Why the last refresh or worktree listing failed, or null. */
    public ReadOnlyStringProperty problemProperty() {
        return problem.getReadOnlyProperty();
    }

    /** The newest snapshot applied. */
    public ReadOnlyObjectProperty<RepositoryStatus> latestProperty() {
        return latest.getReadOnlyProperty();
    }

    /** The time of the last refresh: cells showing ages re-render when it changes. */
    public ReadOnlyObjectProperty<Instant> nowProperty() {
        return now.getReadOnlyProperty();
    }

    // Commands ----------------------------------------------------------------------------------

    /** Shows another repository: clears the rows and starts refreshing from {@code newSource}. */
    public void show(StatusSource newSource) {
        unsubscribe.run();
        source = newSource;
        worktrees.clear();
        sandboxes.clear();
        events.clear();
        latest.set(null);
        problem.set(null);
        unsubscribe = newSource.onChange(this::refresh);
        if (!started && !loader.isClosed()) {
            started = true;
            loader.every(SAFETY_POLL_MS);
            clockTicks.scheduleWithFixedDelay(
                    () -> clock.publish(Instant.now()), REFRESH_MS, REFRESH_MS, TimeUnit.MILLISECONDS);
        }
        refresh();
    }

    /** Asks for a refresh (from any thread); requests close together make one reload. */
    public void refresh() {
        loader.request();
    }

    private Object load() {
        StatusSource s = source;
        if (s == null) {
            return null;
        }
        try {
            RepositoryStatus status = s.load();
            return s == source ? status : null;
        } catch (PaddockException | RuntimeException e) {
            log().warn("Dashboard refresh failed: {}", e.getMessage());
            return e;
        }
    }

    private void apply(Object value) {
        if (value instanceof Exception e) {
            now.set(Instant.now());
            problem.set(e.getMessage());
            return;
        }
        RepositoryStatus s = (RepositoryStatus) value;
        // A fan-out's sandboxes side by side, so their results can be compared.
        java.util.List<RepositoryStatus.Sandbox> rows = dev.paddock.ui.sandboxes.GroupRows.ordered(s.sandboxes());
        // Heartbeats first, then the clock the table's heartbeat and lease cells are drawn against.
        sandboxPanel.showLatest(LiveRows.byId(rows));
        now.set(Instant.now());
        latest.set(s);
        problem.set(s.worktreeError());
        KeyedListSync.sync(worktrees, s.worktrees(), RepositoryStatus.Worktree::path);
        // A row whose heartbeat alone moved is kept: its cells show the newest heartbeat without being rebuilt.
        KeyedListSync.sync(sandboxes, rows, RepositoryStatus.Sandbox::id, LiveRows::sameBesidesHeartbeat);
        KeyedListSync.sync(events, s.recentEvents(), RepositoryStatus.EventLine::id);
        Counts c = s.counts();
        active.set(c.active());
        pending.set(c.pending());
        failed24h.set(c.failed24h());
        merged24h.set(c.merged24h());
        awaitingHuman.set(c.awaitingHuman());
        waitingForYou.set(c.waitingForYou());
        readyForReview.set(c.readyForReview());
    }

    /** Stops refreshing. */
    @Override
    public void close() {
        sandboxPanel.close();
        approvals.close();
        conflicts.close();
        containers.close();
        mergeQueue.close();
        unsubscribe.run();
        source = null;
        loader.close();
        clockTicks.shutdownNow();
    }
}
