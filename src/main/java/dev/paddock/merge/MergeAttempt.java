package dev.paddock.merge;

import static dev.paddock.merge.MergeChange.BASE_BEFORE;
import static dev.paddock.merge.MergeChange.LAST_TEST_PASSED;
import static dev.paddock.merge.MergeChange.MAIN_TREE_PENDING;
import static dev.paddock.merge.MergeChange.MERGE_COMMIT;
import static dev.paddock.merge.MergeChange.RESULT;
import static dev.paddock.merge.MergeChange.STARTED_AT;
import static dev.paddock.merge.MergeChange.STEP;
import static dev.paddock.merge.MergeChange.STEP_STARTED_AT;
import static dev.paddock.merge.MergeChange.STRATEGY;
import static dev.paddock.merge.MergeChange.TEST_CONTAINER;
import static dev.paddock.merge.MergeChange.TEST_LOG;
import static dev.paddock.merge.MergeChange.THEIRS_COMMIT;
import static dev.paddock.merge.MergeChange.WORKTREE;
import static dev.paddock.merge.MergeQueue.event;

import dev.paddock.common.PaddockException;
import dev.paddock.events.EventDraft;
import dev.paddock.events.EventKinds;
import dev.paddock.merge.AttemptOutcome.Cancelled;
import dev.paddock.merge.AttemptOutcome.Failed;
import dev.paddock.merge.AttemptOutcome.HeldForReview;
import dev.paddock.merge.AttemptOutcome.NotStarted;
import dev.paddock.merge.AttemptOutcome.TestsFailed;
import dev.paddock.repo.RepoRecord;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.worktree.GitException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One attempt at a merge queue entry, on its repository's queue thread: the steps updating, testing and merging in
 * the private merge worktree ({@link MergeQueue} describes them), or the finish of a merge whose conflicts were
 * resolved. Each step that cannot go on returns its {@link AttemptOutcome} instead of throwing; the attempt records
 * every outcome on the entry (with {@link AttemptEnd} for the ways it leaves running without merging) before it
 * returns it. Base moves only by the compare-and-set of the merging step.
 */
final class MergeAttempt {
    private static final Logger LOG = LoggerFactory.getLogger(MergeAttempt.class);

    private final MergeQueue queue;
    private final MergeStore store;
    private final MergeGit git;
    private final SandboxLink sandboxes;
    private final RepoRecord repo;
    private final Path main;
    /** Where base was checked out (and clean) when the attempt started; null: look again before moving base. */
    private final Optional<Path> checkedOutAtStart;
    /** The repository's settings as read by the queue (null: read them). */
    private final MergeSettings settings;
    /** The in-core merge started while the checkout was checked (null: none). */
    private final EarlyMerge early;

    private MergeEntry e;
    /** Whether the outcome was recorded already (a conflict resolved automatically and finished). */
    private boolean recorded;

    /**
     * @param repo the repository the entry merges into (its sandbox's target)
     * @param checkedOutAtStart where base is checked out, found clean just now; null: look again before moving base
     * @param settings the repository's merge settings as just read, or null to read them
     * @param early the in-core merge started early for this entry, or null
     */
    MergeAttempt(
            MergeQueue queue,
            RepoRecord repo,
            MergeEntry e,
            Optional<Path> checkedOutAtStart,
            MergeSettings settings,
            EarlyMerge early) {
        this.queue = queue;
        this.store = queue.store();
        this.git = queue.git();
        this.sandboxes = queue.sandboxLink();
        this.repo = repo;
        this.main = repo.path();
        this.e = e;
        this.checkedOutAtStart = checkedOutAtStart;
        this.settings = settings;
        this.early = early;
    }

    /** Whether a clean merge under these settings is made in core (no test command, merge strategy). */
    static boolean mergesInCore(MergeSettings st) {
        return !st.hasTest() && st.strategy() == MergeStrategy.MERGE;
    }

    /**
     * Whether the in-core merge can start while the checkout is looked at ({@link EarlyMerge}): for the merge
     * strategy, with a test command too (its candidate is what the kept merge worktree checks out).
     */
    static boolean mergesEarly(MergeSettings st) {
        return st.strategy() == MergeStrategy.MERGE;
    }

    /** The message of an entry's merge commit. */
    static String mergeMessage(MergeEntry e) {
        MergeEntry.Request r = e.request();
        return "Merge branch '" + r.branch() + "'" + (r.sandboxId() == null ? "" : " (sandbox " + r.sandboxId() + ")")
                + " through the Paddock merge queue";
    }

