package dev.paddock;

import dev.paddock.approval.ApprovalBroker;
import dev.paddock.checkpoint.CheckpointRepositories;
import dev.paddock.checkpoint.CheckpointService;
import dev.paddock.compare.GroupComparer;
import dev.paddock.diff.DiffService;
import dev.paddock.events.EventBus;
import dev.paddock.events.EventLog;
import dev.paddock.isolation.IsolationRuntimes;
import dev.paddock.merge.ClassifiedConflicts;
import dev.paddock.merge.MergeGit;
import dev.paddock.merge.MergeQueue;
import dev.paddock.merge.MergeService;
import dev.paddock.merge.MergeStore;
import dev.paddock.merge.MergeTreeConflicts;
import dev.paddock.merge.RememberedConflicts;
import dev.paddock.merge.ResolutionService;
import dev.paddock.merge.TierTestRunner;
import dev.paddock.merge.conflict.ConflictClassifier;
import dev.paddock.publish.BranchPush;
import dev.paddock.publish.GhCli;
import dev.paddock.publish.PublishService;
import dev.paddock.repo.RepoService;
import dev.paddock.repo.RepoStore;
import dev.paddock.review.ReviewService;
import dev.paddock.review.ReviewStore;
import dev.paddock.sandbox.SandboxRepositories;
import dev.paddock.sandbox.SandboxService;
import dev.paddock.sandbox.SandboxStore;
import dev.paddock.settings.PaddockHome;
import dev.paddock.store.Database;
import dev.paddock.worktree.GitCli;
import dev.paddock.worktree.RepositoryLocator;
import java.time.Clock;

/**
 * The services over a sandbox's change, what its agent wrote, built together for {@link Wiring}: the merge queue and
 * its conflicts' resolutions, comparing a fan-out's sandboxes, the diff, pushing and pull requests, review, and
 * checkpoints of the working state.
 */
final class ChangeServices {
    private final MergeService merges;
    private final ResolutionService resolutions;
    private final GroupComparer comparisons;
    private final DiffService diffs;
    private final PublishService publish;
    private final ReviewService reviews;
    private final CheckpointService checkpoints;
    private final dev.paddock.checkpoint.TimedCheckpoints timedCheckpoints;

    /**
     * @param homeId the home's id (the merge queue's test containers carry it), or null
     * @param ghPath the {@code PATH} the GitHub CLI is looked up on
     * @param checkpointRules how many checkpoints a sandbox keeps, for how long, and how often more are taken
     */
    ChangeServices(
            PaddockHome home,
            String homeId,
            Database db,
            EventLog events,
            EventBus bus,
            Clock clock,
            GitCli git,
            RepoStore repoStore,
            RepositoryLocator locator,
            SandboxStore sandboxes,
            RepoService repoService,
            SandboxService sandboxService,
            ApprovalBroker approvals,
            IsolationRuntimes runtimes,
            String ghPath,
            java.util.function.Supplier<dev.paddock.checkpoint.CheckpointRules> checkpointRules) {
        // The conflict port: merge.conflict's classifier for hunks and classes, checked against git's own paths.
        MergeQueue mergeQueue = new MergeQueue(
                new MergeStore(db, events, clock),
                repoStore,
                sandboxes,
                new MergeGit(git),
                new RememberedConflicts(new ClassifiedConflicts(new ConflictClassifier(), new MergeTreeConflicts(git))),
                TierTestRunner.create(runtimes, homeId),
                home.logDir().resolve("merges"),
                null);
        this.merges = new MergeService(mergeQueue, repoService);
        this.resolutions = new ResolutionService(mergeQueue);
        this.comparisons = new GroupComparer(
                sandboxService, new SandboxRepositories(repoStore, locator), git, merges, approvals, clock);
        this.diffs = new DiffService(sandboxService, git);
        this.publish = new PublishService(
                sandboxService,
                new SandboxRepositories(repoStore, locator),
                merges,
                git,
                new BranchPush(git, BranchPush.TIMEOUT),
                new GhCli(ghPath, GhCli.TIMEOUT),
                events);
        this.reviews =
                new ReviewService(new ReviewStore(db, events, clock), sandboxService, merges, publish, events, git);
        this.checkpoints = new CheckpointService(
                sandboxService,
                new CheckpointRepositories(sandboxes, new SandboxRepositories(repoStore, locator), repoStore),
                db,
                git,
                events,
                bus,
                checkpointRules,
                clock);
        this.timedCheckpoints = new dev.paddock.checkpoint.TimedCheckpoints(
                checkpoints,
                () -> {
                    try {
                        // On a shared store: those this Paddock supervises (another takes the others' checkpoints).
                        return sandboxes.owners().mine(sandboxes.listLive()).stream()
                                .filter(s -> s.state() == dev.paddock.sandbox.SandboxState.RUNNING)
                                .map(dev.paddock.sandbox.SandboxRecord::id)
                                .toList();
                    } catch (dev.paddock.store.StoreException e) {
                        return java.util.List.of();
                    }
                },
                checkpointRules,
                clock);
    }

    /** Checkpoints of running sandboxes on a timer (a setting; off by default). */
    dev.paddock.checkpoint.TimedCheckpoints timedCheckpoints() {
        return timedCheckpoints;
    }

    /** The merge queue: list, enqueue, cancel, retry, repository merge settings. */
    MergeService merges() {
        return merges;
    }

    /** The conflict queue's resolutions. */
    ResolutionService resolutions() {
        return resolutions;
    }

    /** Comparing the sandboxes of a fan-out. */
    GroupComparer comparisons() {
        return comparisons;
    }

    /** A sandbox's whole change against its base. */
    DiffService diffs() {
        return diffs;
    }

    /** Pushing sandboxes' branches and opening pull requests. */
    PublishService publish() {
        return publish;
    }

    /** Review before merge. */
    ReviewService reviews() {
        return reviews;
    }

    /** Checkpoints of sandboxes' working state and rollbacks to them. */
    CheckpointService checkpoints() {
        return checkpoints;
    }
}
