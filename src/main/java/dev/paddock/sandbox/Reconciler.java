package dev.paddock.sandbox;

import dev.paddock.common.PaddockException;
import dev.paddock.common.Threads;
import dev.paddock.container.LabelledContainer;
import dev.paddock.events.EventDraft;
import dev.paddock.events.EventLog;
import dev.paddock.isolation.IsolationException;
import dev.paddock.isolation.IsolationRuntime;
import dev.paddock.isolation.IsolationRuntimes;
import dev.paddock.isolation.RunRef;
import dev.paddock.repo.RepoRecord;
import dev.paddock.repo.RepoStore;
import dev.paddock.settings.SettingsStore;
import dev.paddock.store.StoreException;
import dev.paddock.worktree.GitException;
import dev.paddock.worktree.GitRepository;
import dev.paddock.worktree.RepositoryLocator;
import dev.paddock.worktree.WorktreeInfo;
import dev.paddock.worktree.WorktreeManager;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Zombies and recovery: at start and every few minutes
 * ({@link SettingsStore#RECONCILE_INTERVAL_MS}), for every registered repository with open sandboxes or a
 * {@code .worktrees/} folder, compares the records, {@code git worktree list --porcelain}, the folders under
 * {@code .worktrees/} and live processes:
 * <ul>
 *   <li>worktrees and folders no open record owns are orphans: reported once each (an event), shown in the
 *       status, adopted or removed by a person through {@link OrphanService};</li>
 *   <li>a record whose worktree vanished goes to {@code awaiting_human} with last error
 *       {@value #VANISHED}, and its process tree is killed;</li>
 *   <li>a removal left in {@code cleaning} by an earlier Paddock is finished ({@link SandboxReclaimer#resume});</li>
 *   <li>on the first pass, a running agent that outlived the previous Paddock is recorded as adopted (the
 *       supervisor watches it again; one whose process died meanwhile the supervisor marks failed);</li>
 *   <li>a container of this home ({@code paddock.home=<home id>}) labelled {@code paddock.sandbox=<id>} older
 *       than the scanner's settle time whose sandbox has no open record, or whose open record names another
 *       container, is an orphan container: reported once (an event) and listed in the report. One without a home
 *       label (an older Paddock's, maybe another home's) is reported once as unlabelled, with no advice to remove
 *       it; another home's containers are never looked at. Containers are looked at only once this Paddock
 *       has connected to an engine (a Paddock without container sandboxes never loads docker-java), with one
 *       list call per pass.</li>
 * </ul>
 * A repository that cannot be read is skipped (never taken for "every worktree vanished"). Runs on its own
 * daemon thread ({@code reconciler}); every state change is a compare-and-set, so it never fights the
 * supervisor.
 */
public final class Reconciler implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Reconciler.class);
    /** The last error of a sandbox whose worktree vanished. */
    public static final String VANISHED = "worktree vanished";

    private static final String WHO = "reconciler";
    /** How long a removal of this Paddock may sit in cleaning before a pass finishes it. */
    static final Duration STALE_CLEANING = Duration.ofMinutes(1);

    private final SandboxStore store;
    private final SandboxLifecycle lifecycle;
    private final RepoStore repos;
    private final RepositoryLocator locator;
    private final WorktreeManager worktrees;
    private final OrphanScanner scanner;
    private final SandboxReclaimer reclaimer;
    private final EventLog events;
    private final SettingsStore settings;
    private final IsolationRuntimes runtimes;
    private final Clock clock;
    private final Instant startedAt;
    private final Set<Path> reportedOrphans = ConcurrentHashMap.newKeySet();
    private final Set<String> reportedContainers = ConcurrentHashMap.newKeySet();
    private final Set<Long> unreadable = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService timer =
            Executors.newSingleThreadScheduledExecutor(Threads.daemon("reconciler"));
    private boolean firstPassDone;
    private volatile List<FoundContainer> lastFound = List.of();

    /**
     * What one pass found and did, for tests and logs. Ids and paths in the order met.
     *
     * @param orphanContainers this home's labelled containers that no open record names
     * @param unlabelledContainers containers with Paddock's sandbox label but no home label (made by a Paddock from
     *     before that label: this one's, or another home's on the same engine) that no open record here names
     */
    public record Report(
            List<Orphan> orphans,
            List<String> vanished,
            List<String> resumed,
            List<String> adopted,
            List<String> skippedRepositories,
            List<LabelledContainer> orphanContainers,
            List<LabelledContainer> unlabelledContainers) {
        public Report(
                List<Orphan> orphans,
                List<String> vanished,
                List<String> resumed,
                List<String> adopted,
                List<String> skippedRepositories) {
            this(orphans, vanished, resumed, adopted, skippedRepositories, new ArrayList<>(), new ArrayList<>());
        }
    }

    /**
     * @param runtimes the runtime of each tier: whether a sandbox's run still runs, and the container runtime's
     *     labelled containers once this Paddock uses an engine
     */
    public Reconciler(
            SandboxStore store,
            RepoStore repos,
            RepositoryLocator locator,
            WorktreeManager worktrees,
            OrphanScanner scanner,
            SandboxReclaimer reclaimer,
            EventLog events,
            SettingsStore settings,
            IsolationRuntimes runtimes,
            Clock clock) {
        this.runtimes = runtimes;
        this.store = store;
        this.lifecycle = new SandboxLifecycle(store);
        this.repos = repos;
        this.locator = locator;
        this.worktrees = worktrees;
        this.scanner = scanner;
        this.reclaimer = reclaimer;
        this.events = events;
        this.settings = settings;
        this.clock = clock;
        this.startedAt = clock.instant();
    }

    /** Runs a pass at once, then one every {@link SettingsStore#RECONCILE_INTERVAL_MS} (read before each wait). */
    public void start() {
        timer.execute(this::passAndReschedule);
    }

    private void passAndReschedule() {
        try {
            Report r = reconcile();
            if (!r.vanished().isEmpty()
                    || !r.resumed().isEmpty()
                    || !r.adopted().isEmpty()) {
                LOG.info(
                        "Reconciled: {} orphans, vanished {}, resumed {}, adopted {}",
                        r.orphans().size(),
                        r.vanished(),
                        r.resumed(),
                        r.adopted());
            }
        } catch (StoreException | RuntimeException e) {
            LOG.warn("Reconciliation failed: {}", e.toString());
        }
        if (!timer.isShutdown()) {
            timer.schedule(this::passAndReschedule, interval().toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private Duration interval() {
        try {
            return Duration.ofMillis(Math.max(1_000, settings.get(SettingsStore.RECONCILE_INTERVAL_MS)));
        } catch (StoreException e) {
            return Duration.ofMillis(SettingsStore.RECONCILE_INTERVAL_MS.defaultValue());
        }
    }

    /**
     * One pass over every registered repository. Idempotent; failures of one repository or sandbox are logged
     * and do not stop the others.
     *
     * @throws StoreException when the list of repositories cannot be read
     */
    public synchronized Report reconcile() throws StoreException {
        Report report = new Report(
                new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        for (RepoRecord repo : repos.recent()) {
            try {
                reconcile(repo, report);
            } catch (PaddockException | RuntimeException e) {
                LOG.warn("Reconciling {} failed: {}", repo.path(), e.toString());
                report.skippedRepositories().add(repo.path().toString());
            }
        }
        reconcileContainers(report);
        firstPassDone = true;
        return report;
    }

    /**
     * Orphan containers: labelled by this home, settled, and not the container an open record names. Another
     * home's containers are not listed at all; one with no home label (an older Paddock's) is reported apart,
     * without advice to remove it. An engine that does not answer is skipped (its containers are looked at on a
     * later pass).
     */
    private void reconcileContainers(Report report) throws StoreException {
        Optional<List<FoundContainer>> found = findContainers();
        if (found.isEmpty()) {
            return;
        }
        Set<String> seen = new java.util.HashSet<>();
        for (FoundContainer f : found.get()) {
            LabelledContainer c = f.container();
            seen.add(c.id());
            (f.unlabelled() ? report.unlabelledContainers() : report.orphanContainers()).add(c);
            if (reportedContainers.add(c.id())) {
                Map<String, Object> details = new LinkedHashMap<>();
                details.put("containerId", c.id());
                details.put("sandbox", c.sandboxId());
                details.put("repository", c.repository());
                details.put("state", c.state());
                String which = "container " + c.id().substring(0, Math.min(12, c.id().length())) + " (" + c.state()
                        + ") labelled " + c.sandboxId();
                events.append(
                        f.unlabelled()
                                ? EventDraft.of(
                                        f.repositoryId(),
                                        null,
                                        "sandbox.unlabelled_container_found",
                                        "Unlabelled "
                                                + which
                                                + (f.hasRecord()
                                                        ? ", which its sandbox does not name"
                                                        : ", a sandbox this Paddock has no record of")
                                                + ": made by an older Paddock, maybe"
                                                + " another Paddock home's on the same engine, so it is left alone; remove it yourself"
                                                + " if it is no one's",
                                        details)
                                : EventDraft.of(
                                        f.repositoryId(),
                                        null,
                                        "sandbox.orphan_container_found",
                                        "Orphan " + which
                                                + (f.hasRecord()
                                                        ? ", which its sandbox does not name"
                                                        : ", a sandbox Paddock has no record of")
                                                + "; remove it with docker rm -f",
                                        details));
            }
        }
        reportedContainers.retainAll(seen);
    }

    /**
     * An orphan container as the last look found it.
     *
     * @param repositoryId the repository of its sandbox's record, else the registered one its {@code paddock.repo}
     *     label names, or null
     * @param unlabelled whether it has no home label (an older Paddock's, maybe another home's)
     * @param hasRecord whether its sandbox has a record (which names another container, or is closed)
     */
    public record FoundContainer(
            LabelledContainer container, Long repositoryId, boolean unlabelled, boolean hasRecord) {}

    /**
     * The orphan containers the last look found (a pass, or {@link #lookForOrphanContainers()}); empty before
     * any, or while this Paddock has no engine connection.
     */
    public List<FoundContainer> orphanContainers() {
        return lastFound;
    }

    /**
     * Looks at the engine's containers now, without reporting them (no events): for a status asked when no pass
     * runs. Connects to the engine when needed; an engine that does not answer leaves the last look in place.
     */
    public List<FoundContainer> lookForOrphanContainers() throws StoreException {
        return findContainers(true).orElse(lastFound);
    }

    private Optional<List<FoundContainer>> findContainers() throws StoreException {
        return findContainers(false);
    }

    private synchronized Optional<List<FoundContainer>> findContainers(boolean connect) throws StoreException {
        List<LabelledContainer> labelled;
        try {
            labelled = runtimes.labelled().labelledRuns(connect);
        } catch (IsolationException | RuntimeException e) {
            LOG.debug("Not looking at containers: {}", e.getMessage());
            return Optional.empty();
        }
        Instant settled = clock.instant().minus(scanner.settle());
        List<FoundContainer> found = new ArrayList<>();
        for (LabelledContainer c : labelled) {
            if (c.createdAt().isAfter(settled)) {
                continue;
            }
            Optional<SandboxRecord> owner = c.sandboxId() == null ? Optional.empty() : store.find(c.sandboxId());
            boolean orphan = owner.isEmpty()
                    || owner.get().state() == SandboxState.CLOSED
                    || (!c.id().equals(owner.get().runRef().engineId())
                            && owner.get().state() != SandboxState.PENDING
                            && owner.get().state() != SandboxState.RETRYING);
            if (orphan) {
                found.add(new FoundContainer(
                        c,
                        owner.map(SandboxRecord::repositoryId).orElse(repositoryOf(c)),
                        c.home() == null,
                        owner.isPresent()));
            }
        }
        lastFound = List.copyOf(found);
        return Optional.of(lastFound);
    }

    private void reconcile(RepoRecord repo, Report report) throws PaddockException {
        List<SandboxRecord> open = store.listOpen(repo.id());
        if (open.isEmpty() && !Files.isDirectory(repo.path().resolve(SandboxLayout.ROOT))) {
            return;
        }
        GitRepository git;
        List<WorktreeInfo> listed;
        try {
            git = locator.locate(repo.path());
            listed = worktrees.list(git.mainWorktree());
        } catch (GitException e) {
            if (unreadable.add(repo.id())) {
                LOG.warn("Not reconciling {}: {}", repo.path(), e.getMessage());
            }
            report.skippedRepositories().add(repo.path().toString());
            return;
        }
        unreadable.remove(repo.id());
        Path main = git.mainWorktree();
        List<Orphan> orphans = scanner.scan(main, listed, open);
        report.orphans().addAll(orphans);
        reportNewOrphans(repo, orphans);
        // On a store several Paddocks share, a sandbox another one holds is that one's to judge: its worktree may be
        // on another machine, where it has not vanished.
        java.util.Set<String> elsewhere = store.owners().heldByOthers(open);
        for (SandboxRecord s : open) {
            if (elsewhere.contains(s.id())) {
                continue;
            }
            try {
                check(s, report);
            } catch (PaddockException | RuntimeException e) {
                LOG.warn("Reconciling sandbox {} failed: {}", s.id(), e.getMessage());
            }
        }
    }

    private void check(SandboxRecord s, Report report) throws PaddockException {
        if (s.state() == SandboxState.CLEANING) {
            // Removals an earlier Paddock left behind, or that failed a while ago; never one under way.
            if (s.stateChangedAt() == null
                    || s.stateChangedAt().isBefore(startedAt)
                    || s.stateChangedAt().isBefore(clock.instant().minus(STALE_CLEANING))) {
                resume(s, report);
            }
            return;
        }
        if (vanished(s)) {
            markVanished(s, report);
        } else if (!firstPassDone
                && s.state() == SandboxState.RUNNING
                && s.runRef().pid() != null
                && s.run().startedAt() != null
                && s.run().startedAt().isBefore(startedAt)
                && runs(s)) {
            events.append(EventDraft.of(
                    s.repositoryId(),
                    s.id(),
                    "sandbox.adopted_process",
                    s.id() + ": its agent" + " (pid " + s.runRef().pid()
                            + ") outlived the previous Paddock and runs on; watching it again",
                    Map.of("pid", s.runRef().pid())));
            report.adopted().add(s.id());
        }
    }

    /** The registered repository a container's {@code paddock.repo} label names, or null. */
    private Long repositoryOf(LabelledContainer c) throws StoreException {
        if (c.repository() == null) {
            return null;
        }
        try {
            return repos.findByPath(Path.of(c.repository())).map(RepoRecord::id).orElse(null);
        } catch (InvalidPathException e) {
            return null;
        }
    }

    private void resume(SandboxRecord s, Report report) {
        try {
            reclaimer.resume(s.id(), WHO);
            report.resumed().add(s.id());
        } catch (PaddockException e) {
            LOG.info("Could not finish removing {}: {}", s.id(), e.getMessage());
        }
    }

    private static boolean vanished(SandboxRecord s) {
        if (s.workspace().worktreePath() == null || s.workspace().worktreePath().isBlank()) {
            return false; // a broken record: shown as it is, never judged
        }
        try {
            return !Files.exists(Path.of(s.workspace().worktreePath()), LinkOption.NOFOLLOW_LINKS);
        } catch (InvalidPathException e) {
            return false;
        }
    }

    private void markVanished(SandboxRecord s, Report report) throws PaddockException {
        boolean alive = s.runRef().pid() != null && runs(s);
        if (s.state() == SandboxState.AWAITING_HUMAN || !s.state().canBecome(SandboxState.AWAITING_HUMAN)) {
            // Already with a person (the supervisor kills what still runs), or the merge queue's to settle.
            return;
        }
        if (!lifecycle.worktreeVanished(s, alive, clock.instant())) {
            return; // moved meanwhile; the next pass looks again
        }
        report.vanished().add(s.id());
        if (alive) {
            RunRef ref = s.runRef();
            s.spec()
                    .tier()
                    .runtimeIn(runtimes, s.spec().engine())
                    .stop(s.id(), RunRef.process(ref.pid(), ref.startedAt()), grace());
            store.clearPid(s.id(), ref.pid());
        }
    }

    /** Whether the process tree the record names still runs. */
    private boolean runs(SandboxRecord s) {
        return s.spec()
                        .tier()
                        .runtimeIn(runtimes, s.spec().engine())
                        .remains(RunRef.process(s.runRef().pid(), s.runRef().startedAt()))
                == IsolationRuntime.Remains.ENDING;
    }

    private void reportNewOrphans(RepoRecord repo, List<Orphan> orphans) throws PaddockException {
        Set<Path> now = ConcurrentHashMap.newKeySet();
        for (Orphan o : orphans) {
            now.add(o.path());
            if (reportedOrphans.add(o.path())) {
                Map<String, Object> details = new LinkedHashMap<>();
                details.put("path", o.path().toString());
                details.put("kind", o.kind().name().toLowerCase(java.util.Locale.ROOT));
                details.put("branch", o.branch());
                details.put("locked", o.locked());
                details.put("prunable", o.prunable());
                details.put("actions", o.actions());
                events.append(EventDraft.of(
                        repo.id(),
                        null,
                        "sandbox.orphan_found",
                        "Orphan " + o.describe()
                                + (o.actions().isEmpty() ? "" : "; " + String.join(" or ", o.actions()) + " it"),
                        details));
            }
        }
        reportedOrphans.removeIf(p -> p.startsWith(repo.path()) && !now.contains(p));
    }

    private Duration grace() {
        try {
            return Duration.ofMillis(settings.get(SettingsStore.SANDBOX_KILL_GRACE_MS));
        } catch (StoreException e) {
            return Duration.ofSeconds(3);
        }
    }

    /** Stops the passes (a pass under way finishes first, up to a few seconds). */
    @Override
    public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