    /**
     * Takes the queued entry through its steps. Git failures and unexpected errors end it as {@link Failed}
     * (counted); the store's failures propagate (the entry stays running until {@link MergeRecovery} requeues it).
     */
    AttemptOutcome run() throws PaddockException {
        MergeSettings st = settings != null ? settings : store.settings(repo.id());
        EarlyMerge.Result pre = early != null ? early.result() : null;
        InProcessGit.Tips tips = pre != null
                ? pre.tips()
                : git.tips(
                        main,
                        "refs/heads/" + repo.baseBranch(),
                        "refs/heads/" + e.request().branch());
        Optional<String> ours = tips.ours();
        Optional<String> theirs = tips.theirs();
        Path wt = MergeGit.worktreeOf(main, e.id());
        if (ours.isPresent() && theirs.isPresent() && !tips.theirsInOurs()) {
            List<String> held = queue.policyGate().holdsBeforeAttempt(repo, e, ours.get(), theirs.get());
            if (!held.isEmpty()) {
                return new HeldForReview(held); // waits for a person's review of its policy change
            }
        }
        // The early merge is clean and committed: updating, (no) testing and merging enter in one transaction.
        boolean prepared = pre != null && pre.candidate() != null && mergesInCore(st) && checkedOutAtStart != null;
        MergeChange change = MergeChange.of(STEP, MergeStep.UPDATING)
                .set(STARTED_AT, store.now())
                .set(STEP_STARTED_AT, store.now())
                .set(BASE_BEFORE, ours.orElse(null))
                .set(THEIRS_COMMIT, theirs.orElse(null))
                .set(WORKTREE, wt)
                .set(MERGE_COMMIT, null)
                .set(RESULT, null)
                .set(STRATEGY, st.strategy())
                .set(MAIN_TREE_PENDING, false);
        EventDraft updating = event(
                e,
                EventKinds.MERGE_UPDATING,
                e.label() + ": bringing it up to date with " + repo.baseBranch() + " ("
                        + st.strategy().id() + ", attempt " + (e.attempt().attempts() + 1) + ")");
        List<EventDraft> more = List.of();
        if (prepared) {
            change.set(STEP, MergeStep.MERGING)
                    .set(MERGE_COMMIT, pre.candidate())
                    .set(MAIN_TREE_PENDING, checkedOutAtStart.isPresent());
            more = List.of(
                    event(e, EventKinds.MERGE_TESTING, e.label() + ": no test command is set; testing skipped"),
                    event(e, EventKinds.MERGE_MERGING, movingMessage(pre.candidate())));
        }
        Optional<MergeEntry> started =
                store.moveAndRead(e.id(), MergeState.QUEUED, MergeState.RUNNING, change, updating, more);
        if (started.isEmpty()) {
            return new NotStarted("it left the queue meanwhile"); // cancelled meanwhile
        }
        e = started.get();
        sandboxes.move(
                e.request().sandboxId(), SandboxState.MERGING, e.request().sandboxId() + " is being merged");
        queue.stepListener().entered(e, MergeStep.UPDATING);
        AttemptOutcome o;
        try {
            o = prepared ? mergePrepared(ours.get(), pre) : update(st, tips, wt, pre);
        } catch (GitException | MergeException ex) {
            o = new Failed(ex.getMessage(), true);
        } catch (RuntimeException ex) {
            LOG.warn("Merge attempt of {} failed unexpectedly", e.label(), ex);
            o = new Failed("unexpected error: " + ex, true); // never leave the entry running until a restart
        }
        return recorded ? o : end().record(o);
    }

    /** The early merge's candidate: straight to the merging step (entered with the move to running). */
    private AttemptOutcome mergePrepared(String ours, EarlyMerge.Result pre) throws PaddockException {
        queue.stepListener().entered(e, MergeStep.MERGING);
        AttemptOutcome stop = cancelled();
        return stop != null ? stop : moveBaseEntered(ours, pre.candidate(), checkedOutAtStart, true, pre.added());
    }

