package dev.paddock.isolation.container;

import dev.paddock.container.ContainerException;
import dev.paddock.container.DockerContainers;
import dev.paddock.container.DockerEngine;
import dev.paddock.container.EngineEntry;
import dev.paddock.container.EngineRegistry;
import dev.paddock.container.EngineReport;
import dev.paddock.container.EngineWatch;
import dev.paddock.container.LabelledContainer;
import dev.paddock.container.ResourceLimits;
import dev.paddock.isolation.Engines;
import dev.paddock.isolation.IsolationException;
import dev.paddock.isolation.IsolationRuntime;
import dev.paddock.isolation.LabelledRuns;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The container tier on several Docker engines: the local one (the docker CLI's choice) and those of the home's
 * {@link EngineRegistry}, each with its own connection, {@link EngineWatch} and {@link ContainerRuntime}, made when
 * first needed (or all at once by {@link #watchAll}). The figures of every engine's containers go to the local
 * one's {@link ContainerAgents#metrics() board}. Placement ({@link #place}) asks each candidate engine for its
 * {@link dev.paddock.container.EngineLoad} when a sandbox is made.
 */
public final class ContainerEngines implements Engines, LabelledRuns, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ContainerEngines.class);

    /**
     * One registered engine's part of the container tier.
     *
     * @param entry the engine
     * @param runtime its runtime
     * @param watch its watch
     */
    public record Engine(EngineEntry entry, ContainerRuntime runtime, EngineWatch watch) {}

    private final EngineRegistry registry;
    private final ContainerRuntime local;
    private final Clock clock;
    private final String homeId;
    private final Map<String, Engine> engines = new ConcurrentHashMap<>();
    private final List<Consumer<Engine>> listeners = new CopyOnWriteArrayList<>();
    private volatile Duration watching;
    /** Every {@link #LOAD_EVERY}: each registered engine's health and load, one line each, for the panel. */
    private volatile List<String> lines = List.of();

    private final List<Consumer<List<String>>> lineListeners = new CopyOnWriteArrayList<>();
    private java.util.concurrent.ScheduledExecutorService loadTimer;

    /** How often the panel's lines of health and load are read again. */
    public static final Duration LOAD_EVERY = Duration.ofSeconds(15);

    /**
     * @param registry the home's engines
     * @param local the local engine's runtime (its watch is its owner's)
     * @param homeId labels every container made ({@link DockerContainers#HOME_LABEL}), or null
     */
    public ContainerEngines(EngineRegistry registry, ContainerRuntime local, Clock clock, String homeId) {
        this.registry = registry;
        this.local = local;
        this.clock = clock;
        this.homeId = homeId;
    }

    /** Tells {@code listener} of every registered engine's part as it is made (for its loss and return). */
    public void onEngine(Consumer<Engine> listener) {
        listeners.add(listener);
    }

    /**
     * Starts watching every registered engine (after {@code delay}), and each one made later at once: a panel or a
     * server does, a CLI command does not.
     */
    public synchronized void watchAll(Duration delay) {
        watching = delay;
        if (loadTimer == null) {
            loadTimer = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(
                    dev.paddock.common.Threads.daemon("engine-load"));
            loadTimer.scheduleWithFixedDelay(
                    this::readLines,
                    delay.toMillis(),
                    LOAD_EVERY.toMillis(),
                    java.util.concurrent.TimeUnit.MILLISECONDS);
        }
        engines.values().forEach(e -> startWatch(e, delay));
        for (EngineEntry e : registeredOrNone()) {
            engine(e.name());
        }
    }

    private void startWatch(Engine e, Duration delay) {
        if (!e.watch().started()) {
            e.watch().start(delay);
        }
    }

    /** The last lines of {@link #readLines()}: one per registered engine, none when only local is there. */
    public List<String> lines() {
        return lines;
    }

    /** Tells {@code listener} (on the {@code engine-load} thread) the lines each time they are read. */
    public void onLines(Consumer<List<String>> listener) {
        lineListeners.add(listener);
    }

    /**
     * Reads every registered engine's health and load now: an engine its watch finds away is not asked again (it
     * would cost its connect timeout); the others are asked for their {@link dev.paddock.container.EngineLoad}.
     */
    public List<String> readLines() {
        List<String> out = new ArrayList<>();
        try {
            for (EngineEntry en : registeredOrNone()) {
                Engine e = engine(en.name());
                EngineWatch.State st = e == null ? null : e.watch().state();
                if (st != null && st.away()) {
                    out.add(en.name() + ": DOWN since " + st.awaySince() + " ("
                            + st.status().error() + ")");
                } else {
                    out.add(EngineReport.of(en, clock).line());
                }
            }
        } catch (RuntimeException ex) {
            LOG.warn("Reading the engines' load failed: {}", ex.toString());
        }
        lines = List.copyOf(out);
        lineListeners.forEach(l -> l.accept(lines));
        return lines;
    }

    /** The registered engines' parts made so far. */
    public List<Engine> engines() {
        return List.copyOf(engines.values());
    }

    @Override
    public IsolationRuntime runtime(String name) {
        if (Engines.isLocal(name)) {
            return local;
        }
        Engine e = engine(name);
        return e == null
                ? new ContainerRuntime(ContainerAgents.missing("No Docker engine named " + name
                        + " is registered (paddock engine list); its sandboxes cannot be reached."))
                : e.runtime();
    }

    /** The part of the registered engine {@code name}, made now if needed; null when the registry has no such. */
    public synchronized Engine engine(String name) {
        Engine made = engines.get(name);
        if (made != null) {
            return made;
        }
        Optional<EngineEntry> entry;
        try {
            entry = registry.find(name);
        } catch (ContainerException ex) {
            LOG.warn("{}", ex.getMessage());
            return null;
        }
        if (entry.isEmpty() || entry.get().isLocal()) {
            return null;
        }
        EngineEntry en = entry.get();
        EngineWatch watch = new EngineWatch(() -> new DockerEngine(clock, en.endpoint()));
        ContainerAgents agents = new ContainerAgents(
                () -> new DockerContainers(new DockerEngine(clock, en.endpoint()), homeId),
                watch,
                local.agents().metrics());
        Engine e = new Engine(en, new ContainerRuntime(agents, en.isRemote()), watch);
        engines.put(name, e);
        listeners.forEach(l -> l.accept(e));
        Duration d = watching;
        if (d != null) {
            startWatch(e, d);
        }
        return e;
    }

    @Override
    public String place(String pinned, Map<String, String> labels, ResourceLimits limits) throws IsolationException {
        List<EngineEntry> all;
        try {
            if (pinned != null) {
                EngineEntry e = registry.require(pinned);
                return e.isLocal() ? null : e.name();
            }
            all = registry.all();
        } catch (ContainerException e) {
            throw new IsolationException(e.getMessage(), e);
        }
        if (all.size() == 1 && labels.isEmpty()) {
            return null; // local alone: nothing to choose, nothing to ask
        }
        List<EngineEntry> labelled =
                all.stream().filter(e -> e.hasLabels(labels)).toList();
        if (labelled.isEmpty()) {
            throw new IsolationException("No Docker engine has the labels " + labels + " (paddock engine list).");
        }
        List<EngineReport> reports = withPlaced(EngineReport.all(labelled, clock), placed, clock.instant());
        EngineReport best = best(reports, limits)
                .orElseThrow(() -> new IsolationException("No Docker engine"
                        + (labels.isEmpty() ? "" : " with the labels " + labels) + " answers: "
                        + String.join(
                                "; ", reports.stream().map(EngineReport::line).toList())));
        LOG.info(
                "Placing a sandbox of {} CPUs and {} MiB on {}; engines: {}",
                limits.nanoCpus() / (double) ResourceLimits.ONE_CPU,
                limits.memoryBytes() / ResourceLimits.MIB,
                best.entry().name(),
                reports.stream().map(EngineReport::line).toList());
        placed.add(new Placed(best.entry().name(), limits, clock.instant()));
        placed.removeIf(p -> p.at().isBefore(clock.instant().minus(PLACED_FOR)));
        return best.entry().isLocal() ? null : best.entry().name();
    }

    /** How long a placement counts against its engine before its container is running there (and counted). */
    static final Duration PLACED_FOR = Duration.ofSeconds(30);

    /** A sandbox placed on {@code engine} a moment ago, whose container may not run yet. */
    record Placed(String engine, ResourceLimits limits, java.time.Instant at) {}

    private final List<Placed> placed = new CopyOnWriteArrayList<>();

    /**
     * The reports with the limits of the sandboxes placed on each engine in the last {@link #PLACED_FOR} held as
     * well: a fan-out's sandboxes are placed one after the other before their containers start, and would all go to
     * the same engine otherwise. One whose container runs already is counted twice for that while (erring on the
     * side of an engine looking fuller).
     */
    static List<EngineReport> withPlaced(List<EngineReport> reports, List<Placed> placed, java.time.Instant now) {
        return reports.stream()
                .map(r -> {
                    if (r.load() == null) {
                        return r;
                    }
                    long cpu = 0;
                    long mem = 0;
                    for (Placed p : placed) {
                        if (p.engine().equals(r.entry().name()) && p.at().isAfter(now.minus(PLACED_FOR))) {
                            cpu += p.limits().nanoCpus();
                            mem += p.limits().memoryBytes();
                        }
                    }
                    var l = r.load();
                    return new EngineReport(
                            r.entry(),
                            r.status(),
                            new dev.paddock.container.EngineLoad(
                                    l.version(),
                                    l.cpus(),
                                    l.memoryBytes(),
                                    l.running(),
                                    l.heldNanoCpus() + cpu,
                                    l.heldMemoryBytes() + mem));
                })
                .toList();
    }

    /**
     * Among the engines that answer, the one with the most room after {@code limits}: room is the smaller of the
     * CPU and memory fractions left free; an engine where the limits fit comes before one where they do not (limits
     * are caps, not reservations, so a full engine still runs it, it is only the last choice).
     */
    static Optional<EngineReport> best(List<EngineReport> reports, ResourceLimits limits) {
        return reports.stream()
                .filter(EngineReport::healthy)
                .max(Comparator.comparing((EngineReport r) -> fits(r, limits))
                        .thenComparingDouble(r -> room(r, limits)));
    }

    static boolean fits(EngineReport r, ResourceLimits limits) {
        long[] after = r.load().freeAfter(limits);
        return after[0] >= 0 && after[1] >= 0;
    }

    static double room(EngineReport r, ResourceLimits limits) {
        long[] after = r.load().freeAfter(limits);
        double cpu = r.load().cpus() == 0 ? -1 : after[0] / (double) (r.load().cpus() * ResourceLimits.ONE_CPU);
        double mem =
                r.load().memoryBytes() == 0 ? -1 : after[1] / (double) r.load().memoryBytes();
        return Math.min(cpu, mem);
    }

    /** Every engine's containers under Paddock's label: the local one's, then each registered engine's. */
    @Override
    public List<LabelledContainer> labelledRuns(boolean connect) throws IsolationException {
        List<LabelledContainer> out = new ArrayList<>(local.labelledRuns(connect));
        if (connect) {
            registeredOrNone().forEach(e -> engine(e.name()));
        }
        for (Engine e : engines.values()) {
            if (e.runtime().agents().engineAway().isPresent()) {
                continue; // its containers are not known now
            }
            try {
                e.runtime()
                        .labelledRuns(connect)
                        .forEach(c -> out.add(c.on(e.entry().name())));
            } catch (IsolationException ex) {
                LOG.debug(
                        "Not looking at the containers of engine {}: {}",
                        e.entry().name(),
                        ex.getMessage());
            }
        }
        return out;
    }

    private List<EngineEntry> registeredOrNone() {
        try {
            return registry.all().stream().filter(e -> !e.isLocal()).toList();
        } catch (ContainerException e) {
            LOG.warn("{}", e.getMessage());
            return List.of();
        }
    }

    /** Stops watching the registered engines and following their containers (which run on). */
    @Override
    public void close() {
        synchronized (this) {
            if (loadTimer != null) {
                loadTimer.shutdownNow();
            }
        }
        for (Engine e : engines.values()) {
            e.runtime().agents().close();
            e.watch().close();
        }
        engines.clear();
    }
}
