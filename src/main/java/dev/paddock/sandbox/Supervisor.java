package dev.paddock.sandbox;

import dev.paddock.common.PaddockException;
import dev.paddock.common.Threads;
import dev.paddock.repo.RepoRecord;
import dev.paddock.repo.RepoStore;
import dev.paddock.settings.SettingsStore;
import dev.paddock.store.StoreException;
import dev.paddock.worktree.GitException;
import dev.paddock.worktree.GitRepository;
import dev.paddock.worktree.RepositoryLocator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives every sandbox through its lifecycle: a tick
 * about once a second reads the stored records and takes each one step — start what is pending or
 * retrying, notice agents that ended (exit code 0 → done, else failed), time out those whose lease
 * ran out (and kill their process tree), retry failures while retries remain, else hand them to a
 * person. The tick only acts on what the store says, and every step is a compare-and-set, so it is
 * idempotent and a restarted Paddock resumes where it stopped.
 *
 * <p>Container sandboxes are left as they are while the Docker engine does not answer
 * ({@link ContainerAgents#stateUnknown()}): their state is unknown then, not failed.
 *
 * <p>Runs on its own thread ({@code supervisor}); process trees are killed on another
 * ({@code process-reaper}) so a slow kill never holds up the tick.
 */
public final class Supervisor implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Supervisor.class);
    /** Period of the tick, in ms. */
    public static final long TICK_MS = 1_000;
    private static final int PROGRESS_MAX = 500;
    /** How often {@link #stop} looks again when the state moved under it before giving up. */
    private static final int STOP_ATTEMPTS = 5;

    private final SandboxStore store;
    private final SandboxLifecycle lifecycle;
    private final RepoStore repos;
    private final RepositoryLocator locator;
    private final AgentLauncher launcher;
    private final ContainerAgents containers;
    private final FingerprintRecorder fingerprints;
    private final SettingsStore settings;
    private final Clock clock;
    private final Path logDir;
    private final Supplier<String> apiUrl;
    private final Map<String, Process> children = new ConcurrentHashMap<>();
    private final java.util.Set<Long> dying = ConcurrentHashMap.newKeySet();
    private final java.util.Set<String> removing = ConcurrentHashMap.newKeySet();
    private final java.util.Set<String> removalFailed = ConcurrentHashMap.newKeySet();
    private final Map<String, ProcessTree.Watched> adopted = new ConcurrentHashMap<>();
    private final HeartbeatFile heartbeatFiles = new HeartbeatFile();
    private final Map<Long, GitRepository> gitRepos = new ConcurrentHashMap<>();
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(Threads.daemon("supervisor"));
    private final ExecutorService reaper = Executors.newCachedThreadPool(Threads.daemon("process-reaper"));
    private volatile boolean ticking;

    /**
     * @param logDir directory of the agents' log files ({@code <id>.log})
     * @param apiUrl base URL of the loopback API handed to agents
     */
    public Supervisor(SandboxStore store, RepoStore repos, RepositoryLocator locator, AgentLauncher launcher,
                      FingerprintRecorder fingerprints, SettingsStore settings, Clock clock, Path logDir,
                      Supplier<String> apiUrl) {
        this(store, repos, locator, launcher, ContainerAgents.none(), fingerprints, settings, clock, logDir, apiUrl);
    }

    /**
     * @param containers runs the agents of container-tier sandboxes
     * @param fingerprints no agent of a new sandbox starts before its health fingerprint is recorded
     * @param logDir directory of the agents' log files ({@code <id>.log})
     * @param apiUrl base URL of the loopback API handed to agents
     */
    public Supervisor(SandboxStore store, RepoStore repos, RepositoryLocator locator, AgentLauncher launcher,
                      ContainerAgents containers, FingerprintRecorder fingerprints, SettingsStore settings,
                      Clock clock, Path logDir, Supplier<String> apiUrl) {
        this.containers = containers;
        this.fingerprints = fingerprints;
        this.store = store;
        this.lifecycle = new SandboxLifecycle(store);
        this.repos = repos;
        this.locator = locator;
        this.launcher = launcher;
        this.settings = settings;
        this.clock = clock;
        this.logDir = logDir;
        this.apiUrl = apiUrl;
    }

    /** Starts ticking: at once, then every {@link #TICK_MS}. */
    public void start() {
        ticking = true;
        timer.scheduleWithFixedDelay(this::safeTick, 0, TICK_MS, TimeUnit.MILLISECONDS);
    }

    /**
     * Asks for a tick as soon as possible (a sandbox was created, an agent ended). Does nothing before
     * {@link #start()}: a process that only opened the store (a CLI command) must not start agents.
     */
    public void poke() {
        if (ticking && !timer.isShutdown()) {
            timer.execute(this::safeTick);
        }
    }

    /** Registers a callback run (on the supervisor thread) after a tick that changed something. */
    public void addListener(Runnable listener) {
        listeners.add(listener);
    }

    /** The log file of a sandbox's agent. */
    public Path logFile(String sandboxId) {
        return logDir.resolve(sandboxId + ".log");
    }

    private void safeTick() {
        try {
            if (tick() > 0) {
                listeners.forEach(Runnable::run);
            }
        } catch (RuntimeException | StoreException e) {
            LOG.warn("Supervisor tick failed: {}", e.toString());
        }
    }

    /**
     * One tick over every sandbox that is not closed. Package-private so tests drive it directly;
     * synchronized so two ticks never overlap (an agent is started before its compare-and-set).
     *
     * @return how many sandboxes changed state
     */
    synchronized int tick() throws StoreException {
        int changed = 0;
        for (SandboxRecord s : store.listLive()) {
            try {
                if (step(s)) {
                    changed++;
                }
            } catch (PaddockException | RuntimeException e) {
                LOG.warn("Supervisor step for {} failed: {}", s.id(), e.toString());
            }
        }
        return changed;
    }

    private boolean step(SandboxRecord s) throws PaddockException {
        if (s.tier() == Tier.CONTAINER && containers.stateUnknown() && (s.state() == SandboxState.PENDING
                || s.state() == SandboxState.RUNNING || s.state() == SandboxState.RETRYING)) {
            // The engine does not answer (or has not yet, or its return is being reconciled): nothing is known of
            // the container, so nothing is decided. No start that would fail, no timeout, no kill. See
            // ContainerEngineLifecycle. Its heartbeat file is on the host, though: heartbeats are still taken, so
            // the lease of an agent that works on is not found run out when the engine is back.
            if (s.state() == SandboxState.RUNNING) {
                readHeartbeatFile(s, layout(s));
            }
            return false;
        }
        return switch (s.state()) {
            case PENDING, RETRYING -> startAgent(s);
            case RUNNING -> watch(s);
            case FAILED, TIMEOUT -> retryOrAskHuman(s);
            default -> killLeftover(s);
        };
    }

    private boolean startAgent(SandboxRecord s) throws PaddockException {
        SandboxLayout layout = layout(s);
        if (!Files.isDirectory(layout.worktree())) {
            return lifecycle.worktreeGoneAtStart(s, layout.worktree());
        }
        try {
            if (!fingerprints.ready(s, layout)) {
                return false; // being taken; the recorder pokes when it is stored
            }
        } catch (PaddockException e) {
            return lifecycle.fingerprintFailed(s, e.getMessage(), clock.instant());
        }
        if (s.tier() == Tier.CONTAINER) {
            return startContainer(s, layout);
        }
        Optional<AgentLauncher.UnrecordedRun> unrecorded = launcher.unrecordedRun(layout,
                s.stateChangedAt() != null ? s.stateChangedAt() : s.createdAt());
        if (unrecorded.isPresent()) {
            return adoptUnrecordedRun(s, unrecorded.get());
        }
        // A new token for every run: the store keeps its hash; the token itself goes to the agent only.
        String token = store.issueToken(s.id());
        AgentLauncher.Started started;
        try {
            started = launcher.start(new AgentLauncher.Launch(s, layout, gitOf(s), token, apiUrl.get(),
                    logFile(s.id())));
        } catch (SandboxException e) {
            // Counts as a failed run: retried while retries remain, then a person looks.
            return lifecycle.failedToStart(s, e.getMessage(), clock.instant());
        }
        boolean moved = lifecycle.markStarted(s, started.pid(), started.startedAt(), clock.instant());
        if (!moved) {
            // Someone (a person stopping it) moved it meanwhile: this run must not live.
            kill(s.id(), started.pid(), "started while the sandbox was moved elsewhere");
            return false;
        }
        children.put(s.id(), started.process());
        started.process().onExit().thenRun(this::poke);
        return true;
    }

    /**
     * Starts a container-tier run: first adopts a container of this sandbox that a Paddock started after the
     * sandbox's last state change but did not live to record (older ones are removed), else starts a new
     * container. A start that fails counts as a failed run.
     */
    private boolean startContainer(SandboxRecord s, SandboxLayout layout) throws PaddockException {
        Instant since = s.stateChangedAt() != null ? s.stateChangedAt() : s.createdAt();
        int runNo = s.iteration() + 1;
        String cid = null;
        try {
            for (dev.paddock.container.LabelledContainer c : containers.containersOf(s.id())) {
                if (cid == null && !c.createdAt().isBefore(since.minusSeconds(1))
                        && c.labels().getOrDefault("paddock.run", "").equals(Integer.toString(runNo))) {
                    cid = c.id();
                    LOG.info("Adopting the container {} of {}, started by a Paddock that did not record it", c.id(), s.id());
                } else {
                    containers.remove(s.id(), c.id(), grace());
                }
            }
            if (cid == null) {
                String token = store.issueToken(s.id());
                cid = containers.start(new AgentLauncher.Launch(s, layout, gitOf(s), token, apiUrl.get(),
                        logFile(s.id())), runNo, this::poke);
            }
        } catch (SandboxException e) {
            return lifecycle.failedToStart(s, e.getMessage(), clock.instant());
        }
        boolean moved = lifecycle.markStartedInContainer(s, cid, runNo, clock.instant());
        if (!moved) {
            // Someone (a person stopping it) moved it meanwhile: this run must not live.
            removeContainerLater(s.id(), cid, "started while the sandbox was moved elsewhere");
        }
        return moved;
    }

    /**
     * A Paddock started this run and was killed before recording it: the run is recorded now (running), not
     * started a second time beside it. The next tick watches it like any other, and learns from its exit-code
     * file how it ended if it ended already.
     */
    private boolean adoptUnrecordedRun(SandboxRecord s, AgentLauncher.UnrecordedRun run) throws PaddockException {
        LOG.info("Adopting run {} of {} (pid {}), started by a Paddock that did not record it", s.iteration() + 1,
                s.id(), run.pid());
        return lifecycle.adoptUnrecordedRun(s, run, clock.instant());
    }

    private boolean watch(SandboxRecord s) throws PaddockException {
        // Taken over from a Paddock that stopped: it keeps the lease end it had. Its heartbeats went to its
        // heartbeat file meanwhile, so one written while no Paddock ran renews it below, and a restart never does.
        boolean takenOver = s.tier() == Tier.CONTAINER ? !containers.following(s)
                : !children.containsKey(s.id()) && !adopted.containsKey(s.id());
        SandboxLayout layout = layout(s);
        Optional<AgentExit> exit = exitOf(s, layout);
        Instant now = clock.instant();
        if (exit.isPresent()) {
            // The agent's last word counts too (`paddock heartbeat done; exit 0` ends within one tick).
            readHeartbeatFile(s, layout);
            heartbeatFiles.forget(s.id());
            AgentExit e = exit.get();
            children.remove(s.id());
            boolean ended = lifecycle.agentEnded(s, e, now);
            if (ended && s.containerId() != null) {
                removeContainerLater(s.id(), s.containerId(), "its agent ended");
            }
            return ended;
        }
        boolean heartbeat = readHeartbeatFile(s, layout);
        SandboxRecord fresh = heartbeat || takenOver ? store.find(s.id()).orElse(s) : s;
        if (fresh.leaseExpiresAt() != null && now.isAfter(fresh.leaseExpiresAt())) {
            Duration silent = Duration.between(fresh.lastHeartbeatAt() != null ? fresh.lastHeartbeatAt()
                    : fresh.startedAt() != null ? fresh.startedAt() : now, now);
            String why = "no heartbeat for " + silent.toSeconds() + " s; the lease of " + fresh.leaseMs() / 1000
                    + " s ran out";
            boolean moved = lifecycle.leaseExpired(s, why, now);
            if (moved && fresh.pid() != null) {
                kill(s.id(), fresh.pid(), "lease expired");
            }
            if (moved && fresh.containerId() != null) {
                removeContainerLater(s.id(), fresh.containerId(), "lease expired");
            }
            return moved;
        }
        return false;
    }

    private boolean retryOrAskHuman(SandboxRecord s) throws PaddockException {
        if (s.pid() != null && (dying.contains(s.pid()) || ProcessTree.isAlive(s.pid(), s.pidStartedAt()))) {
            return false; // its process tree is still being killed
        }
        if (s.containerId() != null) {
            removeContainerLater(s.id(), s.containerId(), "its run is over");
            return false; // a retry gets a new container once this one is gone
        }
        if (s.retryCount() < s.maxRetries()) {
            return lifecycle.scheduleRetry(s);
        }
        return lifecycle.retriesUsedUp(s);
    }

    /** A sandbox that should have no process any more but still names a live one: kill it. */
    private boolean killLeftover(SandboxRecord s) {
        if (s.containerId() != null) {
            removeContainerLater(s.id(), s.containerId(), "left in state " + s.state().id());
        }
        if (s.pid() != null) {
            if (ProcessTree.isAlive(s.pid(), s.pidStartedAt())) {
                kill(s.id(), s.pid(), "left running in state " + s.state().id());
            } else if (!dying.contains(s.pid())) {
                clearPid(s.id(), s.pid());
            }
        }
        return false;
    }

    /**
     * How the current run ended, if it did: from the process handle when this Paddock started it,
     * else (after a restart) from the pid and the exit-code file.
     */
    private Optional<AgentExit> exitOf(SandboxRecord s, SandboxLayout layout) throws SandboxException {
        if (s.tier() == Tier.CONTAINER) {
            return s.containerId() == null ? Optional.of(new AgentExit(null, "has no container on record"))
                    : containers.exitOf(s, logFile(s.id()), this::poke);
        }
        Process p = children.get(s.id());
        Path exitFile = layout.exitCodeFile();
        if (p != null) {
            if (p.isAlive()) {
                return Optional.empty();
            }
            return Optional.of(AgentExit.fromFile(exitFile).orElseGet(() -> AgentExit.of(p.exitValue())));
        }
        if (s.pid() != null && adoptedAlive(s)) {
            return Optional.empty(); // adopted after a restart: still running
        }
        adopted.remove(s.id());
        return Optional.of(AgentExit.fromFile(exitFile).orElseGet(() -> new AgentExit(null,
                "ended while Paddock was not watching it, without leaving an exit code")));
    }

    /**
     * Whether the process of an agent this Paddock did not start (it was running before a restart) is
     * still alive. Its identity (pid and start time) is checked once; the {@link ProcessTree.Watched} kept
     * then notices when the pid is reused, and asking it is one read of /proc per tick.
     */
    private boolean adoptedAlive(SandboxRecord s) {
        ProcessTree.Watched w = adopted.get(s.id());
        if (w == null || w.pid() != s.pid()) {
            if (!ProcessTree.isAlive(s.pid(), s.pidStartedAt())) {
                return false;
            }
            w = ProcessTree.Watched.of(s.pid()).orElse(null);
            if (w == null) {
                return false;
            }
            adopted.put(s.id(), w);
        }
        return w.running();
    }

    /**
     * An agent without network writes its progress to its heartbeat file; a file whose content changed since the
     * last one taken is a heartbeat ({@link HeartbeatFile}).
     *
     * @return whether one was recorded
     */
    private boolean readHeartbeatFile(SandboxRecord s, SandboxLayout layout) throws PaddockException {
        try {
            Optional<HeartbeatFile.Beat> beat = heartbeatFiles.poll(s, layout.heartbeatFile());
            if (beat.isEmpty()) {
                return false;
            }
            String progress = beat.get().progress();
            boolean recorded = store.heartbeat(s.id(), progress.length() > PROGRESS_MAX
                    ? progress.substring(0, PROGRESS_MAX) : progress);
            heartbeatFiles.taken(beat.get());
            return recorded;
        } catch (IOException e) {
            LOG.debug("Heartbeat file of {}: {}", s.id(), e.getMessage());
            return false;
        }
    }

    /**
     * Stops a sandbox for a person (or a script): its agent's process tree is killed before this returns,
     * and the sandbox waits for a person (retry or remove).
     *
     * @throws SandboxNotFoundException when there is no such sandbox
     * @throws SandboxConflictException when it is not pending, running or retrying, or when its state kept
     *         changing under the stop (the supervisor moved it between each look, 5 times)
     */
    public SandboxRecord stop(String id, String who) throws PaddockException {
        for (int attempt = 0; attempt < STOP_ATTEMPTS; attempt++) {
            SandboxRecord s = store.find(id).orElseThrow(() -> new SandboxNotFoundException(id));
            if (s.state() != SandboxState.PENDING && s.state() != SandboxState.RUNNING
                    && s.state() != SandboxState.RETRYING) {
                throw new SandboxConflictException(id + " is " + s.state().id()
                        + ", not running: there is nothing to stop.");
            }
            boolean moved = lifecycle.stoppedBy(id, s.state(), who, clock.instant());
            if (moved) {
                return killStopped(id, s);
            }
            // It moved meanwhile (e.g. the tick started it): look again.
        }
        throw new SandboxConflictException(id + " kept changing state while being stopped; try again.");
    }

    private SandboxRecord killStopped(String id, SandboxRecord s) throws PaddockException {
        if (s.pid() != null) {
            ProcessTree.kill(s.pid(), grace());
            clearPid(id, s.pid());
        }
        if (s.containerId() != null) {
            containers.remove(id, s.containerId(), grace());
            store.clearContainer(id, s.containerId());
        }
        children.remove(id);
        poke();
        return store.find(id).orElseThrow();
    }

    /**
     * Runs a sandbox again for a person: one that waits for a person, failed, timed out or is done.
     *
     * @return the record as it entered {@code retrying} (its iteration is the finished run's; the next run starts
     *     on the tick this pokes)
     * @throws SandboxNotFoundException when there is no such sandbox
     * @throws SandboxConflictException when it is in another state
     */
    public SandboxRecord retry(String id, String who) throws PaddockException {
        SandboxRecord s = store.find(id).orElseThrow(() -> new SandboxNotFoundException(id));
        if (!s.state().canBecome(SandboxState.RETRYING)) {
            throw new SandboxConflictException(id + " is " + s.state().id() + "; only a sandbox that failed, timed out, is done"
                    + " or waits for a person can be retried.");
        }
        if (!lifecycle.retriedBy(id, s.state(), who)) {
            throw new SandboxConflictException(id + " changed state meanwhile; look again.");
        }
        // Read before poking: the poked tick may start the run at once, and the caller describes the retry.
        SandboxRecord retrying = store.find(id).orElseThrow();
        poke();
        return retrying;
    }

    /**
     * Stops and removes the container a sandbox's record names, if any, before this returns (its processes
     * die with it), and forgets it in the record. For removal of a sandbox that is not running.
     *
     * @throws SandboxException when the engine does not answer or refuses
     */
    public void removeContainer(String id) throws PaddockException {
        SandboxRecord s = store.find(id).orElseThrow(() -> new SandboxNotFoundException(id));
        if (s.containerId() != null) {
            containers.remove(id, s.containerId(), grace());
            store.clearContainer(id, s.containerId());
        }
        containers.metrics().forget(id); // the sandbox goes: its figures leave the table and the charts
    }

    /** Stops and removes a container on the reaper thread (once at a time), then forgets it in the store. */
    private void removeContainerLater(String id, String containerId, String why) {
        if (!removing.add(containerId)) {
            return;
        }
        if (!removalFailed.contains(containerId)) {
            LOG.info("Removing the container {} of {} ({})",
                    dev.paddock.container.DockerContainers.shortId(containerId), id, why);
        }
        reaper.execute(() -> {
            try {
                containers.remove(id, containerId, grace());
                store.clearContainer(id, containerId);
                removalFailed.remove(containerId);
                poke();
            } catch (PaddockException | RuntimeException e) {
                // No poke: the next regular tick tries again (an engine that is away must not make a busy loop),
                // and says so once, not every second.
                if (removalFailed.add(containerId)) {
                    LOG.warn("Could not remove the container of {} (trying again every tick): {}", id, e.getMessage());
                }
            } finally {
                removing.remove(containerId);
            }
        });
    }

    /** Kills a process tree on the reaper thread (once per pid), then forgets the pid in the store. */
    private void kill(String id, long pid, String why) {
        if (!dying.add(pid)) {
            return;
        }
        LOG.info("Killing the process tree {} of {} ({})", pid, id, why);
        reaper.execute(() -> {
            try {
                ProcessTree.kill(pid, grace());
                clearPid(id, pid);
            } finally {
                dying.remove(pid);
                poke();
            }
        });
    }

    private void clearPid(String id, long pid) {
        try {
            store.clearPid(id, pid);
        } catch (StoreException e) {
            LOG.warn("Cannot forget pid {} of {}: {}", pid, id, e.getMessage());
        }
    }

    private Duration grace() {
        try {
            return Duration.ofMillis(settings.get(SettingsStore.SANDBOX_KILL_GRACE_MS));
        } catch (StoreException e) {
            return Duration.ofSeconds(3);
        }
    }

    private SandboxLayout layout(SandboxRecord s) throws PaddockException {
        return new SandboxLayout(gitOf(s).mainWorktree(), s.id(), s.branch());
    }

    private GitRepository gitOf(SandboxRecord s) throws PaddockException {
        GitRepository cached = gitRepos.get(s.repositoryId());
        if (cached != null) {
            return cached;
        }
        RepoRecord repo = repos.find(s.repositoryId())
                .orElseThrow(() -> new SandboxException("The repository of " + s.id() + " is not registered."));
        try {
            GitRepository git = locator.locate(repo.path());
            gitRepos.put(s.repositoryId(), git);
            return git;
        } catch (GitException e) {
            throw new SandboxException("The repository of " + s.id() + " (" + repo.path() + ") cannot be read: "
                    + e.getMessage(), e);
        }
    }

    /** Stops ticking. Agents keep running; a restarted Paddock adopts them. */
    @Override
    public void close() {
        timer.shutdownNow();
        reaper.shutdown();
        try {
            timer.awaitTermination(2, TimeUnit.SECONDS);
            reaper.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
