package dev.paddock.sandbox;

import dev.paddock.common.PaddockException;
import dev.paddock.common.Threads;
import dev.paddock.isolation.IsolationException;
import dev.paddock.isolation.IsolationRuntime;
import dev.paddock.isolation.RunExit;
import dev.paddock.isolation.RunId;
import dev.paddock.isolation.RunRef;
import dev.paddock.repo.RepoRecord;
import dev.paddock.repo.RepoStore;
import dev.paddock.settings.SettingsStore;
import dev.paddock.store.StoreException;
import dev.paddock.worktree.GitException;
import dev.paddock.worktree.GitRepository;
import dev.paddock.worktree.RepositoryLocator;
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
 * ran out (and stop their run), retry failures while retries remain, else hand them to a
 * person. The tick only acts on what the store says, and every step is a compare-and-set, so it is
 * idempotent and a restarted Paddock resumes where it stopped.
 *
 * <p>Every tier's run goes through the runtime its tier picks ({@link Tier#runtimeIn}, see
 * docs/decisions/0012-isolation-runtime.md). Sandboxes whose runtime knows nothing now (its engine does not answer,
 * {@link IsolationRuntime#stateUnknown()}) are left as they are: their state is unknown then, not failed.
 *
 * <p>Runs on its own thread ({@code supervisor}); runs are stopped on another
 * ({@code process-reaper}) so a slow kill never holds up the tick.
 */
public final class Supervisor implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Supervisor.class);
    /** Period of the tick, in ms. */
    public static final long TICK_MS = 1_000;
    /** How often {@link #stop} looks again when the state moved under it before giving up. */
    private static final int STOP_ATTEMPTS = 5;

    private final SandboxStore store;
    private final SandboxLifecycle lifecycle;
    private final RepoStore repos;
    private final RepositoryLocator locator;
    private final AgentLauncher launcher;
    private final FingerprintRecorder fingerprints;
    private final SettingsStore settings;
    private final Clock clock;
    private final Path logDir;
    private final Supplier<String> apiUrl;
    private final AgentFiles agentFiles;
    private final Map<Long, GitRepository> gitRepos = new ConcurrentHashMap<>();
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService timer =
            Executors.newSingleThreadScheduledExecutor(Threads.daemon("supervisor"));
    private final RunStopper stopper;
    private final FollowUps followUps;
    private volatile boolean ticking;
    /** Told of each run that ended by itself, before its sandbox leaves {@code running} (a checkpoint of its files). */
    private volatile java.util.function.Consumer<SandboxRecord> runEnded = s -> {};

    /**
     * @param launcher describes agent runs and picks each tier's runtime
     * @param fingerprints no agent of a new sandbox starts before its health fingerprint is recorded
     * @param logDir directory of the agents' log files ({@code <id>.log})
     * @param apiUrl base URL of the loopback API handed to agents
     */
    public Supervisor(
            SandboxStore store,
            RepoStore repos,
            RepositoryLocator locator,
            AgentLauncher launcher,
            FingerprintRecorder fingerprints,
            SettingsStore settings,
            Clock clock,
            Path logDir,
            Supplier<String> apiUrl) {
        this.fingerprints = fingerprints;
        this.store = store;
        this.lifecycle = new SandboxLifecycle(store);
        this.repos = repos;
        this.locator = locator;
        this.launcher = launcher;
        this.agentFiles = new AgentFiles(store, launcher);
        this.settings = settings;
        this.clock = clock;
        this.logDir = logDir;
        this.apiUrl = apiUrl;
        this.stopper = new RunStopper(store, this::grace, this::poke);
        this.followUps = new FollowUps(store, lifecycle, launcher, clock, this::poke);
    }

    /** Starts ticking: at once, then every {@link #TICK_MS}. */
    /**
     * Tells {@code listener} of each run that ended by itself (done, failed), on this supervisor's thread before the
     * sandbox leaves {@code running}: what it does is over before anyone sees the run's end. It must not throw.
     */
    public void onRunEnded(java.util.function.Consumer<SandboxRecord> listener) {
        this.runEnded = listener;
    }

    public void start() {
        store.owners().start();
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
        // On a store several Paddocks share: only the sandboxes this one holds (or takes over now).
        List<SandboxRecord> live = store.owners().held(store.listLive());
        for (SandboxRecord s : live) {
            try {
                if (step(s)) {
                    changed++;
                }
            } catch (PaddockException | RuntimeException e) {
                LOG.warn("Supervisor step for {} failed: {}", s.id(), e.toString());
            }
        }
        launcher.keepSockets(live); // reopened for agents running after a restart, closed for those that ended
        return changed;
    }

    private boolean step(SandboxRecord s) throws PaddockException {
        IsolationRuntime runtime = launcher.runtimeOf(s);
        if (runtime.stateUnknown()
                && (s.state() == SandboxState.PENDING
                        || s.state() == SandboxState.RUNNING
                        || s.state() == SandboxState.RETRYING)) {
            // Its engine does not answer (or has not yet, or its return is being reconciled): nothing is known of
            // the run, so nothing is decided. No start that would fail, no timeout, no kill. See
            // ContainerEngineLifecycle. Its heartbeat file is on the host, though: heartbeats are still taken, so
            // the lease of an agent that works on is not found run out when the engine is back.
            if (s.state() == SandboxState.RUNNING) {
                agentFiles.heartbeat(s, layout(s));
                agentFiles.turn(s, layout(s));
            }
            return false;
        }
        return switch (s.state()) {
            case PENDING, RETRYING -> startAgent(s, runtime);
            case RUNNING -> watch(s, runtime);
            case FAILED, TIMEOUT -> retryOrAskHuman(s, runtime);
            default -> killLeftover(s, runtime);
        };
    }

    /**
     * Starts run {@code iteration + 1}: first adopts a run of this sandbox that a Paddock started after the
     * sandbox's last state change but did not live to record (it is recorded now, not started a second time beside
     * it; older leftovers are ended), else starts a new one with a new token. A start that fails counts as a failed
     * run: retried while retries remain, then a person looks.
     */
    private boolean startAgent(SandboxRecord s, IsolationRuntime runtime) throws PaddockException {
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
        Instant since = s.stateChangedAt() != null ? s.stateChangedAt() : s.createdAt();
        int runNo = s.run().iteration() + 1;
        RunRef ref;
        boolean adopted;
        try {
            Optional<RunRef> unrecorded = runtime.unrecorded(runId(s, layout), since, grace());
            adopted = unrecorded.isPresent();
            if (adopted) {
                ref = unrecorded.get();
                LOG.info(
                        "Adopting run {} of {} ({}), started by a Paddock that did not record it",
                        runNo,
                        s.id(),
                        ref.describe());
            } else {
                // A new token for every run: the store keeps its hash; the token itself goes to the agent only.
                String token = store.issueToken(s.id());
                AgentLauncher.Launch launch =
                        new AgentLauncher.Launch(s, layout, gitOf(s), token, apiUrl.get(), logFile(s.id()));
                // A follow-up a person sent resumes the agent's session with it; else the task starts anew.
                Optional<AgentTurns.FollowUp> followUp = store.turns().followUp(s.id());
                AgentPrograms.Program program = followUp.isPresent()
                        ? launcher.prepareFollowUp(launch, followUp.get().text())
                        : launcher.prepare(launch);
                // Stored before the start: the agent's stream and hooks name it from their first line.
                store.recordAgentSession(s.id(), program.session());
                ref = launcher.start(launch, program, this::poke);
            }
        } catch (SandboxException | IsolationException e) {
            return lifecycle.failedToStart(s, e.getMessage(), clock.instant());
        }
        boolean moved = lifecycle.runStarted(s, ref, runNo, adopted, clock.instant());
        if (!moved && ref.present()) {
            // Someone (a person stopping it) moved it meanwhile: this run must not live.
            stopper.stopLater(runtime, s.id(), ref, "started while the sandbox was moved elsewhere");
        }
        return moved;
    }

    /**
     * Looks at a running sandbox's run: how it ended, if it did (from the runtime, which attaches again to a run
     * started before a restart), else its heartbeats and its lease.
     */
    private boolean watch(SandboxRecord s, IsolationRuntime runtime) throws PaddockException {
        SandboxLayout layout = layout(s);
        RunId id = runId(s, layout);
        RunRef ref = refOf(s);
        boolean takenOver = !runtime.attached(id, ref);
        Optional<RunExit> exit;
        try {
            exit = runtime.exitOf(id, ref, this::poke);
        } catch (IsolationException e) {
            throw new SandboxException(e.getMessage(), e);
        }
        // Taken over from a Paddock that stopped: it keeps the lease end it had. Its heartbeats went to its
        // heartbeat file meanwhile, so one written while no Paddock ran renews it below, and a restart never does.
        Instant now = clock.instant();
        if (exit.isPresent()) {
            agentFiles.atExit(s, layout, exit.get(), logFile(s.id()));
            runEnded.accept(s);
            boolean ended = lifecycle.agentEnded(s, exit.get(), now);
            if (ended && runtime.remains(ref) == IsolationRuntime.Remains.TO_REMOVE) {
                stopper.stopLater(runtime, s.id(), ref, "its agent ended");
            }
            return ended;
        }
        boolean heartbeat = agentFiles.heartbeat(s, layout);
        boolean waiting = agentFiles.turn(s, layout);
        SandboxRecord fresh = heartbeat || takenOver ? store.find(s.id()).orElse(s) : s;
        if (fresh.lease().expiresAt() != null && now.isAfter(fresh.lease().expiresAt())) {
            Duration silent = Duration.between(
                    fresh.lease().lastHeartbeatAt() != null
                            ? fresh.lease().lastHeartbeatAt()
                            : fresh.run().startedAt() != null ? fresh.run().startedAt() : now,
                    now);
            String why = "no heartbeat for " + silent.toSeconds() + " s; the lease of "
                    + fresh.lease().ms() / 1000 + " s ran out";
            boolean moved = lifecycle.leaseExpired(s, why, now);
            if (moved && refOf(fresh).present()) {
                stopper.stopLater(runtime, s.id(), refOf(fresh), "lease expired");
            }
            return moved;
        }
        return waiting;
    }

    private boolean retryOrAskHuman(SandboxRecord s, IsolationRuntime runtime) throws PaddockException {
        RunRef ref = refOf(s);
        if (ref.present()) {
            if (stopper.stopping(ref)) {
                return false; // being stopped
            }
            switch (runtime.remains(ref)) {
                case ENDING -> {
                    return false; // its process tree is still being killed
                }
                case TO_REMOVE -> {
                    stopper.stopLater(runtime, s.id(), ref, "its run is over");
                    return false; // a retry gets a new container once this one is gone
                }
                default -> {}
            }
        }
        if (s.run().retryCount() < s.run().maxRetries()) {
            return lifecycle.scheduleRetry(s);
        }
        return lifecycle.retriesUsedUp(s);
    }

    /** A sandbox that should have no run any more but still names a live one: stop it. */
    private boolean killLeftover(SandboxRecord s, IsolationRuntime runtime) {
        RunRef ref = refOf(s);
        if (!ref.present()) {
            return false;
        }
        if (runtime.remains(ref) != IsolationRuntime.Remains.NONE) {
            stopper.stopLater(runtime, s.id(), ref, "left in state " + s.state().id());
        } else if (!stopper.stopping(ref)) {
            stopper.clear(s.id(), ref);
        }
        return false;
    }

    /** Who a sandbox's current (or next) run is, for its runtime. */
    private RunId runId(SandboxRecord s, SandboxLayout layout) throws PaddockException {
        return AgentLauncher.runId(s, layout, gitOf(s).mainWorktree(), logFile(s.id()));
    }

    /** Whether the process tree the sandbox's record names still runs (a container's is not a process tree here). */
    boolean runs(SandboxRecord s) {
        return launcher.runtimeOf(s).remains(refOf(s)) == IsolationRuntime.Remains.ENDING;
    }

    /** Where the record says the sandbox's run is. */
    private static RunRef refOf(SandboxRecord s) {
        return new RunRef(s.runRef().pid(), s.runRef().startedAt(), s.runRef().engineId());
    }

    /** Follow-up prompts and the agents' turn signals that come by the API. */
    FollowUps followUps() {
        return followUps;
    }

    /**
     * Brings back what a copy of the sandbox's worktree on a remote engine holds ({@link
     * IsolationRuntime#syncWorkspace}); never throws.
     */
    public void syncWorkspace(SandboxRecord s) {
        try {
            launcher.runtimeOf(s).syncWorkspace(s.id());
        } catch (RuntimeException e) {
            LOG.warn("Bringing back the workspace of {}: {}", s.id(), e.toString());
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
            if (s.state() != SandboxState.PENDING
                    && s.state() != SandboxState.RUNNING
                    && s.state() != SandboxState.RETRYING) {
                throw new SandboxConflictException(
                        id + " is " + s.state().id() + ", not running: there is nothing to stop.");
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
        RunRef ref = refOf(s);
        try {
            launcher.runtimeOf(s).stop(id, ref, grace());
        } catch (IsolationException e) {
            throw new SandboxException(e.getMessage(), e);
        }
        if (ref.present()) {
            stopper.clear(id, ref);
        }
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
            throw new SandboxConflictException(id + " is " + s.state().id()
                    + "; only a sandbox that failed, timed out, is done" + " or waits for a person can be retried.");
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
     * Stops and removes what a sandbox's record names that outlives its run (its container: its processes die with
     * it) before this returns, and forgets it in the record; then its runtime forgets the sandbox (its figures leave
     * the table and the charts). For removal of a sandbox that is not running.
     *
     * @throws SandboxException when the engine does not answer or refuses
     */
    public void removeContainer(String id) throws PaddockException {
        SandboxRecord s = store.find(id).orElseThrow(() -> new SandboxNotFoundException(id));
        IsolationRuntime runtime = launcher.runtimeOf(s);
        RunRef ref = refOf(s);
        if (runtime.remains(ref) == IsolationRuntime.Remains.TO_REMOVE) {
            try {
                runtime.stop(id, ref, grace());
            } catch (IsolationException e) {
                throw new SandboxException(e.getMessage(), e);
            }
            stopper.clear(id, ref);
        }
        runtime.forget(id);
    }

    private Duration grace() {
        try {
            return Duration.ofMillis(settings.get(SettingsStore.SANDBOX_KILL_GRACE_MS));
        } catch (StoreException e) {
            return Duration.ofSeconds(3);
        }
    }

    SandboxLayout layout(SandboxRecord s) throws PaddockException {
        return new SandboxLayout(gitOf(s).mainWorktree(), s.id(), s.workspace().branch());
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
            throw new SandboxException(
                    "The repository of " + s.id() + " (" + repo.path() + ") cannot be read: " + e.getMessage(), e);
        }
    }

    /** Stops ticking. Agents keep running; a restarted Paddock adopts them. */
    @Override
    public void close() {
        timer.shutdownNow();
        stopper.close();
        try {
            timer.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        store.owners().close(); // another Paddock sharing the store takes its sandboxes at once
    }
}