    /** Steps updating, testing, merging, from the move to running on. */
    private AttemptOutcome update(MergeSettings st, InProcessGit.Tips tips, Path wt, EarlyMerge.Result pre)
            throws PaddockException {
        Optional<String> ours = tips.ours();
        Optional<String> theirs = tips.theirs();
        if (ours.isEmpty() || theirs.isEmpty()) {
            return new Failed(
                    ours.isEmpty()
                            ? "the base branch " + repo.baseBranch() + " does not exist"
                            : "the branch " + e.request().branch() + " does not exist",
                    true);
        }
        if (st.strategy() == MergeStrategy.MERGE) {
            AttemptOutcome o = inCore(st, ours.get(), theirs.get(), tips.theirsInOurs(), pre);
            if (o != null) {
                return o;
            }
        }
        queue.keptWorktree().checkOut(main, wt, ours.get());
        String mergeWhat = theirs.get();
        if (st.strategy() == MergeStrategy.REBASE) {
            mergeWhat = git.rebased(wt, ours.get(), theirs.get()).orElse(theirs.get());
        }
        MergeGit.MergeOutcome m = git.mergeNoCommit(wt, mergeWhat);
        if (m == MergeGit.MergeOutcome.UP_TO_DATE) {
            return end().merged(
                            ours.get(),
                            null,
                            "nothing to merge: " + e.request().branch() + " is already in " + repo.baseBranch());
        }
        if (m == MergeGit.MergeOutcome.CONFLICT) {
            return new ConflictedAttempt(queue, repo, e).conflict(ours.get(), theirs.get(), wt, resolved -> {
                e = resolved;
                return completeResolved();
            });
        }
        AttemptOutcome stop = cancelled();
        if (stop == null) {
            stop = runTests(st, wt);
        }
        return stop != null ? stop : moveBase(ours.get(), git.commit(wt, mergeMessage(e)), null, List.of(), null);
    }

    /**
     * Finishes a merge whose conflicts a person (or {@link AutoResolver}) resolved in the merge worktree: commit
     * (two parents: base as it was, the branch), rebuild on base when base moved meanwhile (in core; new conflicts
     * send it back), test, then the compare-and-set of base. A failure sends the entry back to the conflict queue
     * with the worktree kept and base untouched ({@link AttemptOutcome.Conflicted} with the reason).
     */
    AttemptOutcome completeResolved() throws PaddockException {
        Optional<MergeEntry> running = new ConflictedAttempt(queue, repo, e).reopen();
        if (running.isEmpty()) {
            return new NotStarted("it is not in the conflict queue, or a resolved file was reopened");
        }
        e = running.get();
        sandboxes.move(
                e.request().sandboxId(), SandboxState.MERGING, e.request().sandboxId() + " is being merged");
        AttemptOutcome o;
        try {
            o = finishResolved(e.attempt().worktree());
        } catch (GitException | MergeException ex) {
            o = new Failed(ex.getMessage(), true);
        }
        o = end().recordResolved(o);
        recorded = true;
        return o;
    }

    private AttemptOutcome finishResolved(Path wt) throws PaddockException {
        String ours = e.attempt().baseBefore();
        String message = mergeMessage(e) + " (conflicts resolved)";
        String candidate;
        if (git.resolve(wt, "MERGE_HEAD").isPresent()) {
            candidate = git.commit(wt, message);
        } else { // finished once before (tests failed, or Paddock stopped): commit what is staged now
            candidate = git.commitTree(
                    main, git.writeTree(wt), message, ours, e.attempt().theirsCommit());
            git.checkoutDetached(wt, candidate);
        }
        Optional<String> baseNow = git.resolve(main, "refs/heads/" + repo.baseBranch());
        if (baseNow.isEmpty()) {
            return new Failed("the base branch " + repo.baseBranch() + " does not exist", true);
        }
        if (!baseNow.get().equals(ours)) {
            Optional<String> tree = git.mergeTree(main, baseNow.get(), candidate);
            if (tree.isEmpty()) {
                return new Failed(
                        repo.baseBranch() + " moved meanwhile and the resolved merge conflicts with it;"
                                + " retry the entry to merge afresh",
                        true);
            }
            candidate = git.commitTree(
                    main, tree.get(), message, baseNow.get(), e.attempt().theirsCommit());
            git.checkoutDetached(wt, candidate);
            ours = baseNow.get();
        }
        AttemptOutcome stop = runTests(store.settings(repo.id()), wt);
        return stop != null ? stop : moveBase(ours, candidate, null, List.of(), null);
    }

