package dev.paddock.merge;

import static dev.paddock.merge.MergeChange.ATTEMPTS;
import static dev.paddock.merge.MergeChange.FINISHED_AT;
import static dev.paddock.merge.MergeChange.MAIN_TREE_PENDING;
import static dev.paddock.merge.MergeChange.MERGE_COMMIT;
import static dev.paddock.merge.MergeChange.RESULT;
import static dev.paddock.merge.MergeChange.STEP;
import static dev.paddock.merge.MergeChange.WORKTREE;
import static dev.paddock.merge.MergeQueue.event;

import dev.paddock.common.PaddockException;
import dev.paddock.common.Words;
import dev.paddock.events.EventKinds;
import dev.paddock.merge.AttemptOutcome.Cancelled;
import dev.paddock.merge.AttemptOutcome.Conflicted;
import dev.paddock.merge.AttemptOutcome.Failed;
import dev.paddock.merge.AttemptOutcome.HeldForReview;
import dev.paddock.merge.AttemptOutcome.Merged;
import dev.paddock.merge.AttemptOutcome.TestsFailed;
import dev.paddock.repo.RepoRecord;
import dev.paddock.sandbox.SandboxState;
import java.nio.file.Path;

/**
 * Records how a running entry's attempt ended: the move out of running with its columns and event, and its
 * sandbox's state. A failure removes the merge worktree and leaves base as it was; a counted one puts the entry
 * back in the queue until the repository's maximum of attempts, then leaves it for a person. A cancel request
 * wins over any failure.
 */
final class AttemptEnd {
    private final MergeQueue queue;
    private final MergeStore store;
    private final RepoRecord repo;
    private final Path main;
    private final MergeEntry e;

    AttemptEnd(MergeQueue queue, RepoRecord repo, MergeEntry e) {
        this.queue = queue;
        this.store = queue.store();
        this.repo = repo;
        this.main = repo.path();
        this.e = e;
    }

    /**
     * Records the outcome of a queued entry's attempt unless the attempt recorded it already (merged, conflicted,
     * not started).
     *
     * @return the outcome as recorded: {@link Cancelled} when a person cancelled the entry meanwhile
     */
    AttemptOutcome record(AttemptOutcome o) throws PaddockException {
        if (o instanceof HeldForReview h) {
            return held(h);
        } else if (o instanceof TestsFailed t) {
            return fail(t.reason(), true, t);
        } else if (o instanceof Failed f) {
            return fail(f.reason(), f.counts(), f);
        } else if (o instanceof Cancelled) {
            return fail("cancelled", false, o);
        }
        return o; // merged, conflicted, not started: recorded by the attempt
    }

    /**
     * Records the outcome of finishing a resolved merge: one that neither merged nor waits for a review sends the
     * entry back to the conflict queue, its worktree and resolutions kept.
     *
     * @return the outcome as recorded ({@link Conflicted} with the reason for a failure or a cancel)
     */
    AttemptOutcome recordResolved(AttemptOutcome o) throws PaddockException {
        if (o instanceof HeldForReview h) {
            return held(h);
        } else if (o instanceof TestsFailed t) {
            return backToConflicts(t.reason());
        } else if (o instanceof Failed f) {
            return backToConflicts(f.reason());
        } else if (o instanceof Cancelled) {
            return backToConflicts("cancelled");
        }
        return o; // merged, conflicted, not started: recorded by the attempt
    }

    /** Records a merge: base holds {@code commit} (null: the branch was in base already). */
    Merged merged(String ours, String commit, String result) throws PaddockException {
        store.move(
                e.id(),
                MergeState.RUNNING,
                MergeState.MERGED,
                MergeChange.of(STEP, null)
                        .set(FINISHED_AT, store.now())
                        .set(MERGE_COMMIT, commit)
                        .set(RESULT, result)
                        .set(WORKTREE, null)
                        .set(MAIN_TREE_PENDING, false),
                event(e, EventKinds.MERGE_MERGED, e.label() + " " + result));
        String sandbox = e.request().sandboxId();
        queue.sandboxLink().move(sandbox, SandboxState.MERGED, sandbox + " is merged into " + repo.baseBranch());
        queue.keptWorktree().giveBack(main, MergeGit.worktreeOf(main, e.id()));
        return new Merged(commit, result);
    }

