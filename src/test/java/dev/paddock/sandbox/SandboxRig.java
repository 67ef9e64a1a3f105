package dev.paddock.sandbox;

import dev.paddock.common.PaddockException;
import dev.paddock.events.Event;
import dev.paddock.events.EventLog;
import dev.paddock.isolation.host.ProcessTree;
import dev.paddock.repo.RepoService;
import dev.paddock.repo.RepoStore;
import dev.paddock.settings.SettingsStore;
import dev.paddock.store.Database;
import dev.paddock.testing.TempRepo;
import dev.paddock.testing.TestRuntimes;
import dev.paddock.worktree.GitCli;
import dev.paddock.worktree.RepositoryLocator;
import dev.paddock.worktree.WorktreeManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * The real sandbox services over a real H2 file and a real git repository, connected as {@code Wiring}
 * connects them, for tests in this package. The supervisor is not started: tests call {@link #tick()}.
 * {@link #close()} kills every agent process tree it knows of, then closes the store.
 */
final class SandboxRig implements AutoCloseable {
    final Path dir;
    final TempRepo repo;
    final Database db;
    final EventLog events;
    final SandboxStore store;
    final RepoStore repos;
    final RepoService repoService;
    final SettingsStore settings;
    final WorktreeManager worktrees;
    final FingerprintRecorder fingerprints;
    final SandboxCreator creator;
    final Supervisor supervisor;
    final SandboxReclaimer reclaimer;
    final OrphanService orphans;
    final Reconciler reconciler;
    final Path logDir;
    /** The supervisor's launcher: knows the {@code custom} agent alone unless a test gives it the presets. */
    final AgentLauncher launcher = new AgentLauncher(TestRuntimes.local());

    private final RepositoryLocator locator;
    private final OrphanScanner scanner;

    /**
     * @param dir a temporary directory: the repository goes in {@code dir/repo}, the store in {@code dir/home}
     */
    SandboxRig(Path dir) throws PaddockException {
        this(dir, TempRepo.init(dir.resolve("repo")));
    }

    SandboxRig(Path dir, TempRepo repo) throws PaddockException {
        this.dir = dir;
        this.repo = repo;
        Clock clock = Clock.systemUTC();
        this.db = Database.open(dir.resolve("home").resolve("paddock"));
        this.events = new EventLog(db, clock);
        this.store = new SandboxStore(db, events, clock);
        this.repos = new RepoStore(db, clock);
        GitCli git = new GitCli();
        this.locator = new RepositoryLocator(git);
        this.repoService = new RepoService(locator, git, repos, events);
        this.settings = new SettingsStore(db);
        settings.put(SettingsStore.SANDBOX_KILL_GRACE_MS, 500L);
        this.worktrees = new WorktreeManager(git);
        this.fingerprints = new FingerprintRecorder(worktrees, store);
        this.creator = new SandboxCreator(
                repoService, worktrees, store, settings, tier -> Optional.empty(), fingerprints, clock);
        this.logDir = dir.resolve("home").resolve("logs").resolve("sandboxes");
        this.supervisor = newSupervisor(fingerprints, launcher);
        this.reclaimer =
                new SandboxReclaimer(store, supervisor, worktrees, new SandboxRepositories(repos, locator), events);
        this.scanner = new OrphanScanner(clock, Duration.ZERO);
        this.orphans = new OrphanService(repoService, store, worktrees, scanner, events, settings, clock);
        this.reconciler = newReconciler();
    }

    /**
     * A supervisor as a freshly started Paddock has it: knowing no agent process of its own, and no health
     * fingerprint being taken.
     */
    Supervisor newSupervisor() {
        return newSupervisor(new FingerprintRecorder(worktrees, store), new AgentLauncher(TestRuntimes.local()));
    }

    private Supervisor newSupervisor(FingerprintRecorder recorder, AgentLauncher agents) {
        return new Supervisor(
                store,
                repos,
                locator,
                agents,
                recorder,
                settings,
                Clock.systemUTC(),
                logDir,
                () -> "http://127.0.0.1:9");
    }

    /** A reconciler as a freshly started Paddock has it: everything before now was left by an earlier one. */
    Reconciler newReconciler() {
        return new Reconciler(
                store,
                repos,
                locator,
                worktrees,
                scanner,
                reclaimer,
                events,
                settings,
                TestRuntimes.local(),
                Clock.systemUTC());
    }

    /** Creates a pending sandbox with this id and branch; its agent runs {@code command} once ticked. */
    SandboxRecord create(String id, String branch, String command) throws PaddockException {
        SandboxRecord s = creator.create(NewSandbox.custom(repo.dir(), "task of " + id, command)
                .id(id)
                .branch(branch)
                .maxRetries(0)
                .build());
        awaitFingerprint(id);
        return s;
    }

    /** Waits until the health fingerprint of a sandbox just created is recorded (it is taken in the background). */
    void awaitFingerprint(String id) {
        try {
            if (!fingerprints.await(id, java.time.Duration.ofSeconds(30))) {
                throw new AssertionError("the fingerprint of " + id + " was not recorded within 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** A pending sandbox whose agent would only sleep (tests that never tick). */
    SandboxRecord create(String id, String branch) throws PaddockException {
        return create(id, branch, "sleep 60");
    }

    /** The sandbox service over this rig's parts, as Paddock wires it. */
    SandboxService service() {
        return new SandboxService(creator, supervisor, reclaimer, store, events, worktrees, repoService);
    }

    SandboxRecord find(String id) throws PaddockException {
        return store.find(id).orElseThrow();
    }

    int tick() throws PaddockException {
        return supervisor.tick();
    }

    /** Ticks until {@code id} is in {@code state}, up to {@code timeout}. */
    SandboxRecord tickUntil(String id, SandboxState state, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            tick();
            SandboxRecord s = find(id);
            if (s.state() == state) {
                return s;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(id + " is " + s.state().id() + ", not " + state.id() + " after " + timeout
                        + "; events: " + kinds(id));
            }
            Thread.sleep(50);
        }
    }

    /** The kinds of a sandbox's events, oldest first. */
    List<String> kinds(String id) throws PaddockException {
        return events.ofSandbox(id).stream().map(Event::kind).toList();
    }

    /** Every event of the repository (and none), oldest first. */
    List<Event> repositoryEvents() throws PaddockException {
        long repoId = repos.findByPath(repo.dir()).orElseThrow().id();
        List<Event> recent = new ArrayList<>(events.recent(repoId, 10_000));
        java.util.Collections.reverse(recent);
        return recent;
    }

    /** {@code <repo>/.worktrees}. */
    Path worktreesRoot() {
        return repo.dir().resolve(SandboxLayout.ROOT);
    }

    /** Every path under {@code dir} (files and folders, relative, sorted): a picture of the disk to compare. */
    static List<String> tree(Path dir) {
        if (!Files.exists(dir)) {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.map(p -> dir.relativize(p).toString()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits until {@code condition} holds, polling every 50 ms. */
    static void await(String what, BooleanSupplier condition, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout.toMillis() + " ms waiting for " + what);
            }
            Thread.sleep(50);
        }
    }

    @Override
    public void close() {
        try {
            for (SandboxRecord s : store.listLive()) {
                if (s.runRef().pid() != null) {
                    ProcessTree.kill(s.runRef().pid(), Duration.ofMillis(200));
                }
                killAgentsOf(s);
            }
        } catch (PaddockException e) {
            throw new IllegalStateException(e);
        } finally {
            reconciler.close();
            supervisor.close();
            store.close(); // its heartbeat writer, before the store it writes to
            db.close();
        }
    }

    /** Kills every live process whose command line names the sandbox's exit-code file (recorded or not). */
    private void killAgentsOf(SandboxRecord s) {
        String exitFile;
        try {
            exitFile = new SandboxLayout(repo.dir(), s.id(), s.workspace().branch())
                    .exitCodeFile()
                    .toString();
        } catch (SandboxException e) {
            return; // a deliberately broken record
        }
        ProcessHandle.allProcesses()
                .filter(h -> h.info()
                        .arguments()
                        .map(a -> List.of(a).contains(exitFile))
                        .orElse(false))
                .forEach(h -> ProcessTree.kill(h.pid(), Duration.ofMillis(200)));
    }
}
