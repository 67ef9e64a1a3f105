package dev.paddock.status;

import dev.paddock.common.PaddockException;
import dev.paddock.events.EventLog;
import dev.paddock.repo.RepoRecord;
import dev.paddock.repo.RepoService;
import dev.paddock.repo.RepoStore;
import dev.paddock.worktree.GitRepository;
import dev.paddock.worktree.WorktreeInfo;
import dev.paddock.worktree.WorktreeLister;
import dev.paddock.worktree.WorktreeMonitor;
import dev.paddock.worktree.WorktreeSeenStore;
import dev.paddock.worktree.WorktreeSnapshot;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The repositories a running panel or server is watching: one {@link WorktreeMonitor} per opened
 * repository, and {@link RepositoryStatus} snapshots built from them. Thread-safe.
 */
public final class Workspace implements AutoCloseable {
    private final RepoService repoService;
    private final RepoStore repoStore;
    private final WorktreeLister lister;
    private final WorktreeSeenStore seen;
    private final EventLog events;
    private final StatusService status;
    private final EnvironmentMonitor environment;
    private final Clock clock;
    private final Map<Long, Watched> watched = new ConcurrentHashMap<>();

    private record Watched(RepoRecord record, WorktreeMonitor monitor) {}

    public Workspace(
            RepoService repoService,
            RepoStore repoStore,
            WorktreeLister lister,
            WorktreeSeenStore seen,
            EventLog events,
            StatusService status,
            EnvironmentMonitor environment,
            Clock clock) {
        this.repoService = repoService;
        this.repoStore = repoStore;
        this.lister = lister;
        this.seen = seen;
        this.events = events;
        this.status = status;
        this.environment = environment;
        this.clock = clock;
    }

    /**
     * Opens the repository containing {@code path}: registers it and starts watching its worktrees
     * (idempotent: a repository already watched keeps its monitor).
     *
     * @return the store record of the repository
     * @throws PaddockException when the path is not a usable repository or the store fails
     */
    public RepoRecord open(Path path) throws PaddockException {
        RepoService.OpenedRepo opened = repoService.open(path);
        long id = opened.record().id();
        watched.computeIfAbsent(id, k -> {
            WorktreeMonitor m = new WorktreeMonitor(opened.git(), id, lister, seen, events, clock);
            m.start();
            return new Watched(opened.record(), m);
        });
        return opened.record();
    }

    /** The monitor of a watched repository. */
    public Optional<WorktreeMonitor> monitor(long repositoryId) {
        return Optional.ofNullable(watched.get(repositoryId)).map(Watched::monitor);
    }

    /** Registered repositories, most recently opened first. */
    public List<RepoRecord> recent() throws PaddockException {
        return repoService.recent();
    }

    /**
     * The status of a watched repository, from its monitor's latest listing.
     *
     * @throws PaddockException when the repository is not watched or the store fails
     */
    public RepositoryStatus status(long repositoryId) throws PaddockException {
        return status(repositoryId, true);
    }

    /**
     * The status of a watched repository as it is known now, without waiting for {@code git status}: before the
     * monitor's first scan has finished, the worktrees are listed (one git process) with their dirty state not known
     * yet ({@link dev.paddock.worktree.WorktreeInfo#dirty()} null); that scan then tells the monitor's listeners. What
     * the panel shows first, so its rows do not wait for a {@code git status} in every worktree.
     *
     * @throws PaddockException when the repository is not watched or the store fails
     */
    public RepositoryStatus statusNow(long repositoryId) throws PaddockException {
        return status(repositoryId, false);
    }

    private RepositoryStatus status(long repositoryId, boolean withDirtyState) throws PaddockException {
        Watched w = watched.get(repositoryId);
        if (w == null) {
            throw new UnknownRepositoryException("Repository " + repositoryId + " is not open in this Paddock.");
        }
        WorktreeMonitor monitor = w.monitor();
        RepoRecord record = repoStore.find(repositoryId).orElse(w.record());
        EnvironmentMonitor.Snapshot env = environment.snapshot();
        if (!monitor.hasSnapshot()) {
            // Just opened, first scan still running: list now rather than answer "no worktrees".
            GitRepository git = monitor.repository();
            return status.build(
                    record,
                    git,
                    withDirtyState ? lister.list(git) : lister.listQuick(git),
                    null,
                    env.docker(),
                    env.engine().awaySince(),
                    env.bubblewrap());
        }
        WorktreeSnapshot snap = monitor.snapshot();
        return status.build(
                record,
                monitor.repository(),
                snap.worktrees(),
                snap.error(),
                env.docker(),
                env.engine().awaySince(),
                env.bubblewrap());
    }

    /**
     * The status of the repository containing {@code path}: from its monitor when watched, otherwise
     * from a fresh listing (registered or not; nothing is registered by asking).
     */
    public RepositoryStatus statusOf(Path path) throws PaddockException {
        GitRepository git = repoService.locate(path);
        Optional<RepoRecord> record = repoStore.findByPath(git.mainWorktree());
        if (record.isPresent() && watched.containsKey(record.get().id())) {
            return status(record.get().id());
        }
        List<WorktreeInfo> worktrees = lister.list(git);
        EnvironmentMonitor.Snapshot env = environment.snapshot();
        return status.build(
                record.orElse(null),
                git,
                worktrees,
                null,
                env.docker(),
                env.engine().awaySince(),
                env.bubblewrap());
    }

    /** The most recently opened watched repository, if any (the API's default for {@code status}). */
    public Optional<RepoRecord> mostRecentWatched() {
        return watched.values().stream()
                .map(Watched::record)
                .max(java.util.Comparator.comparing(RepoRecord::lastOpenedAt));
    }

    @Override
    public void close() {
        watched.values().forEach(w -> w.monitor().close());
        watched.clear();
    }
}
