package dev.paddock.worktree;

import dev.paddock.events.EventDraft;
import dev.paddock.events.EventKinds;
import dev.paddock.events.EventLog;
import dev.paddock.store.StoreException;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches one repository's worktrees and records every change as an event.
 *
 * <p>Every {@link #LIST_INTERVAL_MS} it lists the worktrees (one {@code git worktree list} process).
 * The dirty state of every worktree is refreshed every {@link #LIST_INTERVAL_MS} too, unless a pass
 * of {@code git status} calls took long: then the next pass waits ten times the last pass's
 * duration, so watching a huge repository never takes more than about a tenth of one core. A
 * worktree whose head or branch moved is checked again at once.
 *
 * <p>Runs on its own daemon thread ({@code worktree-monitor}). Listeners are called on that thread
 * with an immutable {@link WorktreeSnapshot}; the UI must hand off to its own thread.
 */
public final class WorktreeMonitor implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WorktreeMonitor.class);
    /** Interval between two listings, in ms. */
    public static final long LIST_INTERVAL_MS = 1_000;

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
    private List<WorktreeInfo> recorded;   // what the store holds; touched on the monitor thread only
    private long nextStatusAtNanos = System.nanoTime(); // a System.nanoTime() value: compare by difference
    private volatile boolean statusDueNow = true;
    private String lastError;

    public WorktreeMonitor(GitRepository repo, long repositoryId, WorktreeLister lister, WorktreeSeenStore seen,
                           EventLog events, Clock clock) {
        this.repo = repo;
        this.repositoryId = repositoryId;
        this.lister = lister;
        this.seen = seen;
        this.events = events;
        this.clock = clock;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "worktree-monitor");
            t.setDaemon(true);
            return t;
        });
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

    /** Starts scanning: the first scan runs at once, then one every {@link #LIST_INTERVAL_MS}. */
    public void start() {
        timer.scheduleWithFixedDelay(this::safeScan, 0, LIST_INTERVAL_MS, TimeUnit.MILLISECONDS);
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
     * One scan: list, refresh dirty states when due, record differences as events, publish.
     * Package-private so tests can drive it without the timer.
     */
    void scan() {
        List<WorktreeInfo> current;
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
        try {
            if (recorded == null) {
                recorded = seen.load(repositoryId);
            }
            current = withDirtyState(current);
            List<WorktreeInfo> baseline = recorded;
            List<EventDraft> changes;
            if (baseline.isEmpty()) {
                changes = List.of(EventDraft.of(repositoryId, null, EventKinds.REPOSITORY_OPENED,
                        "Watching " + current.size() + (current.size() == 1 ? " worktree" : " worktrees") + " of "
                                + repo.mainWorktree(), Map.of("worktrees", current.size())));
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
        return listed.stream().filter(w -> !INITIALIZING.equals(w.lockedReason())).toList();
    }

    /** The lock reason git gives a worktree while {@code git worktree add} fills it (builtin/worktree.c). */
    static final String INITIALIZING = "initializing";

    private List<WorktreeInfo> withDirtyState(List<WorktreeInfo> listed) {
        Map<java.nio.file.Path, WorktreeInfo> previous = new HashMap<>();
        last.worktrees().forEach(w -> previous.put(w.path(), w));
        long started = System.nanoTime();
        boolean due = statusDueNow || started - nextStatusAtNanos >= 0; // nanoTime may be negative and may overflow
        statusDueNow = false;
        List<WorktreeInfo> out = new java.util.ArrayList<>(listed.size());
        for (WorktreeInfo w : listed) {
            WorktreeInfo before = previous.get(w.path());
            boolean moved = before == null || !Objects.equals(before.head(), w.head())
                    || !Objects.equals(before.branch(), w.branch());
            if (w.prunable() || w.missing()) {
                out.add(w.withDetails(w.subject(), null, 0));
            } else if (due || moved) {
                WorktreeInfo checked = lister.withStatus(w);
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
        return out;
    }

    /** Equal in what is stored (and what changes produce events). */
    private static boolean sameState(List<WorktreeInfo> a, List<WorktreeInfo> b) {
        if (a.size() != b.size()) {
            return false;
        }
        Map<java.nio.file.Path, WorktreeInfo> byPath = new HashMap<>();
        a.forEach(w -> byPath.put(w.path(), w));
        for (WorktreeInfo w : b) {
            WorktreeInfo o = byPath.get(w.path());
            if (o == null || !Objects.equals(o.head(), w.head()) || !Objects.equals(o.branch(), w.branch())
                    || o.detached() != w.detached() || o.locked() != w.locked() || o.prunable() != w.prunable()
                    || o.missing() != w.missing() || !Objects.equals(o.dirty(), w.dirty())) {
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

    /** Stops the scans; waits up to a second for a running one. */
    @Override
    public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
