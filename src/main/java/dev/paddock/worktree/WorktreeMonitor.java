package dev.paddock.worktree;

import dev.paddock.common.Threads;
import dev.paddock.events.EventDraft;
import dev.paddock.events.EventKinds;
import dev.paddock.events.EventLog;
import dev.paddock.store.StoreException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches one repository's worktrees and records every change as an event.
 *
 * <p><b>Notified.</b> A {@link WorktreeWatcher} is told by the file system (inotify) when git or an editor
 * changes anything that matters: an index, a HEAD, a ref, a lock, a worktree's admin directory, a file in a
 * worktree. {@value #SETTLE_MS} ms after the first notification (a commit writes several files), the monitor lists
 * the worktrees when a head, branch or lock may have moved (one {@code git worktree list} process) and runs
 * {@code git status} in the worktrees that changed, each at most every ten times its last status's duration, and
 * all such scans together within a tenth of a core over time ({@value #CHANGE_SCAN_BURST_MS} ms at once after a
 * quiet spell): a change from a terminal is looked at at once, agents writing files all the time cost a tenth of
 * a core at most. Between notifications nothing runs but a safety pass every {@link #SAFETY_INTERVAL_MS}: the full
 * listing and every status, as when polling.
 *
 * <p><b>Polled.</b> Where there are no notifications (a system or JDK without them, the per-user limit of inotify
 * watches reached, a worktree with a huge number of folders), every {@link #LIST_INTERVAL_MS} it lists the
 * worktrees and refreshes the dirty state of every worktree, unless a pass of {@code git status} calls took
 * long: then the next pass waits ten times the last pass's duration, so watching a huge repository never takes
 * more than about a tenth of one core. A worktree whose head or branch moved is checked again at once.
 *
 * <p>Runs on its own daemon thread ({@code worktree-monitor}). Listeners are called on that thread
 * with an immutable {@link WorktreeSnapshot}; the UI must hand off to its own thread.
 */
public final class WorktreeMonitor implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WorktreeMonitor.class);
    /** Interval between two listings when polling, in ms (and the tick that starts a safety pass). */
    public static final long LIST_INTERVAL_MS = 1_000;
    /** When notified of changes: interval between two full passes (listing and every status), in ms. */
    public static final long SAFETY_INTERVAL_MS = 10_000;
    /** Wait after a first notification before looking, in ms: git writes a commit's files within this. */
    static final long SETTLE_MS = 30;
    /**
     * Share of one core that scans after notifications may take over time, and the most they may take at once after
     * a quiet spell, in ms: a change from a terminal is looked at at once, agents that write files all the time
     * cost a tenth of a core.
     */
    static final double CHANGE_SCAN_SHARE = 0.1;

    static final double CHANGE_SCAN_BURST_MS = 500;

    private final GitRepository repo;
    private final long repositoryId;
    private final WorktreeLister lister;
    private final WorktreeSeenStore seen;
    private final EventLog events;
    private final Clock clock;
    private final List<Consumer<WorktreeSnapshot>> listeners = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService timer;

    private final WorktreeSnapshot placeholder;
    private volatile WorktreeSnapshot last;
    private List<WorktreeInfo> recorded; // what the store holds; touched on the monitor thread only
    private long nextStatusAtNanos = System.nanoTime(); // a System.nanoTime() value: compare by difference
    private volatile boolean statusDueNow = true;
    private String lastError;
    private final boolean notified;
    private volatile WorktreeWatcher watcher;
    private long lastFullPassNanos;
    // What notifications asked for since the last scan; the scan that takes them runs on the monitor thread.
    private final Set<Path> changedWorktrees = ConcurrentHashMap.newKeySet();
    private volatile boolean listingChanged;
    private final AtomicBoolean changeScanScheduled = new AtomicBoolean();
    private double changeScanBudgetMs = CHANGE_SCAN_BURST_MS; // monitor thread only, as the two below
    private long changeScanBudgetAt = System.nanoTime();
    // Per worktree: when an event-driven git status may run again (System.nanoTime(); monitor thread only).
    private final Map<Path, Long> nextStatusOf = new HashMap<>();
    /** Folders watched at most per worktree; set before {@link #start} (tests: a limit reached). */
    int maxWatchedFolders = WorktreeWatcher.MAX_DIRS_PER_WORKTREE;

    public WorktreeMonitor(
            GitRepository repo,
            long repositoryId,
            WorktreeLister lister,
            WorktreeSeenStore seen,
            EventLog events,
            Clock clock) {
        this(repo, repositoryId, lister, seen, events, clock, true);
    }

    /**
     * @param notified whether to ask the file system for change notifications ({@link WorktreeWatcher}); false
     *     polls every {@link #LIST_INTERVAL_MS}, as where there are none
     */
    public WorktreeMonitor(
            GitRepository repo,
            long repositoryId,
            WorktreeLister lister,
            WorktreeSeenStore seen,
            EventLog events,
            Clock clock,
            boolean notified) {
        this.notified = notified;
        this.repo = repo;
        this.repositoryId = repositoryId;
        this.lister = lister;
        this.seen = seen;
        this.events = events;
        this.clock = clock;
        this.timer = Executors.newSingleThreadScheduledExecutor(Threads.daemon("worktree-monitor"));
        this.placeholder = new WorktreeSnapshot(repositoryId, List.of(), clock.instant(), null);
        this.last = placeholder;
    }

    /** The repository watched. */
    public GitRepository repository() {
        return repo;
    }

    /** Store id of the repository watched. */
    public long repositoryId() {
        return repositoryId;
    }

    /**
     * Adds a listener called after every scan that changed something (and after the first one).
     *
     * @return a handle that removes the listener
     */
    public Runnable addListener(Consumer<WorktreeSnapshot> listener) {
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    /** The latest snapshot (empty until the first scan finished). */
    public WorktreeSnapshot snapshot() {
        return last;
    }

    /**
     * Whether {@link #snapshot()} holds a scan's result (a listing or an error). False until the first
     * scan has finished: the snapshot is then an empty placeholder, not "no worktrees".
     */
    public boolean hasSnapshot() {
        return last != placeholder;
    }

    /**
     * Starts watching: the first scan runs at once; then scans follow notifications, with a safety pass every
     * {@link #SAFETY_INTERVAL_MS}, or one every {@link #LIST_INTERVAL_MS} where there are no notifications.
     */
    public void start() {
        if (notified) {
            watcher = WorktreeWatcher.start(repo, lister.git(), this::changed, maxWatchedFolders);
        }
        timer.scheduleWithFixedDelay(this::tick, 0, LIST_INTERVAL_MS, TimeUnit.MILLISECONDS);
    }

    /** Whether changes are seen through notifications (false: polled every {@link #LIST_INTERVAL_MS}). */
    public boolean notified() {
        WorktreeWatcher w = watcher;
        return w != null && w.complete();
    }

    private void tick() {
        long now = System.nanoTime();
        if (!notified() || lastFullPassNanos == 0 || now - lastFullPassNanos >= SAFETY_INTERVAL_MS * 1_000_000) {
            lastFullPassNanos = now;
            safeScan();
        }
    }

    /** A notification from the watcher thread: scan soon, on the monitor thread. */
    private void changed(WorktreeWatcher.Change c) {
        changedWorktrees.addAll(c.worktrees());
        if (c.listing()) {
            listingChanged = true;
        }
        scheduleChangeScan(SETTLE_MS);
    }

    private void scheduleChangeScan(long delayMs) {
        if (changeScanScheduled.compareAndSet(false, true)) {
            try {
                timer.schedule(this::changeScan, delayMs, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                changeScanScheduled.set(false); // closed
            }
        }
    }

    private void changeScan() {
        changeScanScheduled.set(false);
        long t0 = System.nanoTime();
        changeScanBudgetMs = Math.min(
                CHANGE_SCAN_BURST_MS, changeScanBudgetMs + (t0 - changeScanBudgetAt) / 1e6 * CHANGE_SCAN_SHARE);
        changeScanBudgetAt = t0;
        if (changeScanBudgetMs < 0) {
            scheduleChangeScan((long) Math.ceil(-changeScanBudgetMs / CHANGE_SCAN_SHARE)); // what is asked waits
            return;
        }
        boolean listing = listingChanged;
        listingChanged = false;
        Set<Path> paths = new HashSet<>(changedWorktrees);
        changedWorktrees.removeAll(paths);
        try {
            scan(listing || !hasSnapshot(), paths, false);
        } catch (RuntimeException e) {
            LOG.warn("Worktree scan of {} failed", repo.mainWorktree(), e);
        } finally {
            changeScanBudgetMs -= (System.nanoTime() - t0) / 1e6;
        }
    }

    /**
     * Asks for a scan as soon as possible, with fresh dirty states (e.g. the user pressed refresh, or
     * Paddock itself changed a worktree).
     */
    public void poke() {
        timer.execute(() -> {
            refreshDirtyStateNextScan();
            safeScan();
        });
    }

    /** Makes the next scan run {@code git status} in every worktree, whatever the back-off says. */
    void refreshDirtyStateNextScan() {
        statusDueNow = true;
    }

    private void safeScan() {
        try {
            scan();
        } catch (RuntimeException e) {
            LOG.warn("Worktree scan of {} failed", repo.mainWorktree(), e);
        }
    }

    /**
     * One full scan: list, refresh dirty states when due, record differences as events, publish.
     * Package-private so tests can drive it without the timer.
     */
    void scan() {
        scan(true, Set.of(), true);
    }

    /**
     * One scan.
     *
     * @param listing whether to list the worktrees (else the last listing is taken again)
     * @param changed worktrees whose status to refresh (each no sooner than its back-off allows)
     * @param fullPass whether every status is refreshed when the pass back-off allows
     */
    private void scan(boolean listing, Set<Path> changed, boolean fullPass) {
        List<WorktreeInfo> current;
        if (listing || lastError != null) {
            try {
                current = settled(lister.listQuick(repo));
            } catch (GitException e) {
                publishError(e.getMessage());
                return;
            } catch (RuntimeException e) {
                // e.g. a path this JVM cannot represent: say so once instead of failing every second
                publishError("Cannot list the worktrees: " + e);
                return;
            }
            WorktreeWatcher w = watcher;
            if (w != null) {
                w.track(current);
            }
        } else {
            current = last.worktrees().stream()
                    .map(WorktreeInfo::withMissingChecked)
                    .toList();
        }
        try {
            if (recorded == null) {
                recorded = seen.load(repositoryId);
            }
            current = withDirtyState(current, changed, fullPass);
            List<WorktreeInfo> baseline = recorded;
            List<EventDraft> changes;
            if (baseline.isEmpty()) {
                changes = List.of(EventDraft.of(
                        repositoryId,
                        null,
                        EventKinds.REPOSITORY_OPENED,
                        "Watching " + current.size() + (current.size() == 1 ? " worktree" : " worktrees") + " of "
                                + repo.mainWorktree(),
                        Map.of("worktrees", current.size())));
            } else {
                changes = WorktreeChanges.between(repositoryId, repo.mainWorktree(), baseline, current);
            }
            boolean stateChanged = baseline.isEmpty() || !sameState(baseline, current);
            if (stateChanged) {
                List<WorktreeInfo> toStore = current;
                seen.jdbc().inTransaction(tx -> {
                    for (EventDraft d : changes) {
                        events.append(tx, d);
                    }
                    seen.replace(tx, repositoryId, toStore);
                    return null;
                });
                recorded = current;
            }
            boolean publish = stateChanged || lastError != null || !sameDisplay(last.worktrees(), current);
            lastError = null;
            if (publish) {
                last = new WorktreeSnapshot(repositoryId, current, clock.instant(), null);
                listeners.forEach(l -> l.accept(last));
            }
        } catch (StoreException e) {
            publishError("Cannot record worktree changes: " + e.getMessage());
        }
    }

    /**
     * Leaves out worktrees that {@code git worktree add} is still checking out: git lists them as
     * locked with the reason "initializing" until it is done. They appear on a later scan, once, as added.
     */
    private static List<WorktreeInfo> settled(List<WorktreeInfo> listed) {
        return listed.stream()
                .filter(w -> !INITIALIZING.equals(w.lockedReason()))
                .toList();
    }

    /** The lock reason git gives a worktree while {@code git worktree add} fills it (builtin/worktree.c). */
    static final String INITIALIZING = "initializing";

    private List<WorktreeInfo> withDirtyState(List<WorktreeInfo> listed, Set<Path> changed, boolean fullPass) {
        Map<Path, WorktreeInfo> previous = new HashMap<>();
        last.worktrees().forEach(w -> previous.put(w.path(), w));
        long started = System.nanoTime();
        // nanoTime may be negative and may overflow: compare by difference
        boolean due = statusDueNow || (fullPass && started - nextStatusAtNanos >= 0);
        statusDueNow = false;
        long nextDeferred = Long.MAX_VALUE;
        List<WorktreeInfo> out = new ArrayList<>(listed.size());
        for (WorktreeInfo w : listed) {
            WorktreeInfo before = previous.get(w.path());
            boolean moved = before == null
                    || !Objects.equals(before.head(), w.head())
                    || !Objects.equals(before.branch(), w.branch());
            boolean asked = changed.contains(w.path());
            long now = System.nanoTime();
            Long allowedAt = nextStatusOf.get(w.path());
            boolean allowed = allowedAt == null || now - allowedAt >= 0;
            if (asked && !allowed && !due && !moved) {
                changedWorktrees.add(w.path()); // again once its back-off is over
                nextDeferred = Math.min(nextDeferred, allowedAt - now);
            }
            if (w.prunable() || w.missing()) {
                out.add(w.withDetails(w.subject(), null, 0));
            } else if (due || moved || (asked && allowed)) {
                long t0 = System.nanoTime();
                WorktreeInfo checked = lister.withStatus(w);
                long t1 = System.nanoTime();
                nextStatusOf.put(w.path(), t1 + 9 * (t1 - t0)); // ten durations after this one started
                if (checked.dirty() == null && before != null && before.dirty() != null) {
                    // git status failed this once (a directory briefly gone, a lock): keep what we knew
                    checked = checked.withDetails(checked.subject(), before.dirty(), before.changedFiles());
                }
                out.add(checked);
            } else {
                out.add(w.withDetails(w.subject(), before.dirty(), before.changedFiles()));
            }
        }
        if (due) {
            // The next full pass may start ten pass-durations after this one started: at most a tenth of a core.
            long took = System.nanoTime() - started;
            nextStatusAtNanos = started + 10 * took;
        }
        if (nextDeferred != Long.MAX_VALUE) {
            scheduleChangeScan(Math.max(1, nextDeferred / 1_000_000 + 1));
        }
        if (nextStatusOf.size() > 4 * Math.max(16, listed.size())) {
            nextStatusOf
                    .keySet()
                    .retainAll(listed.stream().map(WorktreeInfo::path).toList());
        }
        return out;
    }

    /** Equal in what is stored (and what changes produce events). */
    private static boolean sameState(List<WorktreeInfo> a, List<WorktreeInfo> b) {
        if (a.size() != b.size()) {
            return false;
        }
        Map<Path, WorktreeInfo> byPath = new HashMap<>();
        a.forEach(w -> byPath.put(w.path(), w));
        for (WorktreeInfo w : b) {
            WorktreeInfo o = byPath.get(w.path());
            if (o == null
                    || !Objects.equals(o.head(), w.head())
                    || !Objects.equals(o.branch(), w.branch())
                    || o.detached() != w.detached()
                    || o.locked() != w.locked()
                    || o.prunable() != w.prunable()
                    || o.missing() != w.missing()
                    || !Objects.equals(o.dirty(), w.dirty())) {
                return false;
            }
        }
        return true;
    }

    private static boolean sameDisplay(List<WorktreeInfo> a, List<WorktreeInfo> b) {
        return a.equals(b);
    }

    private void publishError(String message) {
        if (message.equals(lastError)) {
            return;
        }
        LOG.warn("Worktrees of {}: {}", repo.mainWorktree(), message);
        lastError = message;
        last = new WorktreeSnapshot(repositoryId, last.worktrees(), clock.instant(), message);
        listeners.forEach(l -> l.accept(last));
    }

    /** Stops the scans and the notifications; waits up to a second for a running scan. */
    @Override
    public void close() {
        WorktreeWatcher w = watcher;
        if (w != null) {
            w.close();
        }
        timer.shutdownNow();
        try {
            timer.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
