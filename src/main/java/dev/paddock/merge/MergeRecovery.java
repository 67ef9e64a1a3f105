package dev.paddock.merge;

import static dev.paddock.merge.MergeChange.FINISHED_AT;
import static dev.paddock.merge.MergeChange.MAIN_TREE_PENDING;
import static dev.paddock.merge.MergeChange.MERGE_COMMIT;
import static dev.paddock.merge.MergeChange.RESULT;
import static dev.paddock.merge.MergeChange.STEP;
import static dev.paddock.merge.MergeChange.WORKTREE;

import dev.paddock.common.PaddockException;
import dev.paddock.events.EventKinds;
import dev.paddock.repo.RepoRecord;
import dev.paddock.sandbox.SandboxState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the merge queue does at start with what a killed Paddock left (see
 * docs/decisions/0001-merge-queue-private-worktree-and-cas.md): every test process this home left running, found by
 * its marker, is killed first; an entry left running whose candidate already is base (the kill came after the
 * compare-and-set) is finished as merged, and a checked-out tree that still shows the old files gets them updated;
 * an entry that was finishing a person's resolution goes back to the conflict queue with its worktree; any other
 * running entry goes back to the queue without counting an attempt (its test process tree is killed, its merge
 * worktree removed); merge worktrees no conflict keeps are removed. Base is never moved here.
 */
final class MergeRecovery {
    private static final Logger LOG = LoggerFactory.getLogger(MergeRecovery.class);

    private final MergeQueue queue;
    private final MergeStore store;
    private final MergeGit git;
    private final SandboxLink sandboxes;

    MergeRecovery(MergeQueue queue) {
        this.queue = queue;
        this.store = queue.store();
        this.git = queue.git();
        this.sandboxes = queue.sandboxLink();
    }

    /** Recovers every running entry and removes leftover merge worktrees, then tells the queue's listeners. */
    void recover() throws PaddockException {
        queue.tests().killAllLeftovers();
        for (MergeEntry e : store.inState(MergeState.RUNNING)) {
            RepoRecord registered = queue.repos().find(e.repositoryId()).orElse(null);
            if (registered != null) {
                recover(sandboxes.targetOf(registered, e.request().sandboxId()), e);
            }
        }
        removeLeftoverWorktrees();
    }

    private void recover(RepoRecord repo, MergeEntry e) throws PaddockException {
        String sandbox = e.request().sandboxId();
        queue.tests().killLeftover(e, TestIsolation.of(sandboxes.find(sandbox)), repo.path());
        Path main = repo.path();
        Optional<String> base = git.resolve(main, "refs/heads/" + repo.baseBranch());
        MergeEntry.Attempt a = e.attempt();
        if (a.mergeCommit() != null && base.isPresent() && git.isAncestor(main, a.mergeCommit(), base.get())) {
            finishMerged(repo, e);
        } else if (!store.conflicts(e.id()).isEmpty() && a.worktree() != null && Files.isDirectory(a.worktree())) {
            // It was finishing a person's resolution: keep the resolved worktree, back to the conflict queue.
            store.move(
                    e.id(),
                    MergeState.RUNNING,
                    MergeState.CONFLICT,
                    MergeChange.of(STEP, null)
                            .set(MERGE_COMMIT, null)
                            .clearTestProcess()
                            .set(MAIN_TREE_PENDING, false)
                            .set(
                                    RESULT,
                                    "Paddock stopped while finishing the resolved merge; mark a file resolved again to finish it"),
                    MergeQueue.event(
                            e,
                            EventKinds.MERGE_CONFLICT,
                            e.label() + " goes back to the conflict queue with"
                                    + " its resolutions: Paddock stopped while finishing it; " + repo.baseBranch()
                                    + " is unchanged"));
            sandboxes.move(sandbox, SandboxState.CONFLICT, sandbox + " waits for a person again");
        } else {
            git.remove(main, MergeGit.worktreeOf(main, e.id()));
            String step = e.step() == null ? "its attempt" : e.step().id();
            store.move(
                    e.id(),
                    MergeState.RUNNING,
                    MergeState.QUEUED,
                    MergeChange.of()
                            .clearAttempt()
                            .clearTestProcess()
                            .set(RESULT, "Paddock stopped during " + step + "; back in the queue"),
                    MergeQueue.event(
                            e,
                            EventKinds.MERGE_REQUEUED,
                            e.label() + " goes back in the queue: Paddock" + " stopped during " + step + "; "
                                    + repo.baseBranch() + " is unchanged"));
        }
    }

    /** The kill came after the compare-and-set: the entry is merged; the checked-out tree's files follow. */
    private void finishMerged(RepoRecord repo, MergeEntry e) throws PaddockException {
        if (e.attempt().mainTreePending()) {
            Optional<Path> tree = git.checkedOutAt(repo.path(), repo.baseBranch());
            if (tree.isPresent()) {
                CheckedOutBase.follow(
                        git, tree.get(), e.attempt().baseBefore(), e.attempt().mergeCommit(), true);
                store.set(e.id(), MergeChange.of(MAIN_TREE_PENDING, false));
            }
        }
        store.move(
                e.id(),
                MergeState.RUNNING,
                MergeState.MERGED,
                MergeChange.of(STEP, null)
                        .set(FINISHED_AT, store.now())
                        .set(MergeChange.TEST_PID, null)
                        .set(WORKTREE, null)
                        .set(MAIN_TREE_PENDING, false)
                        .set(
                                RESULT,
                                "merged into " + repo.baseBranch() + " as "
                                        + e.attempt().mergeCommit().substring(0, 12) + " (finished after a restart)"),
                MergeQueue.event(
                        e,
                        EventKinds.MERGE_MERGED,
                        e.label() + " was merged before Paddock stopped;" + " recorded after the restart"));
        String sandbox = e.request().sandboxId();
        sandboxes.move(sandbox, SandboxState.MERGED, sandbox + " is merged into " + repo.baseBranch());
    }

    private void removeLeftoverWorktrees() throws PaddockException {
        Set<Long> keep = new HashSet<>();
        for (MergeEntry c : store.inState(MergeState.CONFLICT)) {
            if (c.attempt().worktree() != null) {
                keep.add(c.id());
            }
        }
        for (RepoRecord repo : queue.repos().recent()) {
            for (long id : git.leftoverIds(repo.path())) {
                if (!keep.contains(id)) {
                    LOG.info("Removing the leftover merge worktree {}", MergeGit.worktreeOf(repo.path(), id));
                    git.remove(repo.path(), MergeGit.worktreeOf(repo.path(), id));
                }
            }
        }
    }
}