    /**
     * A clean merge is made in core ({@code git merge-tree --write-tree}, the same ort merge as {@code git merge})
     * and committed with {@code git commit-tree -p base -p branch}. Without a test command nobody reads the result's
     * files: no checkout at all. With one, the merge commit is checked out in the repository's kept merge worktree
     * where it is ({@link KeptWorktree#checkOutInPlace}: only the files that differ from the last entry's are written,
     * no move to the entry's path) and tested there. A conflict (or a git that cannot) falls back to the entry's own
     * merge worktree, which keeps the conflicted state for a person.
     *
     * @param theirsInOurs whether the branch's tip is already in base (nothing to merge)
     * @param pre the same merge made early ({@link EarlyMerge}) from these tips; null: make it now
     * @return how the attempt ended, or null when it goes on in the merge worktree
     */
    private AttemptOutcome inCore(
            MergeSettings st, String ours, String theirs, boolean theirsInOurs, EarlyMerge.Result pre)
            throws PaddockException {
        if (theirsInOurs) {
            return end().merged(
                            ours,
                            null,
                            "nothing to merge: " + e.request().branch() + " is already in " + repo.baseBranch());
        }
        Optional<String> tree = pre != null ? pre.tree() : git.mergeTree(main, ours, theirs);
        if (tree.isEmpty() || tree.get().isEmpty()) {
            return null;
        }
        String candidate = pre != null && pre.candidate() != null
                ? pre.candidate()
                : git.commitTree(main, tree.get(), mergeMessage(e), ours, theirs);
        if (st.hasTest()) {
            Path testIn = queue.keptWorktree().checkOutInPlace(main, candidate);
            AttemptOutcome stop = cancelled();
            if (stop == null) {
                stop = runTests(st, testIn);
                queue.keptWorktree().cleanAfterTest(main, testIn); // while base moves; the test has ended
            }
            // Base's checkout is looked at again after the test (git status); the files the merge adds, known from
            // the early merge, spare git's dry run when nothing is in their way.
            return stop != null ? stop : moveBase(ours, candidate, null, List.of(), pre != null ? pre.added() : null);
        }
        // The checkout was looked at a few milliseconds ago (no test ran since): no second look.
        return moveBase(
                ours,
                candidate,
                checkedOutAtStart,
                List.of(event(e, EventKinds.MERGE_TESTING, e.label() + ": no test command is set; testing skipped")),
                pre != null ? pre.added() : null);
    }

    /**
     * Step testing.
     *
     * @return {@link TestsFailed} when the test fails or times out, {@link Cancelled} when the entry was cancelled,
     *     null when it passed or no test command is set
     */
    private AttemptOutcome runTests(MergeSettings st, Path wt) throws PaddockException {
        if (!st.hasTest()) {
            store.event(
                    e.id(),
                    event(e, EventKinds.MERGE_TESTING, e.label() + ": no test command is set; testing skipped"));
            return null;
        }
        TestIsolation isolation = TestIsolation.of(sandboxes.find(e.request().sandboxId()));
        AttemptOutcome stop = step(
                MergeStep.TESTING,
                e.label() + ": running the test command " + isolation.describe() + " (timeout "
                        + st.testTimeout().toSeconds() + " s)",
                List.of(),
                MergeChange.of(WORKTREE, wt));
        if (stop != null) {
            return stop;
        }
        Path log = queue.logFile(e.id());
        store.set(e.id(), MergeChange.of(TEST_LOG, log).set(TEST_CONTAINER, null));
        TestRunner.Outcome o = queue.tests()
                .run(
                        isolation,
                        e,
                        main,
                        wt,
                        st.testCommand(),
                        st.testTimeout(),
                        log,
                        new TestRunRecord(store, e.id()),
                        () -> queue.cancelRequested(e.id()));
        Boolean passed = o.cancelled() ? e.attempt().lastTestPassed() : Boolean.valueOf(o.passed());
        store.set(
                e.id(),
                MergeChange.of().clearTestProcess().set(TEST_CONTAINER, null).set(LAST_TEST_PASSED, passed));
        if (o.cancelled()) {
            return new Cancelled();
        }
        return o.passed() ? null : new TestsFailed(o.describe(st.testTimeout()) + " (log: " + log + ")");
    }

    /**
     * Step merging. The candidate and whether the checked-out tree must follow are recorded with the step (one
     * transaction, with the events in {@code before} first) before anything is looked at: a refusal or a failed
     * compare-and-set clears them again ({@link AttemptEnd}); a kill before the compare-and-set leaves a candidate
     * that is not in base, which {@link MergeRecovery} puts back in the queue.
     *
     * @param checkedClean where base is checked out, found clean just now; null: look now
     * @param added the files the merge adds, when known ({@link MergeGit#followRefRefusal(Path, String,
     *     String, List)}); null: git's dry run checks the tree
     */
    private AttemptOutcome moveBase(
            String ours, String candidate, Optional<Path> checkedClean, List<EventDraft> before, List<String> added)
            throws PaddockException {
        AttemptOutcome stop = cancelled();
        if (stop != null) {
            return stop;
        }
        Optional<Path> tree = checkedClean != null ? checkedClean : git.checkedOutAt(main, repo.baseBranch());
        stop = step(
                MergeStep.MERGING,
                movingMessage(candidate),
                before,
                MergeChange.of(MERGE_COMMIT, candidate).set(MAIN_TREE_PENDING, tree.isPresent()));
        return stop != null ? stop : moveBaseEntered(ours, candidate, tree, checkedClean != null, added);
    }

