package dev.paddock.merge;

import static dev.paddock.merge.MergeStore.cols;

import dev.paddock.common.PaddockException;
import dev.paddock.common.Words;
import dev.paddock.events.EventDraft;
import dev.paddock.events.EventKinds;
import dev.paddock.merge.conflict.ConflictReport;
import dev.paddock.repo.RepoRecord;
import dev.paddock.repo.RepoStore;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.sandbox.SandboxStore;
import dev.paddock.store.StoreException;
import dev.paddock.worktree.GitException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The merge queue (see docs/decisions/0001-merge-queue-private-worktree-and-cas.md): one serial queue per
 * repository, each on its own daemon thread ({@code merge-queue-<repository id>}), fed by a tick
 * ({@code merge-queue}, about once a second) that enqueues finished sandboxes whose branch has commits base lacks.
 *
 * <p>An entry goes through three steps, all in a private worktree {@code <repo>/.worktrees/.merge/<id>} detached
 * at base, never in the user's or the agent's worktree:
 * <ol>
 *   <li><b>updating</b>: {@code git merge --no-ff --no-commit <branch>} (ours = base, theirs = the branch); with
 *       the {@code rebase} strategy the branch's commits are first replayed onto base in a detached copy. For
 *       {@code merge}, one three-way merge both brings the branch up to date and gives the result's tree.</li>
 *   <li><b>testing</b>: the repository's test command in that worktree ({@link TestRunner}; none: skipped), killed
 *       as a tree after its timeout (a failure).</li>
 *   <li><b>merging</b>: commit (two parents), record the commit, then move base with a compare-and-set
 *       {@code git update-ref refs/heads/<base> <new> <old>}: base is the old commit or the whole merge, never
 *       half. If base is checked out in a worktree (usually the main one), that tree must have no uncommitted
 *       changes to tracked files (else the queue waits and says which files) and no untracked file where the
 *       merge adds one; after the ref moved, its files follow with {@code git read-tree -m -u old new}, which
 *       touches only the files the merge changed. Chosen over {@code git merge --ff-only} in that tree because
 *       the ref move stays one compare-and-set that a crash cannot split, and a flag on the entry
 *       ({@code main_tree_pending}) lets a restart finish the file update.</li>
 * </ol>
 * A branch that changes policy or hook configuration waits for a person's review before its attempt and again,
 * should the result change it otherwise, before base moves ({@link PolicyGate}). Any failure leaves base as it was; the attempt counts, and after the repository's maximum the entry leaves the
 * queue for a person (sandbox {@code awaiting_human}). Conflicts go to the conflict queue with the report of
 * {@link ConflictAnalysis}; the merge worktree is kept for {@link ResolutionService}. Entries whose last test
 * passed go first. At start, {@link #recover()} finishes or requeues what a killed Paddock left running and
 * removes leftover merge worktrees.
 */
public final class MergeQueue implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MergeQueue.class);
    /** Period of the tick, in ms. */
    public static final long TICK_MS = 1_000;

    /** Told when an entry enters a step, on the queue's thread (tests use it to stop Paddock mid-step). */
    public interface StepListener {
        void entered(MergeEntry entry, MergeStep step);
    }

    private final MergeStore store;
    private final RepoStore repos;
    private final SandboxStore sandboxStore;
    private final SandboxLink sandboxes;
    private final MergeGit git;
    private final ConflictAnalysis analysis;
    private final TierTestRunner tests;
    private final Path logDir;
    private final StepListener stepListener;
    private final PolicyGate gate;
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private final Map<Long, ExecutorService> workers = new ConcurrentHashMap<>();
    private final Set<Long> busy = ConcurrentHashMap.newKeySet();
    private final Set<Long> cancelRequested = ConcurrentHashMap.newKeySet();
    private final Map<Long, String> lastRefusal = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "merge-queue"));
    /** Runs {@link EarlyMerge}s beside the queue threads. */
    private final ExecutorService prepare = Executors.newCachedThreadPool(r -> daemon(r, "merge-queue-prepare"));
    private volatile boolean started;

    /**
     * @param tests runs the test command in the tier of the entry's sandbox
     * @param logDir folder of the test logs ({@code <entry id>.log})
     * @param stepListener told of each step (null: nobody)
     */
    public MergeQueue(MergeStore store, RepoStore repos, SandboxStore sandboxes, MergeGit git, ConflictAnalysis analysis,
                      TierTestRunner tests, Path logDir, StepListener stepListener) {
        this.store = store;
        this.repos = repos;
        this.sandboxStore = sandboxes;
        this.sandboxes = new SandboxLink(sandboxes);
        this.git = git;
        this.analysis = analysis;
        this.tests = tests;
        this.logDir = logDir;
        this.stepListener = stepListener == null ? (e, s) -> { } : stepListener;
        this.gate = new PolicyGate(this);
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    /** Recovers what a previous Paddock left (see {@link #recover()}), then ticks every {@link #TICK_MS}. */
    public void start() {
        started = true;
        timer.execute(() -> {
            try {
                recover();
            } catch (PaddockException | RuntimeException e) {
                LOG.warn("Merge queue recovery failed: {}", e.toString());
            }
        });
        timer.scheduleWithFixedDelay(this::safeTick, 0, TICK_MS, TimeUnit.MILLISECONDS);
    }

    /** Asks for a tick soon (an entry was enqueued or retried); no-op before {@link #start()}. */
    public void poke() {
        if (started && !timer.isShutdown()) {
            timer.execute(this::safeTick);
        }
    }

    /** Registers a callback run after the queue changed something (on a queue thread). */
    public void addListener(Runnable listener) {
        listeners.add(listener);
    }

    /** Stops telling {@code listener} of changes. */
    public void removeListener(Runnable listener) {
        listeners.remove(listener);
    }

    /** The test log of an entry. */
    public Path logFile(long entryId) {
        return logDir.resolve(entryId + ".log");
    }

    /** Tells the listeners that something changed (also for changes made by {@link MergeService} directly). */
    void changed() {
        listeners.forEach(l -> {
            try {
                l.run();
            } catch (RuntimeException e) {
                LOG.debug("Merge queue listener failed: {}", e.toString());
            }
        });
    }

    private void safeTick() {
        try {
            enqueueFinished();
            for (long repo : store.repositoriesWithQueued()) {
                schedule(repo);
            }
        } catch (PaddockException | RuntimeException e) {
            LOG.warn("Merge queue tick failed: {}", e.toString());
        }
    }

    /** Runs the repository's queue on its worker unless it runs already. */
    private void schedule(long repositoryId) {
        if (!busy.add(repositoryId)) {
            return;
        }
        try {
            workers.computeIfAbsent(repositoryId, id -> Executors.newSingleThreadExecutor(r -> daemon(r, "merge-queue-" + id)))
                    .execute(() -> {
                        try {
                            while (started && runNext(repositoryId)) {
                                changed();
                            }
                        } catch (PaddockException | RuntimeException e) {
                            LOG.warn("Merge queue of repository {} failed: {}", repositoryId, e.toString());
                        } finally {
                            busy.remove(repositoryId);
                        }
                    });
        } catch (java.util.concurrent.RejectedExecutionException closing) {
            busy.remove(repositoryId);
        }
    }

    /**
     * Runs {@code work} on the repository's queue thread once started (so it never overlaps an entry of the same
     * repository), else at once on this thread (tests, CLI).
     */
    void onQueue(long repositoryId, Runnable work) {
        if (!started) {
            work.run();
            return;
        }
        workers.computeIfAbsent(repositoryId, id -> Executors.newSingleThreadExecutor(r -> daemon(r, "merge-queue-" + id)))
                .execute(() -> {
                    work.run();
                    changed();
                });
    }

    /**
     * Enqueues every finished sandbox ({@code done}) whose branch has a commit that base lacks and whose run has no
     * entry yet. A done sandbox with nothing new stays done: there is nothing to merge.
     *
     * @return how many entered the queue
     */
    public int enqueueFinished() throws PaddockException {
        int n = 0;
        for (SandboxRecord s : sandboxStore.listLive()) {
            if (s.state() != SandboxState.DONE || sandboxStore.isBeingRemoved(s.id())) {
                continue; // a removal's own commit of leftovers is kept on the branch, not merged
            }
            java.time.Instant since = s.finishedAt() != null ? s.finishedAt() : s.createdAt();
            if (store.hasEntrySince(s.id(), since)) {
                continue;
            }
            Optional<RepoRecord> repo = repos.find(s.repositoryId());
            if (repo.isEmpty()) {
                continue;
            }
            Path main = repo.get().path();
            RepoRecord target = sandboxes.targetOf(repo.get(), s.id());
            Optional<String> tip = git.resolve(main, "refs/heads/" + s.branch());
            Optional<String> base = git.resolve(main, "refs/heads/" + target.baseBranch());
            if (tip.isEmpty() || base.isEmpty() || git.isAncestor(main, tip.get(), base.get())) {
                continue;
            }
            enqueue(target, s.id(), s.branch(), "supervisor");
            n++;
        }
        return n;
    }

    /** Inserts a queued entry (and moves its sandbox to merging). */
    MergeEntry enqueue(RepoRecord registered, String sandboxId, String branch, String who) throws PaddockException {
        RepoRecord repo = sandboxes.targetOf(registered, sandboxId);
        MergeSettings st = store.settings(repo.id());
        MergeEntry e = store.insert(repo.id(), sandboxId, branch, st.strategy(), who,
                EventDraft.of(repo.id(), sandboxId, EventKinds.MERGE_ENQUEUED, branch + " entered the merge queue of "
                        + repo.baseBranch() + " (by " + who + ")", Map.of("branch", branch, "by", who)));
        sandboxes.move(sandboxId, SandboxState.MERGING, sandboxId + " entered the merge queue");
        changed();
        poke();
        return e;
    }

    /**
     * Takes the repository's next entry through its steps, on this thread.
     *
     * @return whether an entry was taken (false: the queue is empty or waits for a dirty checkout)
     */
    public boolean runNext(long repositoryId) throws PaddockException {
        Optional<MergeEntry> next = store.next(repositoryId);
        if (next.isEmpty()) {
            return false;
        }
        RepoRecord registered = repos.find(repositoryId).orElseThrow(() -> new MergeException(
                MergeException.Kind.NOT_FOUND, "no repository with id " + repositoryId));
        MergeEntry e = next.get();
        RepoRecord repo = sandboxes.targetOf(registered, e.sandboxId());
        MergeSettings st = store.settings(repositoryId);
        Optional<Path> checkedOut = git.checkedOutAt(repo.path(), repo.baseBranch());
        // The in-core merge needs nothing from the checkout: start it while git status looks at the checkout. Not
        // while the queue keeps refusing a dirty checkout (each would leave a commit object nobody points at).
        EarlyMerge early = checkedOut.isPresent() && mergesInCore(st) && !lastRefusal.containsKey(repositoryId)
                ? EarlyMerge.start(git, repo.path(), repo.baseBranch(), e.branch(), mergeMessage(e), prepare) : null;
        if (refusedForDirtyTree(repo, e, checkedOut)) {
            return false;
        }
        Optional<SandboxState> sb = sandboxes.stateOf(e.sandboxId());
        if (e.sandboxId() != null && (sb.isEmpty() || !Set.of(SandboxState.DONE, SandboxState.MERGING,
                SandboxState.AWAITING_HUMAN, SandboxState.CONFLICT).contains(sb.get()))) {
            store.move(e.id(), MergeState.QUEUED, MergeState.CANCELLED, cols("finished_at", store.now(), "result",
                    "its sandbox is " + sb.map(SandboxState::id).orElse("gone")), event(e, EventKinds.MERGE_CANCELLED,
                    e.label() + " left the merge queue: its sandbox is " + sb.map(SandboxState::id).orElse("gone")));
            return true;
        }
        new Attempt(repo, e, checkedOut, st, early).run();
        return true;
    }

    /** Whether a clean merge under these settings is made in core (no test command, merge strategy). */
    private static boolean mergesInCore(MergeSettings st) {
        return !st.hasTest() && st.strategy() == MergeStrategy.MERGE;
    }

    /** The message of an entry's merge commit. */
    private static String mergeMessage(MergeEntry e) {
        return "Merge branch '" + e.branch() + "'" + (e.sandboxId() == null ? "" : " (sandbox " + e.sandboxId() + ")")
                + " through the Paddock merge queue";
    }

    /**
     * Whether base's checked-out tree has uncommitted changes to tracked files: the queue then waits (the entry
     * stays queued, its result names the files, one event per new list) instead of touching the user's files.
     */
    private boolean refusedForDirtyTree(RepoRecord repo, MergeEntry e, Optional<Path> tree) throws PaddockException {
        List<String> dirty = tree.isPresent() ? git.changedTrackedFiles(tree.get()) : List.of();
        if (dirty.isEmpty()) {
            lastRefusal.remove(repo.id());
            return false;
        }
        String why = refusal(repo, tree.get(), dirty);
        store.set(e.id(), cols("result", why));
        if (!why.equals(lastRefusal.put(repo.id(), why))) {
            store.event(e.id(), event(e, EventKinds.MERGE_REFUSED, why));
            changed();
        }
        return true;
    }

    private static String refusal(RepoRecord repo, Path tree, List<String> files) {
        return "The merge queue waits: " + repo.baseBranch() + " is checked out in " + tree
                + " with uncommitted changes to " + String.join(", ", files.subList(0, Math.min(files.size(), 20)))
                + (files.size() > 20 ? " and " + (files.size() - 20) + " more" : "")
                + ". Commit or stash them; Paddock never touches your own files.";
    }

    /** Asks a running entry to stop (its test run is killed); the queue then marks it cancelled. */
    void requestCancel(long entryId) {
        cancelRequested.add(entryId);
    }

    /** One attempt at an entry. */
    private final class Attempt {
        private final RepoRecord repo;
        private final Path main;
        /** Where base was checked out (and clean) when the attempt started; null: look again before moving base. */
        private final Optional<Path> checkedOutAtStart;
        /** The repository's settings as read by runNext (null: read them). */
        private final MergeSettings settings;
        /** The in-core merge started while the checkout was checked (null: none). */
        private final EarlyMerge early;
        private MergeEntry e;

        Attempt(RepoRecord repo, MergeEntry e, Optional<Path> checkedOutAtStart) {
            this(repo, e, checkedOutAtStart, null, null);
        }

        Attempt(RepoRecord repo, MergeEntry e, Optional<Path> checkedOutAtStart, MergeSettings settings,
                EarlyMerge early) {
            this.repo = repo;
            this.main = repo.path();
            this.e = e;
            this.checkedOutAtStart = checkedOutAtStart;
            this.settings = settings;
            this.early = early;
        }

        void run() throws PaddockException {
            MergeSettings st = settings != null ? settings : store.settings(repo.id());
            EarlyMerge.Result pre = early != null ? early.result() : null;
            InProcessGit.Tips tips = pre != null ? pre.tips()
                    : git.tips(main, "refs/heads/" + repo.baseBranch(), "refs/heads/" + e.branch());
            Optional<String> ours = tips.ours();
            Optional<String> theirs = tips.theirs();
            Path wt = MergeGit.worktreeOf(main, e.id());
            // The early merge is clean and committed: updating, (no) testing and merging enter in one transaction.
            if (ours.isPresent() && theirs.isPresent() && !tips.theirsInOurs()
                    && gate.holdsBeforeAttempt(repo, e, ours.get(), theirs.get())) {
                return; // waits for a person's review of its policy change
            }
            boolean prepared = pre != null && pre.candidate() != null && mergesInCore(st) && checkedOutAtStart != null;
            Map<String, Object> columns = cols("step", MergeStep.UPDATING.id(),
                    "started_at", store.now(), "step_started_at", store.now(), "base_before", ours.orElse(null),
                    "theirs_commit", theirs.orElse(null), "worktree_path", wt.toString(), "merge_commit", null,
                    "result", null, "strategy", st.strategy().id(), "main_tree_pending", false);
            EventDraft updating = event(e, EventKinds.MERGE_UPDATING, e.label() + ": bringing it up to date with "
                    + repo.baseBranch() + " (" + st.strategy().id() + ", attempt " + (e.attempts() + 1) + ")");
            List<EventDraft> more = List.of();
            if (prepared) {
                columns.putAll(cols("step", MergeStep.MERGING.id(), "merge_commit", pre.candidate(),
                        "main_tree_pending", checkedOutAtStart.isPresent()));
                more = List.of(event(e, EventKinds.MERGE_TESTING, e.label() + ": no test command is set; testing skipped"),
                        event(e, EventKinds.MERGE_MERGING, movingMessage(pre.candidate())));
            }
            Optional<MergeEntry> started = store.moveAndRead(e.id(), MergeState.QUEUED, MergeState.RUNNING, columns,
                    updating, more);
            if (started.isEmpty()) {
                return; // cancelled meanwhile
            }
            e = started.get();
            sandboxes.move(e.sandboxId(), SandboxState.MERGING, e.sandboxId() + " is being merged");
            stepListener.entered(e, MergeStep.UPDATING);
            try {
                if (prepared) {
                    changed();
                    stepListener.entered(e, MergeStep.MERGING);
                    checkCancelled();
                    moveBaseEntered(ours.get(), pre.candidate(), checkedOutAtStart, true, pre.added());
                    return;
                }
                if (ours.isEmpty() || theirs.isEmpty()) {
                    throw new Failure(ours.isEmpty() ? "the base branch " + repo.baseBranch() + " does not exist"
                            : "the branch " + e.branch() + " does not exist");
                }
                String message = mergeMessage(e);
                if (mergesInCore(st) && inCore(ours.get(), theirs.get(), tips.theirsInOurs(), message, pre)) {
                    return;
                }
                git.addWorktree(main, wt, ours.get());
                String mergeWhat = theirs.get();
                if (st.strategy() == MergeStrategy.REBASE) {
                    mergeWhat = git.rebased(wt, ours.get(), theirs.get()).orElse(theirs.get());
                }
                MergeGit.MergeOutcome m = git.mergeNoCommit(wt, mergeWhat);
                if (m == MergeGit.MergeOutcome.UP_TO_DATE) {
                    finishMerged(ours.get(), null, "nothing to merge: " + e.branch() + " is already in "
                            + repo.baseBranch());
                    return;
                }
                if (m == MergeGit.MergeOutcome.CONFLICT) {
                    conflict(ours.get(), theirs.get(), wt);
                    return;
                }
                checkCancelled();
                runTests(st, wt);
                String candidate = git.commit(wt, message);
                moveBase(ours.get(), candidate, null);
            } catch (PolicyGate.NeedsReview r) {
                gate.holdRunning(repo, e, r.files);
            } catch (Failure f) {
                fail(f.getMessage(), f.counts);
            } catch (GitException | MergeException ex) {
                fail(ex.getMessage(), true);
            } catch (RuntimeException ex) {
                LOG.warn("Merge attempt of {} failed unexpectedly", e.label(), ex);
                fail("unexpected error: " + ex, true); // never leave the entry running until a restart
            }
        }

        /**
         * Finishes a merge whose conflicts a person resolved in the merge worktree: commit (two parents: base as it
         * was, the branch), rebuild on base when base moved meanwhile (in core; new conflicts send it back), test,
         * then the compare-and-set of base. A failure sends the entry back to the conflict queue with the worktree
         * kept and base untouched.
         */
        void completeResolved() throws PaddockException {
            Path wt = e.worktree();
            if (!store.move(e.id(), MergeState.CONFLICT, MergeState.RUNNING, cols("step", MergeStep.MERGING.id(),
                    "step_started_at", store.now(), "result", null), event(e, EventKinds.MERGE_MERGING, e.label()
                    + ": every conflict is resolved; finishing the merge"))) {
                return;
            }
            if (!store.conflicts(e.id()).stream().allMatch(MergeStore.StoredConflict::resolved)) {
                // A person reopened a file between the last resolution and this move (MergeStore#unresolve).
                store.move(e.id(), MergeState.RUNNING, MergeState.CONFLICT, cols("step", null, "result",
                        "a resolved file was reopened"), event(e,
                        EventKinds.MERGE_CONFLICT, e.label() + ": a file was reopened; it waits for a person again"));
                return;
            }
            e = store.find(e.id()).orElseThrow();
            sandboxes.move(e.sandboxId(), SandboxState.MERGING, e.sandboxId() + " is being merged");
            try {
                String ours = e.baseBefore();
                String message = "Merge branch '" + e.branch() + "'" + (e.sandboxId() == null ? ""
                        : " (sandbox " + e.sandboxId() + ")") + " through the Paddock merge queue (conflicts resolved)";
                String candidate;
                if (git.resolve(wt, "MERGE_HEAD").isPresent()) {
                    candidate = git.commit(wt, message);
                } else { // finished once before (tests failed, or Paddock stopped): commit what is staged now
                    candidate = git.commitTree(main, git.writeTree(wt), message, ours, e.theirsCommit());
                    git.checkoutDetached(wt, candidate);
                }
                String baseNow = git.resolve(main, "refs/heads/" + repo.baseBranch())
                        .orElseThrow(() -> new Failure("the base branch " + repo.baseBranch() + " does not exist"));
                if (!baseNow.equals(ours)) {
                    String tree = git.mergeTree(main, baseNow, candidate).orElseThrow(() -> new Failure(
                            repo.baseBranch() + " moved meanwhile and the resolved merge conflicts with it; retry the"
                                    + " entry to merge afresh"));
                    candidate = git.commitTree(main, tree, message, baseNow, e.theirsCommit());
                    git.checkoutDetached(wt, candidate);
                    ours = baseNow;
                }
                runTests(store.settings(repo.id()), wt);
                moveBase(ours, candidate, null);
            } catch (PolicyGate.NeedsReview r) {
                gate.holdRunning(repo, e, r.files);
            } catch (Failure | GitException | MergeException f) {
                store.move(e.id(), MergeState.RUNNING, MergeState.CONFLICT, cols("step", null, "result",
                        f.getMessage()), event(e, EventKinds.MERGE_FAILED, e.label() + " could not be finished after"
                        + " its conflicts were resolved; " + repo.baseBranch() + " is unchanged: " + f.getMessage()));
                sandboxes.move(e.sandboxId(), SandboxState.CONFLICT, e.sandboxId() + " still needs a person: "
                        + f.getMessage());
            }
        }

        /**
         * Without a test command nobody reads the result's files, so a clean merge is made in core
         * ({@code git merge-tree --write-tree}, the same ort merge as {@code git merge}) and committed with
         * {@code git commit-tree -p base -p branch}: no checkout of the whole tree. A conflict (or a git that cannot)
         * falls back to the merge worktree, which keeps the conflicted state for a person.
         *
         * @param theirsInOurs whether the branch's tip is already in base (nothing to merge)
         * @param pre the same merge made early ({@link EarlyMerge}) from these tips; null: make it now
         * @return whether the entry was finished here
         */
        private boolean inCore(String ours, String theirs, boolean theirsInOurs, String message, EarlyMerge.Result pre)
                throws PaddockException {
            if (theirsInOurs) {
                finishMerged(ours, null, "nothing to merge: " + e.branch() + " is already in " + repo.baseBranch());
                return true;
            }
            Optional<String> tree = pre != null ? pre.tree() : git.mergeTree(main, ours, theirs);
            if (tree.isEmpty() || tree.get().isEmpty()) {
                return false;
            }
            String candidate = pre != null ? pre.candidate() : git.commitTree(main, tree.get(), message, ours, theirs);
            // The checkout was looked at a few milliseconds ago (no test ran since): no second look.
            moveBase(ours, candidate, checkedOutAtStart, List.of(
                    event(e, EventKinds.MERGE_TESTING, e.label() + ": no test command is set; testing skipped")),
                    pre != null ? pre.added() : null);
            return true;
        }

        /** Step testing. @throws Failure when the test fails, times out or the entry is cancelled */
        private void runTests(MergeSettings st, Path wt) throws PaddockException {
            if (!st.hasTest()) {
                store.event(e.id(), event(e, EventKinds.MERGE_TESTING, e.label() + ": no test command is set; testing skipped"));
                return;
            }
            TestIsolation isolation = TestIsolation.of(sandboxes.find(e.sandboxId()));
            step(MergeStep.TESTING, e.label() + ": running the test command " + isolation.describe() + " (timeout "
                    + st.testTimeout().toSeconds() + " s)");
            Path log = logFile(e.id());
            store.set(e.id(), cols("test_log", log.toString(), "test_container", null));
            TestRunner.Outcome o = tests.run(isolation, e, main, wt, st.testCommand(), st.testTimeout(), log,
                    new TestRunRecord(store, e.id()), () -> cancelRequested.contains(e.id()));
            Boolean passed = o.cancelled() ? e.lastTestPassed() : Boolean.valueOf(o.passed());
            store.set(e.id(), cols("test_pid", null, "test_pid_started_at", null, "test_container", null,
                    "last_test_passed", passed));
            if (o.cancelled()) {
                throw new Cancelled();
            }
            if (!o.passed()) {
                throw new Failure(o.describe(st.testTimeout()) + " (log: " + log + ")");
            }
        }

        /** Step merging: the compare-and-set of base, then the checked-out tree's files. */
        private void moveBase(String ours, String candidate, Optional<Path> checkedClean) throws PaddockException {
            moveBase(ours, candidate, checkedClean, List.of(), null);
        }

        /**
         * Step merging. The candidate and whether the checked-out tree must follow are recorded with the step (one
         * transaction, with the events in {@code before} first) before anything is looked at: a refusal or a
         * failed compare-and-set clears them again ({@link #fail}); a kill before the compare-and-set leaves a
         * candidate that is not in base, which {@link #recover()} puts back in the queue. Should the checked-out
         * tree still refuse to follow after base moved (it changed in the few milliseconds between the look and
         * the move), base is moved back by a second compare-and-set and the attempt fails: base is the old commit
         * or the whole merge with its files, never a moved ref with a tree left behind.
         *
         * @param added the files the merge adds, when known ({@link MergeGit#followRefRefusal(Path, String,
         *     String, List)}); null: git's dry run checks the tree
         */
        private void moveBase(String ours, String candidate, Optional<Path> checkedClean, List<EventDraft> before,
                              List<String> added) throws PaddockException {
            checkCancelled();
            Optional<Path> tree = checkedClean != null ? checkedClean : git.checkedOutAt(main, repo.baseBranch());
            step(MergeStep.MERGING, movingMessage(candidate), before, cols("merge_commit", candidate,
                    "main_tree_pending", tree.isPresent()));
            moveBaseEntered(ours, candidate, tree, checkedClean != null, added);
        }

        private String movingMessage(String candidate) {
            return e.label() + ": moving " + repo.baseBranch() + " to the merge commit " + candidate.substring(0, 12);
        }

        /**
         * Step merging once entered (recorded with the candidate): the checks of the checked-out tree, the
         * compare-and-set, the files.
         *
         * @param tree where base is checked out
         * @param clean whether {@code tree} was just found clean (no second {@code git status})
         */
        private void moveBaseEntered(String ours, String candidate, Optional<Path> tree, boolean clean,
                                     List<String> added) throws PaddockException {
            gate.checkCandidate(main, e, ours, candidate); // whatever produced the candidate
            if (tree.isPresent()) {
                List<String> dirty = clean ? List.of() : git.changedTrackedFiles(tree.get());
                if (!dirty.isEmpty()) {
                    throw new Failure(refusal(repo, tree.get(), dirty), false);
                }
                String refused = git.followRefRefusal(tree.get(), ours, candidate, added);
                if (refused != null) {
                    throw new Failure("The files of " + tree.get() + " cannot follow the merge: " + refused
                            + ". Move them away (Paddock never overwrites your files).", true); // counts: no spin
                }
            }
            if (!git.moveRef(main, repo.baseBranch(), candidate, ours, "paddock merge queue: " + e.label())) {
                throw new Failure(repo.baseBranch() + " moved while " + e.label() + " was being merged", false);
            }
            String behind = tree.isPresent() ? followFiles(tree.get(), ours, candidate, false) : null;
            if (behind != null) {
                if (git.moveRef(main, repo.baseBranch(), ours, candidate, "paddock merge queue: undo " + e.label()
                        + " (the checked-out tree cannot follow)")) {
                    throw new Failure("The files of " + tree.get() + " cannot follow the merge: " + behind
                            + "; " + repo.baseBranch() + " was moved back. Paddock never overwrites your files.", true);
                }
                LOG.warn("{} stays merged although {} did not follow: {}", repo.baseBranch(), tree.get(), behind);
            } // else finishMerged clears main_tree_pending
            finishMerged(ours, candidate, "merged into " + repo.baseBranch() + " as " + candidate.substring(0, 12));
        }

        private void step(MergeStep step, String message) throws PaddockException {
            step(step, message, List.of(), Map.of());
        }

        /** Enters a step: its columns, {@code facts}, the events in {@code before} and its own, in one transaction. */
        private void step(MergeStep step, String message, List<EventDraft> before, Map<String, Object> facts)
                throws PaddockException {
            checkCancelled();
            EventDraft ev = event(e, step == MergeStep.TESTING ? EventKinds.MERGE_TESTING : EventKinds.MERGE_MERGING, message);
            Map<String, Object> columns = cols("step", step.id(), "step_started_at", store.now());
            columns.putAll(facts);
            List<EventDraft> events = new java.util.ArrayList<>(before);
            events.add(ev);
            e = store.update(e.id(), columns, events);
            changed();
            stepListener.entered(e, step);
        }

        private void checkCancelled() {
            if (cancelRequested.contains(e.id())) {
                throw new Cancelled();
            }
        }

        private void finishMerged(String ours, String commit, String result) throws PaddockException {
            store.move(e.id(), MergeState.RUNNING, MergeState.MERGED, cols("step", null, "finished_at", store.now(),
                    "merge_commit", commit, "result", result, "worktree_path", null, "main_tree_pending", false),
                    event(e, EventKinds.MERGE_MERGED, e.label() + " " + result));
            sandboxes.move(e.sandboxId(), SandboxState.MERGED, e.sandboxId() + " is merged into " + repo.baseBranch());
            git.removeIfPresent(main, MergeGit.worktreeOf(main, e.id()));
        }

        private void conflict(String ours, String theirs, Path wt) throws PaddockException {
            ConflictReport report = analysis.classify(main, ours, theirs);
            List<String> unmerged = git.unmerged(wt);
            List<MergeStore.StoredConflict> rows = ConflictRows.of(e.id(), report, unmerged);
            store.replaceConflicts(e.id(), rows);
            AutoResolver auto = new AutoResolver(store, git);
            AutoResolver.Decision decision = auto.decide(store.settings(repo.id()), store.regenerateCommands(repo.id()),
                    report, unmerged, wt);
            String paths = String.join(", ", rows.stream().map(MergeStore.StoredConflict::path).toList());
            store.move(e.id(), MergeState.RUNNING, MergeState.CONFLICT, cols("step", null, "result",
                    "conflicts in " + paths), EventDraft.of(e.repositoryId(), e.sandboxId(), EventKinds.MERGE_CONFLICT,
                    e.label() + " conflicts with " + repo.baseBranch() + " in " + rows.size()
                            + (rows.size() == 1 ? " file: " : " files: ") + paths + decision.note(),
                    Map.of("paths", rows.stream().map(MergeStore.StoredConflict::path).toList(), "worktree", wt.toString())));
            sandboxes.move(e.sandboxId(), SandboxState.CONFLICT, e.sandboxId() + " conflicts with "
                    + repo.baseBranch() + " in " + paths);
            if (decision.applies() && !cancelRequested.contains(e.id())) {
                resolveAutomatically(auto, decision);
            }
        }

        /**
         * Applies safe resolutions ({@link AutoResolver}) and finishes the merge as after a person's resolution; when
         * they cannot be applied the entry stays in the conflict queue for a person.
         */
        private void resolveAutomatically(AutoResolver auto, AutoResolver.Decision decision) throws PaddockException {
            try {
                auto.apply(store.find(e.id()).orElseThrow(), decision.files(), this::regenerate);
            } catch (PaddockException | RuntimeException ex) {
                LOG.warn("Resolving the conflicts of {} automatically failed: {}", e.label(), ex.toString());
                store.event(e.id(), event(e, EventKinds.MERGE_CONFLICT, e.label() + " was not resolved automatically ("
                        + ex.getMessage() + "); it waits for a person"));
                return;
            }
            e = store.find(e.id()).orElseThrow();
            completeResolved();
        }

        /** Runs a lockfile's regenerate command in the merge worktree, in the tier of the entry's sandbox. */
        private void regenerate(MergeEntry entry, Path wt, String path, String command) throws PaddockException {
            MergeSettings st = store.settings(repo.id());
            Path log = logDir.resolve(entry.id() + "-regenerate.log");
            store.event(entry.id(), event(entry, EventKinds.MERGE_TESTING, entry.label() + ": regenerating " + path
                    + " with `" + command + "` (log: " + log + ")"));
            TestRunner.Outcome o = tests.run(TestIsolation.of(sandboxes.find(entry.sandboxId())), entry, main, wt,
                    command, st.testTimeout(), log, new TestRunRecord(store, entry.id()),
                    () -> cancelRequested.contains(entry.id()));
            if (!o.passed()) {
                throw new MergeException(MergeException.Kind.FAILED, "regenerating " + path + " with `" + command
                        + "` " + o.describe(st.testTimeout()) + " (log: " + log + ")");
            }
        }

        private void fail(String why, boolean counts) throws PaddockException {
            git.remove(main, MergeGit.worktreeOf(main, e.id()));
            MergeEntry now = store.find(e.id()).orElseThrow();
            if (cancelRequested.remove(e.id())) {
                cancelled(now);
                return;
            }
            if (!counts) {
                store.move(e.id(), MergeState.RUNNING, MergeState.QUEUED, cols("step", null, "merge_commit", null,
                        "worktree_path", null, "main_tree_pending", false, "result", why),
                        event(e, EventKinds.MERGE_REQUEUED, e.label() + " goes back in the queue: " + why));
                return;
            }
            int attempts = now.attempts() + 1;
            int max = store.settings(repo.id()).maxAttempts();
            if (attempts >= max) {
                store.move(e.id(), MergeState.RUNNING, MergeState.FAILED, cols("step", null, "attempts", attempts,
                        "finished_at", store.now(), "merge_commit", null, "worktree_path", null, "main_tree_pending",
                        false, "result", why), event(e, EventKinds.MERGE_FAILED, e.label() + " failed attempt "
                        + attempts + " of " + max + " and leaves the queue for a person: " + why));
                sandboxes.move(e.sandboxId(), SandboxState.AWAITING_HUMAN, e.sandboxId() + " needs a person: its"
                        + " merge failed " + Words.times(attempts) + " (" + why + ")");
            } else {
                store.move(e.id(), MergeState.RUNNING, MergeState.QUEUED, cols("step", null, "attempts", attempts,
                        "merge_commit", null, "worktree_path", null, "main_tree_pending", false, "result", why),
                        event(e, EventKinds.MERGE_FAILED, e.label() + " failed attempt " + attempts + " of " + max
                                + " and goes back in the queue: " + why));
            }
        }

        private void cancelled(MergeEntry now) throws PaddockException {
            store.move(now.id(), MergeState.RUNNING, MergeState.CANCELLED, cols("step", null, "finished_at",
                    store.now(), "merge_commit", null, "worktree_path", null, "main_tree_pending", false,
                    "result", "cancelled"),
                    event(now, EventKinds.MERGE_CANCELLED, now.label() + " was cancelled; " + repo.baseBranch()
                            + " is unchanged"));
            sandboxes.move(now.sandboxId(), SandboxState.DONE, now.sandboxId() + " left the merge queue");
        }
    }

    /** Lets the files of base's checked-out tree follow the ref, then clears the entry's pending flag. */
    private void followTree(Path tree, String from, String to, long entryId, boolean checkIndex) throws PaddockException {
        followFiles(tree, from, to, checkIndex);
        store.set(entryId, cols("main_tree_pending", false));
    }

    /**
     * Lets the files of base's checked-out tree follow the ref ({@link MergeGit#followRef}); a refusal is logged.
     *
     * @return why they did not follow, or null when they did
     */
    private String followFiles(Path tree, String from, String to, boolean checkIndex) {
        try {
            if (!git.followRef(tree, from, to, checkIndex)) {
                LOG.warn("Not updating the files of {}: its index no longer matches {}", tree, from);
                return "its index no longer matches " + from;
            }
            return null;
        } catch (GitException ex) {
            LOG.warn("{}", ex.getMessage());
            return ex.getMessage();
        }
    }

    /**
     * What a killed Paddock left: an entry left running whose candidate already is base (the kill came after the
     * compare-and-set) is finished as merged; any other running entry goes back to the queue without counting an
     * attempt (its test process tree is killed, its merge worktree removed); every test process this home left
     * running, found by its marker, is killed first; a merged entry whose checked-out tree
     * still shows the old files gets them updated; merge worktrees no conflict keeps are removed.
     */
    public void recover() throws PaddockException {
        tests.killAllLeftovers();
        for (MergeEntry e : store.inState(MergeState.RUNNING)) {
            RepoRecord registered = repos.find(e.repositoryId()).orElse(null);
            if (registered == null) {
                continue;
            }
            RepoRecord repo = sandboxes.targetOf(registered, e.sandboxId());
            tests.killLeftover(e, TestIsolation.of(sandboxes.find(e.sandboxId())), repo.path());
            Path main = repo.path();
            Optional<String> base = git.resolve(main, "refs/heads/" + repo.baseBranch());
            if (e.mergeCommit() != null && base.isPresent() && git.isAncestor(main, e.mergeCommit(), base.get())) {
                if (e.mainTreePending()) {
                    Optional<Path> tree = git.checkedOutAt(main, repo.baseBranch());
                    if (tree.isPresent()) {
                        followTree(tree.get(), e.baseBefore(), e.mergeCommit(), e.id(), true);
                    }
                }
                store.move(e.id(), MergeState.RUNNING, MergeState.MERGED, cols("step", null, "finished_at", store.now(),
                        "test_pid", null, "worktree_path", null, "main_tree_pending", false,
                        "result", "merged into " + repo.baseBranch() + " as " + e.mergeCommit().substring(0, 12)
                                + " (finished after a restart)"),
                        event(e, EventKinds.MERGE_MERGED, e.label() + " was merged before Paddock stopped;"
                                + " recorded after the restart"));
                sandboxes.move(e.sandboxId(), SandboxState.MERGED, e.sandboxId() + " is merged into " + repo.baseBranch());
            } else if (!store.conflicts(e.id()).isEmpty() && e.worktree() != null
                    && java.nio.file.Files.isDirectory(e.worktree())) {
                // It was finishing a person's resolution: keep the resolved worktree, back to the conflict queue.
                store.move(e.id(), MergeState.RUNNING, MergeState.CONFLICT, cols("step", null, "merge_commit", null,
                        "test_pid", null, "test_pid_started_at", null, "main_tree_pending", false, "result",
                        "Paddock stopped while finishing the resolved merge; mark a file resolved again to finish it"),
                        event(e, EventKinds.MERGE_CONFLICT, e.label() + " goes back to the conflict queue with its"
                                + " resolutions: Paddock stopped while finishing it; " + repo.baseBranch() + " is unchanged"));
                sandboxes.move(e.sandboxId(), SandboxState.CONFLICT, e.sandboxId() + " waits for a person again");
            } else {
                git.remove(main, MergeGit.worktreeOf(main, e.id()));
                String step = e.step() == null ? "its attempt" : e.step().id();
                store.move(e.id(), MergeState.RUNNING, MergeState.QUEUED, cols("step", null, "merge_commit", null,
                        "worktree_path", null, "test_pid", null, "test_pid_started_at", null, "main_tree_pending", false,
                        "result", "Paddock stopped during " + step + "; back in the queue"),
                        event(e, EventKinds.MERGE_REQUEUED, e.label() + " goes back in the queue: Paddock stopped during "
                                + step + "; " + repo.baseBranch() + " is unchanged"));
            }
        }
        for (RepoRecord repo : repos.recent()) {
            Set<Long> keep = new java.util.HashSet<>();
            for (MergeEntry c : store.inState(MergeState.CONFLICT)) {
                if (c.worktree() != null) {
                    keep.add(c.id());
                }
            }
            for (long id : git.leftoverIds(repo.path())) {
                if (!keep.contains(id)) {
                    LOG.info("Removing the leftover merge worktree {}", MergeGit.worktreeOf(repo.path(), id));
                    git.remove(repo.path(), MergeGit.worktreeOf(repo.path(), id));
                }
            }
        }
        changed();
    }

    static EventDraft event(MergeEntry e, String kind, String message) {
        return EventDraft.of(e.repositoryId(), e.sandboxId(), kind, message, Map.of("branch", e.branch()));
    }

    /** A failed attempt; {@code counts} false puts it back without counting (base moved, dirty checkout). */
    static class Failure extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final boolean counts;

        Failure(String message) {
            this(message, true);
        }

        Failure(String message, boolean counts) {
            super(message, null, false, false);
            this.counts = counts;
        }
    }

    /** The entry was cancelled while it ran. */
    static final class Cancelled extends Failure {
        private static final long serialVersionUID = 1L;

        Cancelled() {
            super("cancelled", false);
        }
    }

    /** Stops the tick and the workers (a running attempt is killed with the JVM or resumes after a restart). */
    @Override
    public void close() {
        started = false;
        timer.shutdownNow();
        workers.values().forEach(ExecutorService::shutdownNow);
        prepare.shutdownNow();
    }

    /** Finishes a resolved conflict of an entry on its repository's queue thread (see Attempt#completeResolved). */
    void completeResolved(RepoRecord repo, MergeEntry e) {
        onQueue(repo.id(), () -> {
            try {
                new Attempt(sandboxes.targetOf(repo, e.sandboxId()), e, null).completeResolved();
            } catch (PaddockException | RuntimeException ex) {
                LOG.warn("Finishing the resolved merge of {} failed: {}", e.label(), ex.toString());
            }
        });
    }

    /** The gate for policy and hook configuration (reviews, approvals). */
    PolicyGate policyGate() {
        return gate;
    }

    /** For {@link ResolutionService}: the pieces it shares with the queue. */
    MergeStore store() {
        return store;
    }

    MergeGit git() {
        return git;
    }

    SandboxLink sandboxLink() {
        return sandboxes;
    }

    TierTestRunner tests() {
        return tests;
    }

    ConflictAnalysis analysis() {
        return analysis;
    }

    RepoStore repos() {
        return repos;
    }

    /** Whether a person asked to cancel the entry. */
    boolean cancelRequested(long id) {
        return cancelRequested.contains(id);
    }

    /** Forgets a cancel request. */
    void clearCancel(long id) {
        cancelRequested.remove(id);
    }

    /** Waits for the queue's threads to finish what runs (for tests and shutdown), at most {@code timeout}. */
    public void awaitIdle(Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (!busy.isEmpty() && System.nanoTime() < end) {
            Thread.sleep(20);
        }
    }
}
