package dev.paddock.merge;

import dev.paddock.common.PaddockException;
import dev.paddock.common.Threads;
import dev.paddock.events.EventDraft;
import dev.paddock.events.EventKinds;
import dev.paddock.repo.RepoRecord;
import dev.paddock.repo.RepoStore;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.sandbox.SandboxStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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
 * removes leftover merge worktrees ({@link MergeRecovery}).
 *
 * <p>This class is the scheduling: the tick, one serial worker per repository, enqueuing, the dirty-checkout
 * refusal and cancel requests. One attempt at an entry is a {@link MergeAttempt}, which returns an
 * {@link AttemptOutcome} after recording it.
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
    private final KeptWorktree kept;
    private final ConflictAnalysis analysis;
    private final TierTestRunner tests;
    private final Path logDir;
    private final StepListener stepListener;
    private final PolicyGate gate;
    private final Map<Long, ExecutorService> workers = new ConcurrentHashMap<>();
    private final Set<Long> busy = ConcurrentHashMap.newKeySet();
    private final Set<Long> cancelRequested = ConcurrentHashMap.newKeySet();
    private final Map<Long, String> lastRefusal = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer =
            Executors.newSingleThreadScheduledExecutor(Threads.daemon("merge-queue"));
    /** Runs {@link EarlyMerge}s and the kept merge worktrees' cleans after a test beside the queue threads. */
    private final ExecutorService prepare = Executors.newCachedThreadPool(Threads.daemon("merge-queue-prepare"));

    private volatile boolean started;

    /**
     * @param tests runs the test command in the tier of the entry's sandbox
     * @param logDir folder of the test logs ({@code <entry id>.log})
     * @param stepListener told of each step (null: nobody)
     */
    public MergeQueue(
            MergeStore store,
            RepoStore repos,
            SandboxStore sandboxes,
            MergeGit git,
            ConflictAnalysis analysis,
            TierTestRunner tests,
            Path logDir,
            StepListener stepListener) {
        this.store = store;
        this.repos = repos;
        this.sandboxStore = sandboxes;
        this.sandboxes = new SandboxLink(sandboxes);
        this.git = git;
        this.kept = new KeptWorktree(git, prepare);
        this.analysis = analysis;
        this.tests = tests;
        this.logDir = logDir;
        this.stepListener = stepListener == null ? (e, s) -> {} : stepListener;
        this.gate = new PolicyGate(this);
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

    /** The test log of an entry. */
    public Path logFile(long entryId) {
        return logDir.resolve(entryId + ".log");
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
            workers.computeIfAbsent(
                            repositoryId, id -> Executors.newSingleThreadExecutor(Threads.daemon("merge-queue-" + id)))
                    .execute(() -> {
                        try {
                            boolean more = started;
                            while (more) {
                                more = started && runNext(repositoryId); // one entry after another
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
        workers.computeIfAbsent(
                        repositoryId, id -> Executors.newSingleThreadExecutor(Threads.daemon("merge-queue-" + id)))
                .execute(() -> {
                    work.run();
                });
    }

    /**
     * Enqueues every finished sandbox ({@code done}) whose branch has a commit that base lacks and whose run has no
     * entry yet. A done sandbox with nothing new stays done: there is nothing to merge. Nor does one whose agent
     * waits for you (its turn ended, or it asks for attention): your answer may be a follow-up that goes on in the
     * same worktree, so it enters the queue when a person enqueues it. Nor does one whose repository's approved work
     * is pushed ({@link MergeTarget#pushes()}): it stays done until a person approves it (which pushes it: the review
     * package) or pushes it, and base is never merged into here. In a repository whose review is
     * {@link ReviewMode#REQUIRED required}, it moves to {@code review} instead and waits for a person's approval
     * (docs/decisions/0022-review-gate.md).
     *
     * @return how many entered the queue
     */
    public int enqueueFinished() throws PaddockException {
        int n = 0;
        for (SandboxRecord s : sandboxStore.listLive()) {
            if (s.state() != SandboxState.DONE || sandboxStore.isBeingRemoved(s.id())) {
                continue; // a removal's own commit of leftovers is kept on the branch, not merged
            }
            if (sandboxStore.turns().waiting(s.id()).isPresent()) {
                continue;
            }
            java.time.Instant since = s.run().finishedAt() != null ? s.run().finishedAt() : s.createdAt();
            if (store.hasEntrySince(s.id(), since)) {
                continue;
            }
            Optional<RepoRecord> repo = repos.find(s.repositoryId());
            if (repo.isEmpty()) {
                continue;
            }
            Path main = repo.get().path();
            RepoRecord target = sandboxes.targetOf(repo.get(), s.id());
            if (store.settings(target.id()).target().pushes()) {
                continue;
            }
            Optional<String> tip =
                    git.resolve(main, "refs/heads/" + s.workspace().branch());
            Optional<String> base = git.resolve(main, "refs/heads/" + target.baseBranch());
            if (tip.isEmpty() || base.isEmpty() || git.isAncestor(main, tip.get(), base.get())) {
                continue;
            }
            if (store.settings(repo.get().id()).review() == ReviewMode.REQUIRED) {
                sandboxes.readyForReview(s.id(), s.workspace().branch(), target.baseBranch());
                continue;
            }
            enqueue(target, s.id(), s.workspace().branch(), "supervisor");
            n++;
        }
        return n;
    }

    /**
     * Inserts a queued entry (and moves its sandbox to merging).
     *
     * @throws MergeException CONFLICT for a sandbox of a repository whose approved work is pushed, not merged here
     */
    MergeEntry enqueue(RepoRecord registered, String sandboxId, String branch, String who) throws PaddockException {
        RepoRecord repo = sandboxes.targetOf(registered, sandboxId);
        MergeSettings st = store.settings(repo.id());
        if (sandboxId != null && st.target().pushes()) {
            throw new MergeException(
                    MergeException.Kind.CONFLICT,
                    "the approved work of " + repo.path() + " is pushed to a remote (merge target push), not merged"
                            + " into " + repo.baseBranch() + ": push " + sandboxId + " (paddock sandbox push "
                            + sandboxId + "), or set the target to local (paddock merge config --target local)");
        }
        MergeEntry e = store.insert(
                repo.id(),
                sandboxId,
                branch,
                st.strategy(),
                who,
                EventDraft.of(
                        repo.id(),
                        sandboxId,
                        EventKinds.MERGE_ENQUEUED,
                        branch + " entered the merge queue of " + repo.baseBranch() + " (by " + who + ")",
                        Map.of("branch", branch, "by", who)));
        sandboxes.move(sandboxId, SandboxState.MERGING, sandboxId + " entered the merge queue");
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
        RepoRecord registered = repos.find(repositoryId)
                .orElseThrow(() ->
                        new MergeException(MergeException.Kind.NOT_FOUND, "no repository with id " + repositoryId));
        MergeEntry e = next.get();
        RepoRecord repo = sandboxes.targetOf(registered, e.request().sandboxId());
        MergeSettings st = store.settings(repositoryId);
        Optional<Path> checkedOut = git.checkedOutAt(repo.path(), repo.baseBranch());
        // The in-core merge needs nothing from the checkout: start it while git status looks at the checkout. Not
        // while the queue keeps refusing a dirty checkout (each would leave a commit object nobody points at).
        EarlyMerge early =
                checkedOut.isPresent() && MergeAttempt.mergesEarly(st) && !lastRefusal.containsKey(repositoryId)
                        ? EarlyMerge.start(
                                git,
                                repo.path(),
                                repo.baseBranch(),
                                e.request().branch(),
                                MergeAttempt.mergeMessage(e),
                                prepare)
                        : null;
        if (refusedForDirtyTree(repo, e, checkedOut)) {
            return false;
        }
        Optional<SandboxState> sb = sandboxes.stateOf(e.request().sandboxId());
        if (e.request().sandboxId() != null
                && (sb.isEmpty()
                        || !Set.of(
                                        SandboxState.DONE,
                                        SandboxState.MERGING,
                                        SandboxState.AWAITING_HUMAN,
                                        SandboxState.CONFLICT)
                                .contains(sb.get()))) {
            store.move(
                    e.id(),
                    MergeState.QUEUED,
                    MergeState.CANCELLED,
                    MergeChange.of(MergeChange.FINISHED_AT, store.now())
                            .set(
                                    MergeChange.RESULT,
                                    "its sandbox is " + sb.map(SandboxState::id).orElse("gone")),
                    event(
                            e,
                            EventKinds.MERGE_CANCELLED,
                            e.label() + " left the merge queue: its sandbox is "
                                    + sb.map(SandboxState::id).orElse("gone")));
            return true;
        }
        AttemptOutcome outcome = new MergeAttempt(this, repo, e, checkedOut, st, early).run();
        LOG.debug("Attempt at {}: {}", e.label(), outcome);
        return true;
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
        String why = CheckedOutBase.refusal(repo, tree.get(), dirty);
        store.set(e.id(), MergeChange.of(MergeChange.RESULT, why));
        if (!why.equals(lastRefusal.put(repo.id(), why))) {
            store.event(e.id(), event(e, EventKinds.MERGE_REFUSED, why));
        }
        return true;
    }

    /** Asks a running entry to stop (its test run is killed); the queue then marks it cancelled. */
    void requestCancel(long entryId) {
        cancelRequested.add(entryId);
    }

    /**
     * What a killed Paddock left ({@link MergeRecovery}): running entries are finished as merged, sent back to the
     * conflict queue or requeued without counting an attempt; leftover test processes and merge worktrees go.
     */
    public void recover() throws PaddockException {
        new MergeRecovery(this).recover();
    }

    static EventDraft event(MergeEntry e, String kind, String message) {
        return EventDraft.of(
                e.repositoryId(),
                e.request().sandboxId(),
                kind,
                message,
                Map.of("branch", e.request().branch()));
    }

    /** Stops the tick and the workers (a running attempt is killed with the JVM or resumes after a restart). */
    @Override
    public void close() {
        started = false;
        timer.shutdownNow();
        workers.values().forEach(ExecutorService::shutdownNow);
        prepare.shutdownNow();
    }

    /** Finishes a resolved conflict of an entry on its repository's queue thread ({@link MergeAttempt#completeResolved}). */
    void completeResolved(RepoRecord repo, MergeEntry e) {
        onQueue(repo.id(), () -> {
            try {
                RepoRecord target = sandboxes.targetOf(repo, e.request().sandboxId());
                new MergeAttempt(this, target, e, null, null, null).completeResolved();
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

    /** The repositories' kept merge worktrees. */
    KeptWorktree keptWorktree() {
        return kept;
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

    /** Forgets a cancel request. @return whether a person had asked to cancel the entry */
    boolean takeCancelRequest(long id) {
        return cancelRequested.remove(id);
    }

    /** Told of each step of an attempt. */
    StepListener stepListener() {
        return stepListener;
    }

    /** Waits for the queue's threads to finish what runs (for tests and shutdown), at most {@code timeout}. */
    public void awaitIdle(Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (!busy.isEmpty() && System.nanoTime() < end) {
            Thread.sleep(20);
        }
    }
}
