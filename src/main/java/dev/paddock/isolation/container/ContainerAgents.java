package dev.paddock.isolation.container;

import dev.paddock.common.PaddockException;
import dev.paddock.common.PrivateFiles;
import dev.paddock.container.ContainerException;
import dev.paddock.container.ContainerExit;
import dev.paddock.container.ContainerFollow;
import dev.paddock.container.ContainerMetricsBoard;
import dev.paddock.container.ContainerRunEnd;
import dev.paddock.container.ContainerSpec;
import dev.paddock.container.ContainerStatsStream;
import dev.paddock.container.DockerContainers;
import dev.paddock.container.EngineStatus;
import dev.paddock.container.EngineWatch;
import dev.paddock.container.LabelledContainer;
import dev.paddock.isolation.IsolationException;
import dev.paddock.isolation.RunExit;
import dev.paddock.isolation.RunSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The agents of container-tier sandboxes (used by {@link ContainerRuntime}): starts a run's
 * container ({@link ContainerPlan}), follows its output into the sandbox's log file, and knows how it ended
 * without asking the engine every tick (the follow tells, see {@link ContainerFollow}). After a Paddock
 * restart, {@link #exitOf} attaches to a recorded container again. Stops and removes containers.
 *
 * <p>The Docker connection is made on first use: a Paddock with no container sandboxes never loads docker-java.
 */
public final class ContainerAgents implements AutoCloseable {
    private final Supplier<DockerContainers> factory;
    private final EngineWatch engineWatch;
    private volatile boolean reconciling;
    private final Map<String, Watch> watches = new ConcurrentHashMap<>();
    private final ContainerMetricsBoard metrics;
    private final boolean ownsMetrics;
    /** When a stats stream that ended was last opened again, by sandbox id (System.nanoTime). */
    private final Map<String, Long> statsRetries = new ConcurrentHashMap<>();

    private static final long STATS_RETRY_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
    private DockerContainers containers;

    /**
     * A followed container: its log, how it ended, and its stats stream (null while none could be opened).
     */
    private record Watch(
            ContainerFollow follow, AtomicReference<ContainerExit> exit, AtomicReference<ContainerStatsStream> stats) {
        void close() {
            follow.close();
            ContainerStatsStream st = stats.get();
            if (st != null) {
                st.close();
            }
        }
    }

    /** @param factory connects to the engine (called once, on first use); null: no container tier here */
    public ContainerAgents(Supplier<DockerContainers> factory) {
        this(factory, null);
    }

    /**
     * @param factory connects to the engine (called once, on first use); null: no container tier here
     * @param engineWatch tells whether the engine answers, or null (then it is taken to answer until a call fails)
     */
    public ContainerAgents(Supplier<DockerContainers> factory, EngineWatch engineWatch) {
        this(factory, engineWatch, null);
    }

    /**
     * @param metrics where the figures of its containers go: another engine's board, so the figures of every engine
     *     are in one (sandbox ids are unique across engines)
     */
    ContainerAgents(Supplier<DockerContainers> factory, EngineWatch engineWatch, ContainerMetricsBoard metrics) {
        this.factory = factory;
        this.engineWatch = engineWatch;
        this.ownsMetrics = metrics == null;
        this.metrics = metrics != null ? metrics : new ContainerMetricsBoard(java.time.Clock.systemUTC());
    }

    /**
     * The engine's last check when it did not answer, else empty (it answers, or was not checked yet). While
     * this is present, the state of container sandboxes is unknown: the supervisor leaves them as they are.
     */
    public Optional<EngineStatus> engineAway() {
        EngineWatch w = engineWatch;
        if (w == null || factory == null) {
            return Optional.empty();
        }
        EngineWatch.State s = w.state();
        return s.away() ? Optional.of(s.status()) : Optional.empty();
    }

    /**
     * Whether the state of container sandboxes is unknown now: the engine does not answer, has not answered yet
     * since this Paddock began watching it, or it is back and the outage is being reconciled
     * ({@link #holdWhileReconciling}).
     */
    public boolean stateUnknown() {
        return reconciling || engineAway().isPresent() || notKnownYet();
    }

    /** Whether the engine is watched and its first check has not ended yet. */
    private boolean notKnownYet() {
        EngineWatch w = engineWatch;
        return w != null
                && factory != null
                && w.started()
                && !w.state().status().checked();
    }

    /**
     * Holds (true) or releases (false) the supervisor's decisions on container sandboxes while an outage is
     * reconciled, so the reconciliation's verdict (with its reason) is the one recorded.
     */
    void holdWhileReconciling(boolean hold) {
        reconciling = hold;
    }

    /** The watch of the engine, or null when this Paddock has none. */
    public EngineWatch engineWatch() {
        return engineWatch;
    }

    /**
     * How the container ended, asked of the engine now (one {@code inspect}), or empty while it runs; a container
     * the engine does not know has {@link ContainerExit#vanished()}.
     *
     * @throws IsolationException when the engine does not answer
     */
    Optional<ContainerExit> inspectExit(String containerId) throws IsolationException {
        try {
            return containers().exitOf(containerId);
        } catch (ContainerException e) {
            throw new IsolationException(e.getMessage(), e);
        }
    }

    /**
     * Live CPU and memory of the followed containers, by sandbox id: one stats stream per running container,
     * opened when it is followed and closed when it ends or is removed (a stopped one shows stopped).
     */
    public ContainerMetricsBoard metrics() {
        return metrics;
    }

    /** A Paddock without the container tier: every operation says so. */
    public static ContainerAgents none() {
        return new ContainerAgents(null);
    }

    /** An engine that is not there (no longer registered): every operation says {@code why}. */
    static ContainerAgents missing(String why) {
        ContainerAgents a = new ContainerAgents(null);
        a.missing = why;
        return a;
    }

    private String missing = "This Paddock has no container tier set up.";

    private synchronized DockerContainers containers() throws IsolationException {
        if (factory == null) {
            throw new IsolationException(missing);
        }
        if (containers == null) {
            containers = factory.get();
        }
        return containers;
    }

    /** Why container sandboxes cannot run now (no engine answers), or empty when they can. */
    public Optional<String> unavailable() {
        try {
            return containers().unavailable();
        } catch (IsolationException e) {
            return Optional.of(e.getMessage());
        }
    }

    /** Why {@code image} cannot be used (none given, not on the engine), or empty when it can. */
    public Optional<String> imageProblem(String image) {
        try {
            return containers().imageProblem(image);
        } catch (IsolationException e) {
            return Optional.of(e.getMessage());
        }
    }

    /**
     * Starts a run in a new container ({@link ContainerPlan}) and follows it.
     *
     * @param onExit called (on another thread) when the container ends
     * @return the container's id
     * @throws IsolationException when the container cannot be made or started (the message says why; nothing is
     *     left on the engine)
     */
    String start(RunSpec spec, Runnable onExit) throws IsolationException {
        String id;
        try {
            PrivateFiles.append(
                    spec.id().log(),
                    "=== " + Instant.now() + " " + spec.title() + " in " + spec.image() + ": " + spec.command() + "\n");
            id = containers().run(ContainerPlan.spec(spec));
        } catch (IOException | ContainerException e) {
            throw new IsolationException(
                    "Cannot start the container of " + spec.id().key() + ": " + e.getMessage(), e);
        }
        follow(spec.id().key(), id, spec.id().log(), null, onExit);
        return id;
    }

    private void follow(String sandboxId, String containerId, Path logFile, Instant since, Runnable onExit)
            throws IsolationException {
        AtomicReference<ContainerExit> exit = new AtomicReference<>();
        AtomicReference<ContainerStatsStream> stats = new AtomicReference<>();
        ContainerFollow f;
        try {
            f = containers().follow(containerId, logFile, since, e -> {
                exit.set(e);
                ContainerStatsStream st = stats.get();
                if (st != null) {
                    st.close();
                }
                metrics.stopped(sandboxId, containerId);
                onExit.run();
            });
        } catch (ContainerException e) {
            throw new IsolationException("Cannot follow the container of " + sandboxId + ": " + e.getMessage(), e);
        }
        if (exit.get() == null) {
            try {
                stats.set(containers().watchStats(sandboxId, containerId, metrics));
            } catch (ContainerException e) {
                // the agent runs on without figures; the table shows none for it
                org.slf4j.LoggerFactory.getLogger(ContainerAgents.class)
                        .warn("No CPU and memory figures for {}: {}", sandboxId, e.getMessage());
            }
            if (exit.get() != null && stats.get() != null) {
                stats.get().close(); // it ended while the stream opened
            }
        }
        Watch old = watches.put(sandboxId, new Watch(f, exit, stats));
        if (old != null) {
            old.close();
        }
    }

    /** Whether this Paddock follows container {@code containerId} as {@code key}'s. */
    boolean following(String key, String containerId) {
        Watch w = watches.get(key);
        return w != null && w.follow().containerId().equals(containerId);
    }

    /**
     * How the recorded container of a running sandbox ended, or empty while it runs. A container this Paddock
     * does not follow yet (it was started before a restart) is followed from now on; its log continues after
     * what the log file holds already.
     */
    Optional<RunExit> exitOf(String key, String containerId, Path logFile, Runnable onExit) throws IsolationException {
        Watch w = watches.get(key);
        if (w == null || !w.follow().containerId().equals(containerId)) {
            follow(key, containerId, logFile, lastWrite(logFile), onExit);
            return Optional.empty();
        }
        ContainerExit e = w.exit().get();
        if (e == null) {
            reopenStats(key, w);
        }
        return e == null ? Optional.empty() : Optional.of(explain(e));
    }

    /**
     * Opens the stats stream again when it ended while the container runs on (the engine restarted, the
     * connection broke); the log follow re-attaches by itself, the stats stream here, at the supervisor's tick.
     */
    private void reopenStats(String sandboxId, Watch w) {
        ContainerStatsStream st = w.stats().get();
        if (st != null && !st.ended()) {
            return;
        }
        long now = System.nanoTime();
        Long last = statsRetries.get(sandboxId);
        if (last != null && now - last < STATS_RETRY_NANOS) {
            return; // not every tick: with the engine away each try may wait for its connect timeout
        }
        statsRetries.put(sandboxId, now);
        try {
            ContainerStatsStream fresh =
                    containers().watchStats(sandboxId, w.follow().containerId(), metrics);
            if (!w.stats().compareAndSet(st, fresh) || w.exit().get() != null) {
                fresh.close();
            }
        } catch (ContainerException | IsolationException ex) {
            org.slf4j.LoggerFactory.getLogger(ContainerAgents.class)
                    .debug("No CPU and memory figures for {} yet: {}", sandboxId, ex.getMessage());
        }
    }

    private static Instant lastWrite(Path logFile) {
        java.util.Optional<Instant> recorded = ContainerFollow.lastPosition(logFile);
        if (recorded.isPresent()) {
            return recorded.get();
        }
        try {
            return Files.getLastModifiedTime(logFile).toInstant();
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * A container's end in the words of {@link RunExit}; out of memory says so, with the limit: the agent's own
     * death, or a process of it killed while the agent went on ("exited with 3; a process in the sandbox was killed
     * for memory (limit 64 MiB)").
     */
    public static RunExit explain(ContainerExit e) {
        if (e.code() == null) {
            return new RunExit(null, "lost its container: it was removed before Paddock saw it end");
        }
        if (e.killedForMemory()) {
            return new RunExit(e.code().intValue(), "was killed: " + e.outOfMemoryText());
        }
        RunExit a = RunExit.of(e.code().intValue());
        return e.outOfMemory() ? new RunExit(a.code(), a.explanation() + "; " + e.processKilledText()) : a;
    }

    /**
     * Stops and removes a sandbox's container (its processes die with it) and stops following it. A container
     * that is gone already is fine.
     *
     * @throws IsolationException when the engine does not answer or refuses
     */
    void remove(String sandboxId, String containerId, Duration grace) throws IsolationException {
        Watch w = watches.get(sandboxId);
        if (w != null && w.follow().containerId().equals(containerId)) {
            watches.remove(sandboxId, w);
            w.close();
        }
        metrics.stopped(sandboxId, containerId);
        try {
            containers().stopAndRemove(containerId, grace);
        } catch (ContainerException e) {
            throw new IsolationException(
                    "Cannot remove the container " + DockerContainers.shortId(containerId) + " of " + sandboxId + ": "
                            + e.getMessage(),
                    e);
        }
    }

    /**
     * Runs a task once to its end in a new container ({@link ContainerPlan}; see
     * {@link DockerContainers#runToEnd}): output appended to {@code logFile}, stopped after {@code timeout} or
     * when {@code cancelled}, removed afterwards in every case. Only objects of the repository's git directory are
     * writable that the spec allows.
     *
     * @throws IsolationException when the container cannot be made, started or followed (the engine does not
     *     answer, the image is missing, the sandbox has none, the worktree is not a linked worktree); the message
     *     says why, and nothing is left on the engine
     * @throws PaddockException what {@code started} threw
     */
    ContainerRunEnd runToEnd(
            RunSpec run,
            Path logFile,
            Duration timeout,
            Duration grace,
            java.util.function.BooleanSupplier cancelled,
            DockerContainers.Started started)
            throws PaddockException {
        ContainerSpec spec;
        try {
            spec = ContainerPlan.spec(run);
        } catch (IOException e) {
            throw new IsolationException("Cannot make the container for " + run.workdir() + ": " + e.getMessage(), e);
        }
        try {
            return containers().runToEnd(spec, logFile, timeout, grace, cancelled, started);
        } catch (ContainerException e) {
            throw new IsolationException(e.getMessage(), e);
        }
    }

    /**
     * Stops and removes every container labelled {@code label=value} (and {@code paddock.repo=repository} unless
     * null): what a killed Paddock left of a {@link #runToEnd} run.
     *
     * @return how many were removed
     * @throws IsolationException when the engine does not answer (or there is no container tier)
     */
    public int removeLabelled(String label, String value, String repository, Duration grace) throws IsolationException {
        try {
            return containers().removeLabelled(label, value, repository, grace);
        } catch (ContainerException e) {
            throw new IsolationException(e.getMessage(), e);
        }
    }

    /**
     * Containers labelled with this sandbox's id (oldest first): a run that a Paddock started but did not live
     * to record shows up here.
     */
    List<LabelledContainer> containersOf(String sandboxId) throws IsolationException {
        try {
            return containers().labelled(sandboxId);
        } catch (ContainerException e) {
            throw new IsolationException(e.getMessage(), e);
        }
    }

    /**
     * Every container with Paddock's sandbox label, oldest first.
     *
     * @throws IsolationException when the engine does not answer (or there is no container tier)
     */
    public List<LabelledContainer> labelled() throws IsolationException {
        try {
            return containers().labelled();
        } catch (ContainerException e) {
            throw new IsolationException(e.getMessage(), e);
        }
    }

    /** Whether this Paddock has connected to an engine (a Paddock that never did has no containers to look at). */
    public synchronized boolean connected() {
        return containers != null;
    }

    /** Stops following; containers run on (a restarted Paddock follows them again). */
    @Override
    public synchronized void close() {
        watches.values().forEach(Watch::close);
        watches.clear();
        if (ownsMetrics) {
            metrics.close();
        }
        if (containers != null) {
            containers.close();
        }
    }
}
