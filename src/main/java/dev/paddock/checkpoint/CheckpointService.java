package dev.paddock.checkpoint;

import dev.paddock.common.CommitIds;
import dev.paddock.common.PaddockException;
import dev.paddock.events.EventBus;
import dev.paddock.events.EventDraft;
import dev.paddock.events.EventKinds;
import dev.paddock.events.EventLog;
import dev.paddock.sandbox.SandboxConflictException;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxService;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.store.Database;
import dev.paddock.worktree.GitCli;
import dev.paddock.worktree.GitException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checkpoints of sandboxes' working state, and rollbacks to them. A checkpoint is a commit on
 * {@code refs/paddock/checkpoints/<sandbox>/<n>} (see {@link CheckpointGit}) and a row in the store; one is taken
 * when asked ({@code paddock checkpoint}), when an agent's turn ends ({@link EventKinds#AGENT_TURN_ENDED}), and
 * before every rollback. A sandbox's refs and rows go when it is removed.
 *
 * <p>The ref is written before the row: a crash between the two leaves a ref without a row, which
 * {@link #recover()} turns back into a row from the commit itself; a row whose ref is gone is deleted there.
 * Checkpoints of one sandbox are taken one at a time.
 */
public final class CheckpointService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CheckpointService.class);
    /** The refs of every checkpoint live under this prefix. */
    public static final String REF_PREFIX = "refs/paddock/checkpoints/";
    /** The message of the checkpoint taken when an agent's turn ends. */
    public static final String TURN_ENDED = "turn ended";

    static final int MESSAGE_MAX = 1000;
    /** The message of a checkpoint taken when a run ended. */
    public static final String RUN_ENDED = "run ended";

    private final SandboxService sandboxes;
    private final CheckpointRepositories repos;
    private final CheckpointStore store;
    private final CheckpointGit git;
    private final EventLog events;
    private final EventBus bus;
    private final Supplier<CheckpointRules> rules;
    private final Clock clock;
    private final Map<String, Object> locks = new ConcurrentHashMap<>();
    private volatile EventBus.Subscription subscription;
    private volatile java.util.function.Consumer<String> beforeTaking = id -> {};

    /**
     * @param repos where a sandbox's repository is on disk (its refs outlive its worktree)
     * @param rules how many checkpoints a sandbox keeps and for how long (asked at each prune)
     */
    public CheckpointService(
            SandboxService sandboxes,
            CheckpointRepositories repos,
            Database db,
            GitCli git,
            EventLog events,
            EventBus bus,
            Supplier<CheckpointRules> rules,
            Clock clock) {
        this.sandboxes = sandboxes;
        this.repos = repos;
        this.store = new CheckpointStore(db);
        this.git = new CheckpointGit(git);
        this.events = events;
        this.bus = bus;
        this.rules = rules;
        this.clock = clock;
    }

    /**
     * Called with a sandbox's id before a checkpoint of it is taken: a sandbox whose agent works on a copy of its
     * worktree (on a remote engine) brings that copy back first. It must not throw.
     */
    public void beforeTaking(java.util.function.Consumer<String> sync) {
        this.beforeTaking = sync;
    }

    /** The ref of checkpoint {@code n} of a sandbox. */
    public static String refName(String sandboxId, int n) {
        return REF_PREFIX + sandboxId + "/" + n;
    }

    /**
     * Recovers what a crash left half-written ({@link #recover()}), then takes a checkpoint whenever an agent's turn
     * or run ends (when its files changed since the last one) and forgets a sandbox's checkpoints once it is closed.
     */
    public void start() {
        try {
            recover();
        } catch (PaddockException | RuntimeException e) {
            LOG.warn("Recovering checkpoints failed: {}", e.getMessage());
        }
        subscription = CheckpointTriggers.subscribe(bus, this);
    }

    /** What to tell the supervisor to call when a run ends by itself: a checkpoint if the files changed. */
    public java.util.function.Consumer<String> atRunEnd() {
        return id -> CheckpointTriggers.runEnded(id, this);
    }

    /**
     * Takes a checkpoint of a sandbox's worktree.
     *
     * @param message why (trimmed to {@value #MESSAGE_MAX} characters; blank: "checkpoint")
     * @param turn the agent's turn that ended, or null
     * @param who who asks, for the event
     * @throws dev.paddock.sandbox.SandboxNotFoundException when there is no such sandbox
     * @throws SandboxConflictException when it is closed or being removed
     * @throws CheckpointException when its worktree is gone
     * @throws GitException when git fails
     */
    public Checkpoint checkpoint(String sandboxId, String message, Integer turn, String who) throws PaddockException {
        synchronized (lock(sandboxId)) {
            SandboxRecord s = sandboxes.find(sandboxId);
            beforeTaking.accept(sandboxId);
            return take(s, worktreeOf(s), message, turn, who, true, null);
        }
    }

    /**
     * Like {@link #checkpoint}, but takes none when the worktree holds exactly what the newest checkpoint holds (with
     * none yet: exactly its base commit, on it).
     *
     * @return the new checkpoint, or empty when nothing changed
     */
    public Optional<Checkpoint> checkpointIfChanged(String sandboxId, String message, Integer turn, String who)
            throws PaddockException {
        synchronized (lock(sandboxId)) {
            SandboxRecord s = sandboxes.find(sandboxId);
            beforeTaking.accept(sandboxId);
            Path worktree = worktreeOf(s);
            Optional<Checkpoint> latest = store.latest(sandboxId);
            CheckpointGit.WorkingTree now = null;
            now = git.workingTree(worktree);
            if (latest.isPresent()
                    ? now.tree().equals(store.lastKnownTree(sandboxId).orElse(null))
                            && Objects.equals(now.head(), latest.get().head())
                    : now.head() != null
                            && now.head().equals(s.workspace().baseCommit())
                            && now.tree().equals(git.treeOf(worktree, now.head()))) {
                return Optional.empty(); // as at the last checkpoint, or (the first) as the sandbox started
            }
            return Optional.of(take(s, worktree, message, turn, who, true, now));
        }
    }

    /** Every checkpoint of a sandbox, oldest first. */
    public List<Checkpoint> list(String sandboxId) throws PaddockException {
        sandboxes.find(sandboxId);
        return store.list(sandboxId);
    }

    /**
     * What {@link #rollback} to checkpoint {@code number} would change now, without changing it: the worktree's
     * working state (written as a tree through Paddock's own index, as a checkpoint is) compared with the
     * checkpoint's tree exactly as the rollback compares them.
     *
     * @throws CheckpointNotFoundException when the sandbox has no such checkpoint
     * @throws SandboxConflictException when it is being merged, removed or closed
     */
    public RollbackPlan planRollback(String sandboxId, int number) throws PaddockException {
        synchronized (lock(sandboxId)) {
            SandboxRecord s = sandboxes.find(sandboxId);
            Checkpoint target = target(s, number);
            Path worktree = worktreeOf(s);
            String targetTree = target.tree() != null ? target.tree() : git.treeOf(worktree, target.commit());
            CheckpointGit.WorkingTree now = git.workingTree(worktree);
            CheckpointChanges c = git.plan(worktree, now.tree(), targetTree).changes();
            return new RollbackPlan(
                    sandboxId,
                    number,
                    target.message(),
                    c.modified(),
                    c.added(),
                    c.deleted(),
                    mayRun(s.state()),
                    store.highest(sandboxId) + 1,
                    now.head(),
                    target.head());
        }
    }

    private Checkpoint target(SandboxRecord s, int number) throws PaddockException {
        Checkpoint target =
                store.find(s.id(), number).orElseThrow(() -> new CheckpointNotFoundException(s.id(), number));
        if (s.state() == SandboxState.MERGING) {
            throw new SandboxConflictException(
                    s.id() + " is being merged; roll it back once the merge queue" + " is done with it.");
        }
        return target;
    }

    private static boolean mayRun(SandboxState state) {
        return state == SandboxState.PENDING || state == SandboxState.RUNNING || state == SandboxState.RETRYING;
    }

    /**
     * Rolls a sandbox's worktree back to checkpoint {@code number}: stops its agent if it may run, takes a checkpoint
     * "before rollback to N" (rolling back to that one undoes this), then makes the working tree exactly the
     * checkpoint's (paths added since are deleted, deleted and changed ones written back with their mode). The
     * branch, its commits and the real index are left alone; ignored files are not touched.
     *
     * @throws CheckpointNotFoundException when the sandbox has no such checkpoint
     * @throws SandboxConflictException when it is being merged, removed or closed
     */
    public Rollback rollback(String sandboxId, int number, String who) throws PaddockException {
        return rollback(sandboxId, number, who, false);
    }

    /**
     * Like {@link #rollback(String, int, String)}; with {@code resetBranch} the sandbox's branch (its worktree's HEAD)
     * is also moved back to the commit it named when checkpoint {@code number} was taken, and the worktree's index
     * follows, as {@code git reset --mixed} would. The checkpoint taken first names the branch's commit before the
     * reset, so rolling back to it with {@code resetBranch} undoes both. Commits left behind stay reachable from that
     * checkpoint's ref and the branch's reflog.
     *
     * @throws CheckpointException with {@code resetBranch}, when checkpoint {@code number} was taken before the
     *     branch's first commit, or when the branch moved during the rollback
     */
    public Rollback rollback(String sandboxId, int number, String who, boolean resetBranch) throws PaddockException {
        synchronized (lock(sandboxId)) {
            SandboxRecord s = sandboxes.find(sandboxId);
            Checkpoint target = target(s, number);
            if (resetBranch && target.head() == null) {
                throw new CheckpointException("Checkpoint " + number + " of " + sandboxId + " was taken before its"
                        + " branch had a commit: its files can be rolled back, its branch cannot be reset to it.");
            }
            Path worktree = worktreeOf(s);
            String targetTree = target.tree() != null ? target.tree() : git.treeOf(worktree, target.commit());
            boolean stopped = stopIfRunning(s, who);
            // Not pruned before the restore: the target may be the oldest one kept.
            Checkpoint before = take(s, worktree, "before rollback to " + number, null, who, false, null);
            CheckpointGit.Restored r;
            try {
                r = git.restore(worktree, before.tree(), targetTree);
            } catch (PaddockException e) {
                throw new CheckpointException(
                        "Rolling " + sandboxId + " back to checkpoint " + number + " failed ("
                                + e.getMessage() + "); the files as they were are kept in checkpoint " + before.number()
                                + ": paddock sandbox rollback " + sandboxId + " " + before.number(),
                        e);
            }
            store.markRestored(sandboxId, before.number(), targetTree);
            String branchFrom = null;
            String branchTo = null;
            if (resetBranch && !Objects.equals(before.head(), target.head())) {
                try {
                    git.resetBranch(
                            worktree,
                            before.head(),
                            target.head(),
                            "paddock: rollback of " + sandboxId + " to " + number);
                } catch (PaddockException e) {
                    throw new CheckpointException(
                            "The files of " + sandboxId + " are rolled back to checkpoint " + number + ", but "
                                    + e.getMessage() + " Checkpoint " + before.number() + " holds the files as they"
                                    + " were: paddock sandbox rollback " + sandboxId + " " + before.number(),
                            e);
                }
                branchFrom = before.head();
                branchTo = target.head();
            }
            prune(worktree, sandboxId);
            events.append(EventDraft.of(
                    s.repositoryId(),
                    sandboxId,
                    EventKinds.CHECKPOINT_ROLLED_BACK,
                    sandboxId
                            + ": rolled back to checkpoint " + number + " ("
                            + r.restored().size() + " restored, "
                            + r.removed().size() + " removed"
                            + (branchTo == null
                                    ? ""
                                    : "; branch reset from " + CommitIds.shortId(branchFrom) + " to "
                                            + CommitIds.shortId(branchTo))
                            + "; undo with checkpoint " + before.number() + ")",
                    Map.of(
                            "to",
                            number,
                            "before",
                            before.number(),
                            "restored",
                            r.restored().size(),
                            "removed",
                            r.removed().size(),
                            "by",
                            who,
                            "branchReset",
                            branchTo != null)));
            LOG.info(
                    "Rolled {} back to checkpoint {}: {} restored, {} removed, {} kept",
                    sandboxId,
                    number,
                    r.restored().size(),
                    r.removed().size(),
                    r.kept().size());
            return new Rollback(
                    sandboxId, number, before, stopped, r.restored(), r.removed(), r.kept(), branchFrom, branchTo);
        }
    }

    /** Stops the agent of a sandbox that may run; one that ended meanwhile needs no stop. */
    private boolean stopIfRunning(SandboxRecord s, String who) throws PaddockException {
        if (!mayRun(s.state())) {
            return false;
        }
        try {
            sandboxes.stop(s.id(), who);
            return true;
        } catch (SandboxConflictException e) {
            if (mayRun(sandboxes.find(s.id()).state())) {
                throw e;
            }
            return false;
        }
    }

    /** Deletes every checkpoint ref and row of a sandbox (it was removed). */
    public void forget(String sandboxId) throws PaddockException {
        synchronized (lock(sandboxId)) {
            Optional<Path> dir = repos.gitDirOf(sandboxId);
            if (dir.isPresent()) {
                String prefix = REF_PREFIX + sandboxId + "/";
                git.deleteRefs(
                        dir.get(), List.copyOf(git.refs(dir.get(), prefix).keySet()));
            }
            int rows = store.deleteAll(sandboxId);
            if (rows > 0) {
                LOG.info("Forgot the {} checkpoints of {}", rows, sandboxId);
            }
        }
        locks.remove(sandboxId);
    }

    /**
     * Settles what a crash may have left: a ref without its row gets its row back (from the commit), a row without
     * its ref is deleted, and the refs and rows of sandboxes that are closed or unknown are deleted.
     */
    public void recover() throws PaddockException {
        new CheckpointRecovery(repos, store, git).run(this::forget);
    }

    /** Takes a checkpoint; {@code written} is the working tree just written, or null to write it now. */
    private Checkpoint take(
            SandboxRecord s,
            Path worktree,
            String message,
            Integer turn,
            String who,
            boolean prune,
            CheckpointGit.WorkingTree written)
            throws PaddockException {
        String sandboxId = s.id();
        String text = message == null || message.isBlank() ? "checkpoint" : message.strip();
        if (text.length() > MESSAGE_MAX) {
            text = text.substring(0, MESSAGE_MAX);
        }
        Optional<String> previous = store.lastKnownTree(sandboxId);
        int number = store.highest(sandboxId) + 1;
        String commitMessage = CheckpointRecovery.commitMessage(text, sandboxId, number, turn);
        CheckpointGit.Snapshot snap = written == null
                ? git.snapshot(worktree, previous.orElse(null), commitMessage)
                : git.snapshot(worktree, previous.orElse(null), commitMessage, written);
        String ref = refName(sandboxId, number);
        if (!git.createRef(snap.commonDir(), worktree, ref, snap.commit())) {
            // A ref whose row a crash lost, and no recovery ran since: never reuse its number.
            number = nextFreeNumber(worktree, sandboxId);
            ref = refName(sandboxId, number);
            snap = git.snapshot(
                    worktree, previous.orElse(null), CheckpointRecovery.commitMessage(text, sandboxId, number, turn));
            if (!git.createRef(snap.commonDir(), worktree, ref, snap.commit())) {
                throw new CheckpointException("The checkpoint ref " + ref + " exists already; try again.");
            }
        }
        Checkpoint c = new Checkpoint(
                sandboxId,
                number,
                snap.commit(),
                snap.tree(),
                snap.head(),
                ref,
                text,
                turn,
                snap.changes(),
                clock.instant().truncatedTo(ChronoUnit.MICROS));
        store.insert(c);
        events.append(EventDraft.of(
                s.repositoryId(),
                sandboxId,
                EventKinds.CHECKPOINT_CREATED,
                sandboxId + ": checkpoint " + number + " (" + text + "; "
                        + snap.changes().size() + " changed)",
                Map.of("number", number, "commit", snap.commit(), "by", who)));
        if (prune) {
            prune(worktree, sandboxId);
        }
        return c;
    }

    /** One more than the highest number among the sandbox's rows and refs. */
    private int nextFreeNumber(Path worktree, String sandboxId) throws PaddockException {
        int highest = store.highest(sandboxId);
        String prefix = REF_PREFIX + sandboxId + "/";
        for (String ref : git.refs(worktree, prefix).keySet()) {
            try {
                highest = Math.max(highest, Integer.parseInt(ref.substring(prefix.length())));
            } catch (NumberFormatException notOurs) {
                // a ref someone else put there: not a number, not counted
            }
        }
        return highest + 1;
    }

    /**
     * Deletes the oldest checkpoints past the number to keep and those older than the retention (never the newest):
     * refs first, then rows (a crash between leaves rows whose refs are gone, which {@link #recover()} deletes).
     */
    private void prune(Path worktree, String sandboxId) throws PaddockException {
        CheckpointRules r = rules.get();
        if (r.keep() <= 0 && r.retentionDays() <= 0) {
            return;
        }
        List<Checkpoint> all = store.list(sandboxId);
        int past = r.keep() <= 0 ? 0 : Math.max(0, all.size() - r.keep());
        if (r.retentionDays() > 0) {
            java.time.Instant cutoff = clock.instant().minus(java.time.Duration.ofDays(r.retentionDays()));
            while (past < all.size() - 1 && all.get(past).createdAt().isBefore(cutoff)) {
                past++;
            }
        }
        List<Checkpoint> old = all.subList(0, past);
        if (old.isEmpty()) {
            return;
        }
        git.deleteRefs(worktree, old.stream().map(Checkpoint::ref).toList());
        for (Checkpoint c : old) {
            store.delete(sandboxId, c.number());
        }
    }

    private static Path worktreeOf(SandboxRecord s) throws PaddockException {
        if (s.state() == SandboxState.CLOSED || s.state() == SandboxState.CLEANING) {
            throw new SandboxConflictException(s.id() + " is " + s.state().id() + ": its worktree is removed, so it"
                    + " has no working state to keep or restore.");
        }
        Path worktree = s.workspace().worktree();
        if (worktree == null || !Files.isDirectory(worktree)) {
            throw new CheckpointException("The worktree of " + s.id() + " is gone (" + worktree + ").");
        }
        return worktree;
    }

    private Object lock(String sandboxId) {
        return locks.computeIfAbsent(sandboxId, k -> new Object());
    }

    @Override
    public void close() {
        EventBus.Subscription sub = subscription;
        if (sub != null) {
            sub.close();
        }
    }
}
