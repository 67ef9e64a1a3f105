package dev.paddock.status;

import dev.paddock.container.EngineStatus;
import dev.paddock.container.LabelledContainer;
import dev.paddock.events.Event;
import dev.paddock.events.EventLog;
import dev.paddock.isolation.bubblewrap.BubblewrapProbe;
import dev.paddock.repo.RepoRecord;
import dev.paddock.sandbox.Orphan;
import dev.paddock.sandbox.OrphanScanner;
import dev.paddock.sandbox.Reconciler;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxStore;
import dev.paddock.sandbox.WaitingForYou;
import dev.paddock.store.StoreException;
import dev.paddock.worktree.GitRepository;
import dev.paddock.worktree.WorktreeChanges;
import dev.paddock.worktree.WorktreeInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** Builds {@link RepositoryStatus} snapshots from the store and a worktree listing. */
public final class StatusService {
    /** Number of events in a snapshot. */
    public static final int RECENT_EVENTS = 200;

    private final SandboxStore sandboxes;
    private final CountsQuery counts;
    private final EventLog events;
    private final OrphanScanner orphans;
    private final Supplier<List<Reconciler.FoundContainer>> orphanContainers;
    private final Clock clock;

    public StatusService(
            SandboxStore sandboxes, CountsQuery counts, EventLog events, OrphanScanner orphans, Clock clock) {
        this(sandboxes, counts, events, orphans, List::of, clock);
    }

    /** @param orphanContainers the orphan containers the reconciler's last look found */
    public StatusService(
            SandboxStore sandboxes,
            CountsQuery counts,
            EventLog events,
            OrphanScanner orphans,
            Supplier<List<Reconciler.FoundContainer>> orphanContainers,
            Clock clock) {
        this.sandboxes = sandboxes;
        this.counts = counts;
        this.events = events;
        this.orphans = orphans;
        this.orphanContainers = orphanContainers;
        this.clock = clock;
    }

    private volatile java.util.function.Predicate<String> otherEngineAway = name -> false;

    /**
     * Tells which registered engine (by name, never {@code local}) does not answer now, so a sandbox there is shown
     * unknown while the others are not.
     */
    public void otherEngineAway(java.util.function.Predicate<String> away) {
        this.otherEngineAway = away;
    }

    /**
     * Builds the snapshot of one repository.
     *
     * @param record the registered repository, or null when it is not registered (then no sandboxes,
     *     zero counts and no events)
     * @param git the repository on disk
     * @param worktrees the latest worktree listing
     * @param worktreeError why the listing failed, or null
     * @throws StoreException when the store cannot be read
     */
    public RepositoryStatus build(
            RepoRecord record,
            GitRepository git,
            List<WorktreeInfo> worktrees,
            String worktreeError,
            EngineStatus docker,
            BubblewrapProbe.Status bwrap)
            throws StoreException {
        return build(record, git, worktrees, worktreeError, docker, null, bwrap);
    }

    /**
     * Builds the snapshot of one repository; container sandboxes that are pending, running or retrying are
     * flagged {@code engineUnreachable} while {@code docker} says the engine does not answer or has not answered
     * yet.
     *
     * @param dockerAwaySince when the engine stopped answering (this outage), or null
     * @throws StoreException when the store cannot be read
     */
    public RepositoryStatus build(
            RepoRecord record,
            GitRepository git,
            List<WorktreeInfo> worktrees,
            String worktreeError,
            EngineStatus docker,
            java.time.Instant dockerAwaySince,
            BubblewrapProbe.Status bwrap)
            throws StoreException {
        // Not answering, and not known yet (before the engine's first answer): either way a container's state is
        // unknown, whether the engine was lost at start or later.
        boolean engineAway = !docker.reachable();
        List<SandboxRecord> open = record == null ? List.of() : sandboxes.listOpen(record.id());
        Map<Path, String> owners = new HashMap<>();
        for (SandboxRecord s : open) {
            if (s.workspace().worktreePath() != null) {
                owners.put(Path.of(s.workspace().worktreePath()), s.id());
            }
        }
        Path kept = git.mainWorktree() == null ? null : git.mainWorktree().resolve(WorktreeChanges.KEPT_MERGE_WORKTREE);
        List<RepositoryStatus.Worktree> wts = worktrees.stream()
                .filter(w -> kept == null || w.path() == null || !w.path().equals(kept))
                .map(w -> new RepositoryStatus.Worktree(
                        w.path().toString(),
                        WorktreeChanges.shortName(git.mainWorktree(), w.path()),
                        w.branch(),
                        w.detached(),
                        w.main(),
                        w.head(),
                        w.subject(),
                        w.dirty(),
                        w.changedFiles(),
                        w.locked(),
                        w.lockedReason(),
                        w.prunable(),
                        w.prunableReason(),
                        owners.get(w.path()),
                        w.missing()))
                .toList();
        Map<String, WaitingForYou> waiting =
                record == null ? Map.of() : sandboxes.turns().waitingIn(record.id());
        List<RepositoryStatus.Sandbox> sbs = open.stream()
                .map(s -> sandbox(
                        s,
                        dev.paddock.isolation.Engines.isLocal(s.spec().engine())
                                ? engineAway
                                : otherEngineAway.test(s.spec().engine()),
                        waiting))
                .toList();
        Counts c = record == null ? new Counts(0, 0, 0, 0, 0) : counts.of(record.id());
        List<Event> recent = record == null ? List.of() : events.recentLines(record.id(), RECENT_EVENTS);
        List<RepositoryStatus.EventLine> lines = recent.stream()
                .map(e -> new RepositoryStatus.EventLine(e.id(), e.at(), e.kind(), e.message(), e.sandboxId()))
                .toList();
        RepositoryStatus.Repository repo = new RepositoryStatus.Repository(
                record == null ? null : record.id(),
                git.mainWorktree().toString(),
                record == null ? name(git.mainWorktree()) : record.name(),
                record == null ? git.currentBranch() : record.baseBranch(),
                record != null);
        // A failed listing is no evidence: every sandbox folder would look like an orphan.
        List<RepositoryStatus.Orphan> orphanRows = new ArrayList<>(
                record == null || worktreeError != null
                        ? List.of()
                        : orphans.scan(git.mainWorktree(), worktrees, open).stream()
                                .map(StatusService::orphan)
                                .toList());
        if (record != null) {
            orphanContainers.get().stream()
                    .filter(f -> f.repositoryId() != null && f.repositoryId() == record.id())
                    .map(StatusService::orphan)
                    .forEach(orphanRows::add);
        }
        return new RepositoryStatus(
                clock.instant(),
                repo,
                wts,
                worktreeError,
                sbs,
                c,
                lines,
                environment(docker, dockerAwaySince, bwrap),
                orphanRows);
    }

