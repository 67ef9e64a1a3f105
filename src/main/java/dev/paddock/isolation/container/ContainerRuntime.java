package dev.paddock.isolation.container;

import dev.paddock.common.PaddockException;
import dev.paddock.common.PrivateFiles;
import dev.paddock.container.ContainerExit;
import dev.paddock.container.ContainerRunEnd;
import dev.paddock.container.DockerContainers;
import dev.paddock.container.LabelledContainer;
import dev.paddock.isolation.IsolationException;
import dev.paddock.isolation.IsolationRuntime;
import dev.paddock.isolation.LabelledRuns;
import dev.paddock.isolation.RunEnd;
import dev.paddock.isolation.RunExit;
import dev.paddock.isolation.RunId;
import dev.paddock.isolation.RunRef;
import dev.paddock.isolation.RunSpec;
import dev.paddock.isolation.host.HostRuntime;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs in a Docker container (the container tier), through {@link ContainerAgents} and the container package below
 * it: a run is a container ({@link ContainerPlan}), found by its labels after a restart, followed for its output and
 * its end, stopped and removed. While the engine does not answer, nothing is known of its runs
 * ({@link #stateUnknown()}). The engine is connected to on first use.
 */
public final class ContainerRuntime implements IsolationRuntime, LabelledRuns {
    private static final Logger LOG = LoggerFactory.getLogger(ContainerRuntime.class);
    /** Seconds an engine's answer to {@link #unavailable()} is trusted for. */
    static final long ENGINE_EVERY_S = 5;

    private final ContainerAgents agents;
    private final boolean remote;
    /** The runs on an engine that shares no disk with Paddock; null for a local engine. */
    private final RemoteRuns remoteRuns;

    private Optional<String> engine;
    private long engineAt;

    public ContainerRuntime(ContainerAgents agents) {
        this(agents, false);
    }

    /** @param remote whether the engine is on another machine ({@link dev.paddock.container.EngineEntry#isRemote()}) */
    public ContainerRuntime(ContainerAgents agents, boolean remote) {
        this(agents, remote, () -> null);
    }

    /**
     * @param remote whether the engine is on another machine ({@link dev.paddock.container.EngineEntry#isRemote()})
     * @param relays the sandboxes' API relays, for the broker channels of a remote engine's agents (null inside
     *     while Paddock's API does not run)
     */
    public ContainerRuntime(
            ContainerAgents agents,
            boolean remote,
            java.util.function.Supplier<dev.paddock.isolation.ApiRelays> relays) {
        this.agents = agents;
        this.remote = remote;
        this.remoteRuns = remote ? new RemoteRuns(agents, new dev.paddock.worktree.GitCli(), relays) : null;
    }

    /**
     * Whether the engine is on another machine, so a bind mount would name a folder of that machine, not this one's
     * worktree. Then an agent's workspace is delivered into a volume and brought back, its API reached through a
     * broker channel ({@link RemoteRuns}); on a local engine the worktree is bind-mounted ({@link ContainerPlan}).
     */
    public boolean remote() {
        return remote;
    }

    /** The engine-facing part: follows, metrics, the engine's watch. */
    public ContainerAgents agents() {
        return agents;
    }

    @Override
    public synchronized Optional<String> unavailable() {
        if (engine == null
                || System.nanoTime() - engineAt
                        > Duration.ofSeconds(ENGINE_EVERY_S).toNanos()) {
            engine = agents.unavailable();
            engineAt = System.nanoTime();
        }
        return engine;
    }

    @Override
    public Optional<String> imageProblem(String image) {
        return agents.imageProblem(image);
    }

    @Override
    public boolean stateUnknown() {
        return agents.stateUnknown();
    }

    @Override
    public void holdWhileReconciling(boolean hold) {
        agents.holdWhileReconciling(hold);
    }

    /**
     * Adopts a container of this run ({@link RunId#labels()} all match) made after {@code since}; every other
     * container of the key is removed.
     */
    @Override
    public Optional<RunRef> unrecorded(RunId id, Instant since, Duration grace) throws IsolationException {
        String found = null;
        for (LabelledContainer c : agents.containersOf(id.key())) {
            if (found == null
                    && !c.createdAt().isBefore(since.minusSeconds(1))
                    && c.labels().entrySet().containsAll(id.labels().entrySet())) {
                found = c.id();
                LOG.info(
                        "Adopting the container {} of {}, started by a Paddock that did not record it",
                        c.id(),
                        id.key());
            } else {
                agents.remove(id.key(), c.id(), grace);
            }
        }
        return Optional.ofNullable(found).map(RunRef::engine);
    }

    @Override
    public RunRef start(RunSpec spec, Runnable onEnd) throws IsolationException {
        if (!spec.layers().isEmpty()) {
            throw new IsolationException("Shared layers need the namespace tier; a container cannot be given them.");
        }
        return RunRef.engine(remote ? remoteRuns.start(spec, onEnd) : agents.start(spec, onEnd));
    }

    @Override
    public boolean attached(RunId id, RunRef ref) {
        return ref.engineId() != null && agents.following(id.key(), ref.engineId());
    }

    @Override
    public Optional<RunExit> exitOf(RunId id, RunRef ref, Runnable onEnd) throws IsolationException {
        if (ref.engineId() == null) {
            return Optional.of(new RunExit(null, "has no container on record"));
        }
        if (!remote) {
            return agents.exitOf(id.key(), ref.engineId(), id.log(), onEnd);
        }
        remoteRuns.load(id);
        Optional<RunExit> exit = agents.exitOf(id.key(), ref.engineId(), id.log(), () -> {
            try {
                remoteRuns.settle(id.key(), ref.engineId(), "its run ended");
            } finally {
                onEnd.run();
            }
        });
        if (exit.isPresent()) {
            remoteRuns.ended(id); // before the supervisor looks at the worktree
        } else {
            remoteRuns.running(id, ref.engineId());
        }
        return exit;
    }

    @Override
    public Optional<RunExit> inspect(RunRef ref) throws IsolationException {
        return agents.inspectExit(ref.engineId()).map(ContainerAgents::explain);
    }

    /** A container stays until it is removed. */
    @Override
    public Remains remains(RunRef ref) {
        return ref.engineId() != null ? Remains.TO_REMOVE : Remains.NONE;
    }

    @Override
    public void stop(String key, RunRef ref, Duration grace) throws IsolationException {
        if (ref.engineId() != null) {
            agents.remove(key, ref.engineId(), grace);
            if (remote) {
                // Once the container is gone: the copy is settled, and the volume outlives the container.
                remoteRuns.settle(key, ref.engineId(), "when it was stopped");
            }
        }
    }

    @Override
    public void syncWorkspace(String key) {
        if (remote) {
            remoteRuns.sync(key);
        }
    }

    @Override
    public void engineBack(java.util.Collection<String> ended) {
        if (remote) {
            remoteRuns.retryOwed(ended);
        }
    }

    @Override
    public void forget(String key) {
        agents.metrics().forget(key); // its figures leave the table and the charts
        if (remote) {
            remoteRuns.forget(key); // its channel closes and its volumes go
        }
    }

    /** Containers labelled with {@code labels}' one label besides {@code paddock.repo} (and that repository). */
    @Override
    public int endLeftovers(String marker, String markerPrefix, Map<String, String> labels, Duration grace)
            throws IsolationException {
        String repo = labels.get(DockerContainers.REPO_LABEL);
        Map.Entry<String, String> label = labels.entrySet().stream()
                .filter(e -> !e.getKey().equals(DockerContainers.REPO_LABEL))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no label to find leftover containers by"));
        return agents.removeLabelled(label.getKey(), label.getValue(), repo, grace);
    }

    @Override
    public List<LabelledContainer> labelledRuns(boolean connect) throws IsolationException {
        return connect || agents.connected() ? agents.labelled() : List.of();
    }

    /**
     * Runs the task in a new container; stopped at the timeout or on cancel, removed afterwards in every case. Its
     * log says how it ended (killed after the timeout, out of memory, the exit code).
     */
    @Override
    public RunEnd runToEnd(RunSpec spec, Duration timeout, Duration grace, BooleanSupplier cancelled, Started started)
            throws PaddockException {
        Path log = spec.id().log();
        try {
            PrivateFiles.append(log, "=== " + Instant.now() + " in " + spec.workdir() + ": " + spec.title() + "\n");
        } catch (IOException ex) {
            throw new IsolationException("Cannot write the log " + log + ": " + ex.getMessage(), ex);
        }
        ContainerRunEnd end;
        try {
            end = agents.runToEnd(spec, log, timeout, grace, cancelled, cid -> started.started(RunRef.engine(cid)));
        } catch (IsolationException ex) {
            HostRuntime.note(log, "=== " + ex.getMessage());
            throw ex;
        }
        String where = "container " + DockerContainers.shortId(end.containerId());
        if (end.timedOut()) {
            HostRuntime.note(
                    log, "=== killed after the timeout of " + timeout.toMillis() + " ms; " + where + " removed");
            return new RunEnd(null, true, false, end.elapsed(), false, where);
        }
        if (end.cancelled()) {
            return new RunEnd(null, false, true, end.elapsed(), false, where);
        }
        ContainerExit exit = end.exit();
        if (exit.code() == null) {
            return new RunEnd(null, false, false, end.elapsed(), true, where);
        }
        if (exit.killedForMemory()) {
            HostRuntime.note(log, "=== killed: " + exit.outOfMemoryText());
        } else if (exit.outOfMemory()) {
            HostRuntime.note(log, "=== " + exit.processKilledText().replace("sandbox", "test's container"));
        }
        HostRuntime.note(log, "=== exit code " + exit.code());
        return new RunEnd(exit.code().intValue(), false, false, end.elapsed(), false, where);
    }
}
