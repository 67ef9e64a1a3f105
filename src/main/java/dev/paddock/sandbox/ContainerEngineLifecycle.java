package dev.paddock.sandbox;

import dev.paddock.common.PaddockException;
import dev.paddock.container.DockerContainers;
import dev.paddock.container.EngineStatus;
import dev.paddock.container.EngineWatch;
import dev.paddock.events.EventDraft;
import dev.paddock.events.EventLog;
import dev.paddock.isolation.IsolationRuntime;
import dev.paddock.isolation.RunExit;
import dev.paddock.isolation.RunRef;
import dev.paddock.store.StoreException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What container sandboxes go through when the Docker engine goes away and comes back: while Docker is
 * unavailable the dashboard shows a clear state and the other tiers keep working (see
 * docs/decisions/0009-three-isolation-tiers.md).
 *
 * <p><b>Unknown is not a state.</b> While the engine does not answer, a container sandbox keeps the state its
 * record has (running, pending, retrying) and is <em>shown</em> as unknown: the status snapshot flags it
 * ({@code RepositoryStatus.Sandbox.engineUnreachable}), the supervisor decides nothing about it
 * ({@link IsolationRuntime#stateUnknown()}) except to take the heartbeats its agent writes to its heartbeat file
 * (on the host), and its lease is renewed when the engine is back. The same holds before the engine's first answer
 * after a start, so an engine lost at start and one lost later look alike. A stored state
 * "unknown" was rejected: it is a fact about the engine, not about each sandbox; it would need transitions in and
 * out of every live state that race with the supervisor's compare-and-sets, lose which state the sandbox was in
 * (a pending one must start, a running one must be watched), and leave stale records behind if Paddock stopped
 * during an outage. The record stays the truth of what Paddock last knew; the flag says it cannot be checked.
 *
 * <p>When the engine stops answering, each live container sandbox gets an event
 * ({@code sandbox.engine_unreachable}). When it answers again, each running container sandbox is compared with
 * its container (one {@code inspect} each) before the supervisor may act, so the reason recorded is the real one:
 * <ul>
 *   <li>the container is gone → failed, "container vanished while the engine was away";</li>
 *   <li>it exited → done or failed with its exit code ("exited with 143 while the engine was away"; out of memory
 *       says so);</li>
 *   <li>it runs → an event {@code sandbox.engine_back}, and its lease is renewed (its heartbeats could not be
 *       judged);</li>
 * </ul>
 * then the reconciler's pass runs, which reports labelled containers without a record as orphans
 * ({@code sandbox.orphan_container_found}); a pending or retrying sandbox adopts the container of its own run when
 * the supervisor starts it. Every change is a compare-and-set transition with its event. Runs on the engine
 * watch's thread ({@code docker-engine-watch}).
 */
public final class ContainerEngineLifecycle {
    private static final Logger LOG = LoggerFactory.getLogger(ContainerEngineLifecycle.class);
    /** The last error of a sandbox whose container was gone when the engine came back. */
    public static final String VANISHED = "container vanished while the engine was away";

    private final SandboxStore store;
    private final SandboxLifecycle lifecycle;
    private final IsolationRuntime containers;
    private final EventLog events;
    private final Clock clock;
    private final Runnable afterReconnect;
    private final String engine;

    /** What one reconciliation after an outage did, sandbox ids in the order met. */
    public record Outcome(List<String> vanished, List<String> exited, List<String> runningOn) {}

    /**
     * @param afterReconnect run after the running sandboxes were reconciled (the reconciler's pass and a
     *     supervisor tick)
     */
    public ContainerEngineLifecycle(
            SandboxStore store, IsolationRuntime containers, EventLog events, Clock clock, Runnable afterReconnect) {
        this(store, containers, events, clock, afterReconnect, null);
    }

    /**
     * The lifecycle of the sandboxes on one engine: an outage of {@code engine} concerns its sandboxes alone.
     *
     * @param engine the engine's name; null or {@code local} for the docker CLI's choice
     */
    public ContainerEngineLifecycle(
            SandboxStore store,
            IsolationRuntime containers,
            EventLog events,
            Clock clock,
            Runnable afterReconnect,
            String engine) {
        this.engine = dev.paddock.isolation.Engines.stored(engine).orElse(null);
        this.store = store;
        this.lifecycle = new SandboxLifecycle(store);
        this.containers = containers;
        this.events = events;
        this.clock = clock;
        this.afterReconnect = afterReconnect;
    }

    /**
     * Listens to {@code watch}: an outage and a return are handled as the class says, once the watch is started
     * (a CLI command's one-shot check changes nothing).
     */
    public void attach(EngineWatch watch) {
        watch.addListener((before, now) -> {
            if (watch.started()) {
                changed(before, now);
            }
        });
    }

    private void changed(EngineWatch.State before, EngineWatch.State now) {
        try {
            if (now.away() && !before.away()) {
                containers.holdWhileReconciling(true);
                engineLost(now.status());
            } else if (!now.away() && now.status().reachable() && before.away()) {
                engineBack();
            }
        } catch (PaddockException | RuntimeException e) {
            LOG.warn("Handling the Docker engine's {} failed: {}", now.away() ? "outage" : "return", e.toString());
        }
    }

    /** Records one event per live container sandbox: its state is unknown from now on. */
    void engineLost(EngineStatus status) throws StoreException {
        for (SandboxRecord s : liveContainerSandboxes()) {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("endpoint", status.endpoint());
            details.put("error", status.error());
            details.put("state", s.state().id());
            details.put("engine", engine == null ? dev.paddock.isolation.Engines.LOCAL : engine);
            events.append(EventDraft.of(
                    s.repositoryId(),
                    s.id(),
                    "sandbox.engine_unreachable",
                    s.id()
                            + ": the Docker engine " + (engine == null ? "" : engine + " ") + "at "
                            + status.endpointText() + " does not answer (" + status.error()
                            + "); its state is unknown (last known: "
                            + s.state().id() + ") until the engine is back."
                            + " Paddock keeps trying and neither fails nor stops it meanwhile.",
                    details));
        }
    }

    /**
     * Compares every running container sandbox with its container, then lets the supervisor act again. Runs
     * with the supervisor held, so its verdict cannot overtake this one.
     */
    public Outcome engineBack() throws PaddockException {
        containers.holdWhileReconciling(true);
        Outcome out = new Outcome(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        try {
            for (SandboxRecord s : liveContainerSandboxes()) {
                if (s.state() != SandboxState.RUNNING || s.runRef().engineId() == null) {
                    continue; // pending and retrying ones are started (or adopt their container) by the supervisor
                }
                try {
                    reconcile(s, out);
                } catch (PaddockException | RuntimeException e) {
                    LOG.warn("Reconciling {} after the engine came back failed: {}", s.id(), e.getMessage());
                }
            }
        } finally {
            containers.holdWhileReconciling(false);
        }
        List<String> ended = new ArrayList<>(out.vanished());
        ended.addAll(out.exited());
        containers.engineBack(ended); // work on a remote engine whose run ended comes back now
        if (!out.vanished().isEmpty()
                || !out.exited().isEmpty()
                || !out.runningOn().isEmpty()) {
            LOG.info(
                    "Docker engine back: vanished {}, exited {}, running on {}",
                    out.vanished(),
                    out.exited(),
                    out.runningOn());
        }
        afterReconnect.run();
        return out;
    }

    private void reconcile(SandboxRecord s, Outcome out) throws PaddockException {
        Optional<RunExit> exit = containers.inspect(RunRef.engine(s.runRef().engineId()));
        String shortId = DockerContainers.shortId(s.runRef().engineId());
        if (exit.isEmpty()) {
            store.renewLease(s.id(), clock.instant().plusMillis(s.lease().ms()));
            events.append(EventDraft.of(
                    s.repositoryId(),
                    s.id(),
                    "sandbox.engine_back",
                    s.id() + ": the Docker engine answers again and its container " + shortId
                            + " runs on; watched again",
                    Map.of("containerId", s.runRef().engineId())));
            out.runningOn().add(s.id());
            return;
        }
        RunExit e = exit.get();
        if (e.code() == null) {
            if (lifecycle.containerVanished(s, clock.instant())) {
                out.vanished().add(s.id());
            }
            return;
        }
        if (lifecycle.containerExitedWhileEngineAway(s, e, clock.instant())) {
            out.exited().add(s.id());
        }
    }

    /** What follows an outage's reconciliation: the reconciler's pass and a supervisor tick. */
    public void afterReconnect() {
        afterReconnect.run();
    }

    private List<SandboxRecord> liveContainerSandboxes() throws StoreException {
        return store.listLive().stream()
                .filter(s -> s.spec().tier() == Tier.CONTAINER
                        && java.util.Objects.equals(
                                dev.paddock.isolation.Engines.stored(s.spec().engine())
                                        .orElse(null),
                                engine)
                        && (s.state() == SandboxState.RUNNING
                                || s.state() == SandboxState.PENDING
                                || s.state() == SandboxState.RETRYING))
                .toList();
    }
}