    private static RepositoryStatus.Sandbox sandbox(
            SandboxRecord s, boolean engineAway, Map<String, WaitingForYou> waiting) {
        SandboxRecord.Spec spec = s.spec();
        SandboxRecord.Workspace ws = s.workspace();
        SandboxRecord.Lease lease = s.lease();
        SandboxRecord.Run run = s.run();
        return new RepositoryStatus.Sandbox(
                s.id(),
                spec.task(),
                spec.tier().id(),
                s.state().id(),
                ws.branch(),
                ws.worktreePath(),
                s.createdAt(),
                lease.lastHeartbeatAt(),
                lease.progress(),
                lease.expiresAt(),
                run.retryCount(),
                run.exitCode(),
                run.lastError(),
                engineAway && s.stateNeedsTheEngine(),
                ws.worktreePath() != null && !Files.isDirectory(Path.of(ws.worktreePath())),
                spec.agent(),
                spec.model(),
                waiting.containsKey(s.id()),
                waitingSince(waiting.get(s.id())),
                waitingDetail(waiting.get(s.id())),
                spec.group());
    }

    private static java.time.Instant waitingSince(WaitingForYou w) {
        return w == null ? null : w.since();
    }

    private static String waitingDetail(WaitingForYou w) {
        return w == null || w.detail() == null || w.detail().isBlank() ? null : w.detail();
    }

    private static RepositoryStatus.Orphan orphan(Orphan o) {
        return new RepositoryStatus.Orphan(
                o.path().toString(),
                o.kind().name().toLowerCase(java.util.Locale.ROOT),
                o.name(),
                o.branch(),
                o.head(),
                o.locked(),
                o.lockedReason(),
                o.prunable(),
                o.prunableReason(),
                o.actions(),
                o.describe(),
                o.missing());
    }

    private static RepositoryStatus.Orphan orphan(Reconciler.FoundContainer f) {
        LabelledContainer c = f.container();
        String shortId = c.id().substring(0, Math.min(12, c.id().length()));
        String named = c.name() == null ? "" : " " + c.name();
        String description = f.unlabelled()
                ? "container " + shortId + named + " (" + c.state() + ") labelled " + c.sandboxId()
                        + ": no home label (an older Paddock's, maybe another home's); left alone, docker rm -f "
                        + shortId + " if it is no one's"
                : "container " + shortId + named + " (" + c.state() + ") labelled " + c.sandboxId()
                        + (f.hasRecord() ? ": its sandbox does not name it" : ": no sandbox of that id")
                        + "; remove it with docker rm -f " + shortId;
        if (c.engine() != null) {
            description = "on engine " + c.engine() + ", " + description + " there";
        }
        return new RepositoryStatus.Orphan(
                null,
                "container",
                c.sandboxId(),
                null,
                null,
                false,
                null,
                false,
                null,
                List.of(),
                description,
                false,
                c.id(),
                c.name(),
                c.state(),
                c.home());
    }

    static RepositoryStatus.Environment environment(EngineStatus docker, BubblewrapProbe.Status bwrap) {
        return environment(docker, null, bwrap);
    }

    static RepositoryStatus.Environment environment(
            EngineStatus docker, java.time.Instant awaySince, BubblewrapProbe.Status bwrap) {
        return new RepositoryStatus.Environment(
                new RepositoryStatus.Docker(
                        docker.reachable(),
                        docker.endpoint(),
                        docker.version(),
                        docker.error(),
                        docker.source(),
                        docker.reachable() ? null : awaySince),
                new RepositoryStatus.Bubblewrap(bwrap.installed(), bwrap.usable(), bwrap.version(), bwrap.problem()));
    }

    private static String name(Path p) {
        return p.getFileName() == null ? p.toString() : p.getFileName().toString();
    }
}