    private String movingMessage(String candidate) {
        return e.label() + ": moving " + repo.baseBranch() + " to the merge commit " + candidate.substring(0, 12);
    }

    /**
     * Step merging once entered (recorded with the candidate): the policy check of the candidate, the checks of the
     * checked-out tree, the compare-and-set, the files. Should the checked-out tree still refuse to follow after
     * base moved (it changed in the few milliseconds between the look and the move), base is moved back by a second
     * compare-and-set and the attempt fails: base is the old commit or the whole merge with its files, never a
     * moved ref with a tree left behind.
     *
     * @param tree where base is checked out
     * @param clean whether {@code tree} was just found clean (no second {@code git status})
     */
    private AttemptOutcome moveBaseEntered(
            String ours, String candidate, Optional<Path> tree, boolean clean, List<String> added)
            throws PaddockException {
        List<String> review = queue.policyGate().unapprovedChanges(main, e, ours, candidate);
        if (!review.isEmpty()) {
            return new HeldForReview(review); // whatever produced the candidate
        }
        if (tree.isPresent()) {
            List<String> dirty = clean ? List.of() : git.changedTrackedFiles(tree.get());
            if (!dirty.isEmpty()) {
                return new Failed(CheckedOutBase.refusal(repo, tree.get(), dirty), false);
            }
            String refused = git.followRefRefusal(tree.get(), ours, candidate, added);
            if (refused != null) {
                return new Failed(
                        "The files of " + tree.get() + " cannot follow the merge: " + refused
                                + ". Move them away (Paddock never overwrites your files).",
                        true); // counts: no spin
            }
        }
        if (!git.moveRef(main, repo.baseBranch(), candidate, ours, "paddock merge queue: " + e.label())) {
            return new Failed(repo.baseBranch() + " moved while " + e.label() + " was being merged", false);
        }
        String behind = tree.isPresent() ? CheckedOutBase.follow(git, tree.get(), ours, candidate, false) : null;
        if (behind != null) {
            if (git.moveRef(
                    main,
                    repo.baseBranch(),
                    ours,
                    candidate,
                    "paddock merge queue: undo " + e.label() + " (the checked-out tree cannot follow)")) {
                return new Failed(
                        "The files of " + tree.get() + " cannot follow the merge: " + behind + "; " + repo.baseBranch()
                                + " was moved back. Paddock never overwrites your files.",
                        true);
            }
            LOG.warn("{} stays merged although {} did not follow: {}", repo.baseBranch(), tree.get(), behind);
        } // else the move to merged clears main_tree_pending
        return end().merged(ours, candidate, "merged into " + repo.baseBranch() + " as " + candidate.substring(0, 12));
    }

    /**
     * Enters a step: its columns, {@code facts}, the events in {@code before} and its own, in one transaction.
     *
     * @return {@link Cancelled} when the entry was cancelled (the step is not entered), else null
     */
    private AttemptOutcome step(MergeStep step, String message, List<EventDraft> before, MergeChange facts)
            throws PaddockException {
        AttemptOutcome stop = cancelled();
        if (stop != null) {
            return stop;
        }
        EventDraft ev =
                event(e, step == MergeStep.TESTING ? EventKinds.MERGE_TESTING : EventKinds.MERGE_MERGING, message);
        List<EventDraft> events = new ArrayList<>(before);
        events.add(ev);
        e = store.update(
                e.id(),
                MergeChange.of(STEP, step).set(STEP_STARTED_AT, store.now()).with(facts),
                events);
        queue.stepListener().entered(e, step);
        return null;
    }

    /** {@link Cancelled} when a person asked to cancel the entry, else null. */
    private AttemptOutcome cancelled() {
        return queue.cancelRequested(e.id()) ? new Cancelled() : null;
    }

    private AttemptEnd end() {
        return new AttemptEnd(queue, repo, e);
    }
}
