package dev.paddock;

import dev.paddock.approval.ApprovalBroker;
import dev.paddock.approval.ApprovalStore;
import dev.paddock.common.PaddockException;
import dev.paddock.container.DockerEndpoint;
import dev.paddock.events.EventLog;
import dev.paddock.isolation.IsolationRuntimes;
import dev.paddock.isolation.container.ContainerAgents;
import dev.paddock.merge.MergeService;
import dev.paddock.merge.ResolutionService;
import dev.paddock.repo.RepoService;
import dev.paddock.repo.RepoStore;
import dev.paddock.review.ReviewService;
import dev.paddock.sandbox.AgentLauncher;
import dev.paddock.sandbox.ContainerEngineLifecycle;
import dev.paddock.sandbox.FingerprintRecorder;
import dev.paddock.sandbox.OrphanScanner;
import dev.paddock.sandbox.OrphanService;
import dev.paddock.sandbox.Reconciler;
import dev.paddock.sandbox.SandboxCreator;
import dev.paddock.sandbox.SandboxReclaimer;
import dev.paddock.sandbox.SandboxRepositories;
import dev.paddock.sandbox.SandboxService;
import dev.paddock.sandbox.SandboxStore;
import dev.paddock.sandbox.Supervisor;
import dev.paddock.sandbox.TierChecks;
import dev.paddock.settings.PaddockHome;
import dev.paddock.settings.SettingsStore;
import dev.paddock.status.CountsQuery;
import dev.paddock.status.EnvironmentMonitor;
import dev.paddock.status.StatusService;
import dev.paddock.status.Workspace;
import dev.paddock.store.Database;
import dev.paddock.worktree.GitCli;
import dev.paddock.worktree.RepositoryLocator;
import dev.paddock.worktree.WorktreeLister;
import dev.paddock.worktree.WorktreeManager;
import dev.paddock.worktree.WorktreeSeenStore;
import java.nio.file.Path;
import java.time.Clock;

/**
 * The one place where Paddock's long-lived objects are built and connected. The panel, the server
 * and the CLI commands that need the store all start here; nothing else calls constructors of
 * services but the parts it builds them with: {@link IsolationServices} (what agents run in) and
 * {@link ChangeServices} (the services over a sandbox's change).
 */
public final class Wiring implements AutoCloseable {
    private final PaddockHome home;
    private final Clock clock;
    private final Database db;
    private final GitCli git;
    private final WorktreeLister lister;
    private final RepoStore repoStore;
    private final dev.paddock.events.EventBus bus = new dev.paddock.events.EventBus();
    private final EventLog events;
    private final SandboxStore sandboxes;
    private final FingerprintRecorder fingerprints;
    private final RepoService repoService;
    private final StatusService status;
    private final EnvironmentMonitor environment;
    private final Workspace workspace;
    private final SettingsStore settings;
    private final dev.paddock.events.EventRetention eventRetention;
    private final WorktreeManager worktrees;
    private final Supervisor supervisor;
    private final SandboxService sandboxService;
    private final SandboxReclaimer reclaimer;
    private final OrphanService orphans;
    private final Reconciler reconciler;
    private final ApprovalBroker approvals;
    private final IsolationServices isolation;
    private final ContainerEngineLifecycle engineLifecycle;
    private final TierChecks tierChecks;
    private final ChangeServices changes;
    private final dev.paddock.layer.SharedLayers layers;
    private volatile String apiUrl = "http://127.0.0.1:0";