    private HeldForReview held(HeldForReview h) throws PaddockException {
        queue.policyGate().holdRunning(repo, e, h.files());
        return h;
    }

    private AttemptOutcome fail(String why, boolean counts, AttemptOutcome o) throws PaddockException {
        queue.keptWorktree().giveBack(main, MergeGit.worktreeOf(main, e.id()));
        MergeEntry now = store.find(e.id()).orElseThrow();
        if (queue.takeCancelRequest(e.id())) {
            cancelled(now);
            return new Cancelled();
        }
        if (!counts) {
            store.move(
                    e.id(),
                    MergeState.RUNNING,
                    MergeState.QUEUED,
                    MergeChange.of().clearAttempt().set(RESULT, why),
                    event(e, EventKinds.MERGE_REQUEUED, e.label() + " goes back in the queue: " + why));
            return o;
        }
        int attempts = now.attempt().attempts() + 1;
        int max = store.settings(repo.id()).maxAttempts();
        if (attempts >= max) {
            store.move(
                    e.id(),
                    MergeState.RUNNING,
                    MergeState.FAILED,
                    MergeChange.of(STEP, null)
                            .set(ATTEMPTS, attempts)
                            .set(FINISHED_AT, store.now())
                            .set(MERGE_COMMIT, null)
                            .set(WORKTREE, null)
                            .set(MAIN_TREE_PENDING, false)
                            .set(RESULT, why),
                    event(
                            e,
                            EventKinds.MERGE_FAILED,
                            e.label() + " failed attempt " + attempts + " of " + max
                                    + " and leaves the queue for a person: " + why));
            String sandbox = e.request().sandboxId();
            queue.sandboxLink()
                    .move(
                            sandbox,
                            SandboxState.AWAITING_HUMAN,
                            sandbox + " needs a person: its" + " merge failed " + Words.times(attempts) + " (" + why
                                    + ")");
        } else {
            store.move(
                    e.id(),
                    MergeState.RUNNING,
                    MergeState.QUEUED,
                    MergeChange.of(STEP, null)
                            .set(ATTEMPTS, attempts)
                            .set(MERGE_COMMIT, null)
                            .set(WORKTREE, null)
                            .set(MAIN_TREE_PENDING, false)
                            .set(RESULT, why),
                    event(
                            e,
                            EventKinds.MERGE_FAILED,
                            e.label() + " failed attempt " + attempts + " of " + max + " and goes back in the queue: "
                                    + why));
        }
        return o;
    }

    private void cancelled(MergeEntry now) throws PaddockException {
        store.move(
                now.id(),
                MergeState.RUNNING,
                MergeState.CANCELLED,
                MergeChange.of(STEP, null)
                        .set(FINISHED_AT, store.now())
                        .set(MERGE_COMMIT, null)
                        .set(WORKTREE, null)
                        .set(MAIN_TREE_PENDING, false)
                        .set(RESULT, "cancelled"),
                event(
                        now,
                        EventKinds.MERGE_CANCELLED,
                        now.label() + " was cancelled; " + repo.baseBranch() + " is unchanged"));
        String sandbox = now.request().sandboxId();
        queue.sandboxLink().move(sandbox, SandboxState.DONE, sandbox + " left the merge queue");
    }

    private Conflicted backToConflicts(String why) throws PaddockException {
        store.move(
                e.id(),
                MergeState.RUNNING,
                MergeState.CONFLICT,
                MergeChange.of(STEP, null).set(RESULT, why),
                event(
                        e,
                        EventKinds.MERGE_FAILED,
                        e.label() + " could not be finished after its conflicts were" + " resolved; "
                                + repo.baseBranch() + " is unchanged: " + why));
        String sandbox = e.request().sandboxId();
        queue.sandboxLink().move(sandbox, SandboxState.CONFLICT, sandbox + " still needs a person: " + why);
        return new Conflicted(
                store.conflicts(e.id()).stream()
                        .map(MergeStore.StoredConflict::path)
                        .toList(),
                why);
    }
}