    private Wiring(
            PaddockHome home,
            Database db,
            Clock clock,
            DockerEndpoint docker,
            java.util.Map<String, String> ownEnvironment) {
        this.home = home;
        this.clock = clock;
        this.db = db;
        this.git = new GitCli();
        this.lister = new WorktreeLister(git);
        this.repoStore = new RepoStore(db, clock);
        this.events = new EventLog(db, clock, bus);
        this.sandboxes = new SandboxStore(db, events, clock);
        RepositoryLocator locator = new RepositoryLocator(git);
        this.repoService = new RepoService(locator, git, repoStore, events);
        OrphanScanner orphanScanner = new OrphanScanner(clock, OrphanScanner.SETTLE);
        this.status = new StatusService(
                sandboxes,
                new CountsQuery(db, clock),
                events,
                orphanScanner,
                () -> reconciler().orphanContainers(),
                clock);
        String homeId = HomeStart.idOf(home);
        this.isolation = new IsolationServices(home, clock, docker, homeId);
        this.environment = new EnvironmentMonitor(isolation.engineWatch(), isolation.bubblewrap());
        this.workspace = new Workspace(
                repoService, repoStore, lister, new WorktreeSeenStore(db, clock), events, status, environment, clock);
        this.settings = new SettingsStore(db, events);
        // The store cannot be read: delete nothing.
        this.eventRetention = new dev.paddock.events.EventRetention(
                events, () -> stored(settings, SettingsStore.EVENTS_RETENTION_DAYS, 0), clock);
        this.worktrees = new WorktreeManager(git);
        this.fingerprints = new FingerprintRecorder(worktrees, sandboxes);
        IsolationRuntimes runtimes = isolation.runtimes();
        AgentLauncher launcher = isolation.launcher();
        this.supervisor = new Supervisor(
                sandboxes,
                repoStore,
                locator,
                launcher,
                fingerprints,
                settings,
                clock,
                home.logDir().resolve("sandboxes"),
                () -> apiUrl);
        this.tierChecks = new TierChecks(runtimes);
        fingerprints.onRecorded(supervisor::poke);
        SandboxCreator creator =
                new SandboxCreator(repoService, worktrees, sandboxes, settings, tierChecks, fingerprints, clock);
        dev.paddock.agent.PresetPrograms presets = new dev.paddock.agent.PresetPrograms(
                home.dir(),
                Path.of(System.getProperty("user.home")),
                git,
                () -> approvalTimeoutMs(),
                () -> ownEnvironment,
                dev.paddock.agent.AgentOptions.stored(settings, repoService));
        launcher.agentPrograms(presets);
        this.layers = new dev.paddock.layer.SharedLayers(
                new dev.paddock.layer.LayerStore(db),
                repoService,
                new WorktreeManager(git),
                events,
                () -> stored(settings, SettingsStore.LAYERS_CAP_MB, 0) * 1024L * 1024L,
                runtimes.bubblewrap());
        launcher.sharedLayers(layers);
        creator.agentPrograms(presets);
        this.reclaimer = new SandboxReclaimer(
                sandboxes, supervisor, worktrees, new SandboxRepositories(repoStore, locator), events);
        this.sandboxService =
                new SandboxService(creator, supervisor, reclaimer, sandboxes, events, worktrees, repoService);
        this.orphans = new OrphanService(repoService, sandboxes, worktrees, orphanScanner, events, settings, clock);
        this.reconciler = new Reconciler(
                sandboxes, repoStore, locator, worktrees, orphanScanner, reclaimer, events, settings, runtimes, clock);
        this.engineLifecycle = new ContainerEngineLifecycle(sandboxes, runtimes.container(), events, clock, () -> {
            try {
                reconciler.reconcile();
            } catch (dev.paddock.store.StoreException e) {
                org.slf4j.LoggerFactory.getLogger(Wiring.class)
                        .warn("Reconciling after the engine came back: {}", e.getMessage());
            }
            supervisor.poke();
        });
        engineLifecycle.attach(isolation.engineWatch());
        status.otherEngineAway(isolation::engineAway);
        isolation
                .engines()
                .onEngine(e -> new ContainerEngineLifecycle(
                                sandboxes,
                                e.runtime(),
                                events,
                                clock,
                                engineLifecycle::afterReconnect,
                                e.entry().name())
                        .attach(e.watch()));
        this.approvals = new ApprovalBroker(
                new ApprovalStore(db, events, clock),
                sandboxes,
                repoStore,
                settings,
                home.dir(),
                Path.of(System.getProperty("user.home")),
                clock);
        this.changes = new ChangeServices(
                home,
                homeId,
                db,
                events,
                bus,
                clock,
                git,
                repoStore,
                locator,
                sandboxes,
                repoService,
                sandboxService,
                approvals,
                runtimes,
                ownEnvironment.getOrDefault("PATH", ""),
                () -> new dev.paddock.checkpoint.CheckpointRules( // unreadable: prune nothing, take none
                        stored(settings, SettingsStore.CHECKPOINTS_KEEP, 0),
                        stored(settings, SettingsStore.CHECKPOINTS_RETENTION_DAYS, 0),
                        stored(settings, SettingsStore.CHECKPOINTS_EVERY_S, 0)));
        java.util.function.Consumer<String> atRunEnd = changes.checkpoints().atRunEnd();
        supervisor.onRunEnded(s -> atRunEnd.accept(s.id()));
    }

    /** The approval timeout in force, or its default when the store cannot be read. */
    long approvalTimeoutMs() {
        return stored(settings, SettingsStore.APPROVAL_TIMEOUT_MS, SettingsStore.APPROVAL_TIMEOUT_MS.defaultValue());
    }

    /** A setting's stored value, or {@code fallback} when the store cannot be read. */
    private static <T> T stored(SettingsStore settings, dev.paddock.settings.Setting<T> setting, T fallback) {
        try {
            return settings.get(setting);
        } catch (dev.paddock.store.StoreException e) {
            return fallback;
        }
    }

    /**
     * Opens the store of {@code home} (its H2 file, or the server of {@link PaddockHome#store}) and builds every
     * service. Background work (monitors, probes)
     * starts only when asked.
     *
     * @throws PaddockException when the store cannot be opened (another Paddock holds it, the file is
     *     damaged, a migration fails)
     */
    public static Wiring open(PaddockHome home) throws PaddockException {
        return open(home, System.getenv());
    }

    /**
     * Like {@link #open(PaddockHome)}, with {@code environment} as Paddock's own where agents take theirs from it:
     * their programs on its {@code PATH} and the variables their presets pass through.
     *
     * @throws PaddockException when the store cannot be opened
     */
    public static Wiring open(PaddockHome home, java.util.Map<String, String> environment) throws PaddockException {
        HomeStart.tighten(home);
        return new Wiring(home, HomeStart.openStore(home), Clock.systemUTC(), null, java.util.Map.copyOf(environment));
    }

    /**
     * Like {@link #open(PaddockHome)}, with the Docker engine at {@code docker} instead of the one the docker CLI
     * would choose (tests run a private engine; null: the CLI's choice).
     *
     * @throws PaddockException when the store cannot be opened
     */
    public static Wiring open(PaddockHome home, DockerEndpoint docker) throws PaddockException {
        HomeStart.tighten(home);
        return new Wiring(home, HomeStart.openStore(home), Clock.systemUTC(), docker, System.getenv());
    }

    public PaddockHome home() {
        return home;
    }

    public Clock clock() {
        return clock;
    }

    public Database database() {
        return db;
    }

    /** Deletes events older than {@code events.retentionDays}, hourly once started. */
    public dev.paddock.events.EventRetention eventRetention() {
        return eventRetention;
    }

    public RepoService repoService() {
        return repoService;
    }

    public RepoStore repoStore() {
        return repoStore;
    }

    public EventLog events() {
        return events;
    }

    /** Where every committed event is published in this process. */
    public dev.paddock.events.EventBus bus() {
        return bus;
    }

    public SandboxStore sandboxes() {
        return sandboxes;
    }

    /** Records new sandboxes' health fingerprints just after they are stored (tests wait on it). */
    public FingerprintRecorder fingerprints() {
        return fingerprints;
    }

    public StatusService status() {
        return status;
    }

    public EnvironmentMonitor environment() {
        return environment;
    }

    public Workspace workspace() {
        return workspace;
    }

    public SettingsStore settings() {
        return settings;
    }

    public Supervisor supervisor() {
        return supervisor;
    }

    public SandboxService sandboxService() {
        return sandboxService;
    }

    /** Removes sandboxes (plan, strict / commit / force, bulk). */
    public SandboxReclaimer reclaimer() {
        return reclaimer;
    }

    /** Lists, adopts and removes orphan worktrees. */
    public OrphanService orphans() {
        return orphans;
    }

    /** Compares records, worktrees, folders and processes at start and periodically. */
    public Reconciler reconciler() {
        return reconciler;
    }

    /** Decides agents' requests with the policy and keeps the approval queue. */
    public ApprovalBroker approvals() {
        return approvals;
    }

    /** The agents of container sandboxes (connects to the Docker engine on first use). */
    public dev.paddock.isolation.container.ContainerEngines engines() {
        return isolation.engines();
    }

    /** The local engine's container agents (whose metrics board holds every engine's figures). */
    public ContainerAgents containers() {
        return isolation.containers();
    }

    /** The runtime of each isolation tier (host process group, bubblewrap, container). */
    public IsolationRuntimes runtimes() {
        return isolation.runtimes();
    }

    /** What container sandboxes go through when the Docker engine goes away and comes back. */
    public ContainerEngineLifecycle engineLifecycle() {
        return engineLifecycle;
    }

    /** Which isolation tiers this machine can run now. */
    public TierChecks tierChecks() {
        return tierChecks;
    }

    /** The merge queue: list, enqueue, cancel, retry, repository merge settings. */
    public MergeService merges() {
        return changes.merges();
    }

    /** Review before merge: comments on a sandbox's change, and approving, rejecting or requesting changes. */
    public ReviewService reviews() {
        return changes.reviews();
    }

    /**
     * Checkpoints of sandboxes' working state and rollbacks to them; {@code start()} (the host calls it) recovers
     * what a crash left and takes a checkpoint when an agent's turn ends.
     */
    public dev.paddock.checkpoint.TimedCheckpoints timedCheckpoints() {
        return changes.timedCheckpoints();
    }

    public dev.paddock.checkpoint.CheckpointService checkpoints() {
        return changes.checkpoints();
    }

    /** Pushing sandboxes' branches and opening pull requests ({@code paddock sandbox push|pr}, the panel). */
    public dev.paddock.publish.PublishService publish() {
        return changes.publish();
    }

    /** Comparing the sandboxes of a fan-out ({@code paddock sandbox compare}, the panel's Compare view). */
    public dev.paddock.compare.GroupComparer comparisons() {
        return changes.comparisons();
    }

    /** A sandbox's whole change against its base ({@code paddock sandbox diff}, {@code GET .../diff}). */
    public dev.paddock.layer.SharedLayers layers() {
        return layers;
    }

    /**
     * Deletes, in every registered repository, the shared layer generations no sandbox uses and what an interrupted
     * refresh left; a failure is logged, never thrown (it is tidying).
     */
    public void reclaimLayers() {
        try {
            for (dev.paddock.repo.RepoRecord r : repoStore.recent()) {
                if (java.nio.file.Files.isDirectory(r.path())) {
                    layers.reclaim(r.path());
                }
            }
        } catch (PaddockException e) {
            org.slf4j.LoggerFactory.getLogger(Wiring.class).warn("Reclaiming shared layers: {}", e.getMessage());
        }
    }

    public dev.paddock.diff.DiffService diffs() {
        return changes.diffs();
    }

    /** The conflict queue's resolutions (the three-way view marks files resolved or aborts). */
    public ResolutionService resolutions() {
        return changes.resolutions();
    }

    /**
     * The panel's view of this Paddock: one typed backend per view, over these services (see {@link PanelWiring}).
     *
     * @param stop what closing the backends stops (the running Host)
     */
    public dev.paddock.ui.shell.PanelBackends panelBackends(AutoCloseable stop) {
        return PanelWiring.backends(this, stop);
    }

    /** The sandboxes' backend of the panel, with {@code tiers} telling which tiers this machine can run. */
    public dev.paddock.ui.sandboxes.SandboxBackend sandboxBackend(dev.paddock.sandbox.TierCheck tiers) {
        return PanelWiring.sandboxBackend(this, tiers);
    }

    /** The git command line the services share. */
    GitCli git() {
        return git;
    }

    /** Worktrees: add, remove, inspect. */
    WorktreeManager worktrees() {
        return worktrees;
    }

    /** Tells the services the loopback API's base URL (agents get it as PADDOCK_API). */
    public void setApiUrl(String url) {
        this.apiUrl = url;
    }

    /**
     * Opens namespace and container agents' API sockets ({@code <home>/run/api/<id>/api.sock}), relayed to the API
     * on {@code apiPort}, and shows those agents the Claude Code hooks; the API learns which connections they relay.
     */
    public void serveSandboxSockets(int apiPort, java.util.function.Consumer<dev.paddock.isolation.ApiRelays> api) {
        isolation.serveSandboxSockets(apiPort, api);
    }

    /** The namespace and container agents' API sockets. */
    public dev.paddock.isolation.ApiRelays apiRelays() {
        return isolation.relays();
    }

    /** Tells the launcher each sandbox's hook key (agents get it as PADDOCK_HOOK_KEY). */
    public void setHookKeys(java.util.function.Function<String, String> keyOfSandbox) {
        isolation.launcher().hookKeys(keyOfSandbox);
    }

    /** Stops monitors and probes, then closes the store. */
    @Override
    public void close() {
        changes.timedCheckpoints().close();
        changes.checkpoints().close();
        eventRetention.close();
        approvals.close();
        reconciler.close();
        changes.merges().queue().close();
        supervisor.close();
        isolation.relays().close();
        isolation.engines().close();
        isolation.containers().close();
        workspace.close();
        environment.close();
        isolation.engineWatch().close();
        lister.close();
        sandboxes.close();
        db.close();
        bus.close();
    }
}
