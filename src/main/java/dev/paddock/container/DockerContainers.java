package dev.paddock.container;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.CreateContainerResponse;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.exception.NotModifiedException;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Mount;
import com.github.dockerjava.api.model.MountType;
import com.github.dockerjava.api.model.Ulimit;
import dev.paddock.common.PaddockException;
import dev.paddock.common.Threads;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs, follows, stops and lists Paddock's containers on one Docker engine (see
 * docs/decisions/0009-three-isolation-tiers.md). Every container gets, beyond its {@link ContainerSpec}: a
 * read-only root file system with a tmpfs {@code /tmp} (mode 1777), docker's init as PID 1 (so a stop's SIGTERM
 * reaches the agent and zombies are reaped), all capabilities dropped and {@code no-new-privileges}. Nothing is
 * ever pulled.
 *
 * <p>Errors are {@link ContainerException}s whose message says what to do: the engine does not answer, the
 * image is not on the engine, the engine refused the container. A container that was created but could not
 * be started is removed again: a failed {@link #run} leaves nothing behind.
 */
public final class DockerContainers implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DockerContainers.class);
    /** The label naming the sandbox a container belongs to. */
    public static final String SANDBOX_LABEL = "paddock.sandbox";
    /**
     * The label of a container that runs a merge queue entry's test ({@code paddock.merge=<entry id>}); such a
     * container carries no {@link #SANDBOX_LABEL}, so the sandbox supervisor and the orphan scan leave it alone.
     */
    public static final String MERGE_LABEL = "paddock.merge";
    /** The label naming the repository (its main worktree's path) a container belongs to. */
    public static final String REPO_LABEL = "paddock.repo";
    /**
     * The label naming the Paddock home that made a container ({@code paddock.home=<home id>}): several Paddocks
     * (homes) may share one engine, and each looks after its own containers only.
     */
    public static final String HOME_LABEL = "paddock.home";
    /** Size of the tmpfs {@code /tmp}, in bytes (it also counts against the memory limit). */
    static final long TMP_BYTES = 512L * ResourceLimits.MIB;

    private final DockerEngine engine;
    private final String homeId;
    private final ScheduledExecutorService watcher;

    /** Containers of no particular home: none is labelled with one, and every labelled one is listed. */
    public DockerContainers(DockerEngine engine) {
        this(engine, null);
    }

    /**
     * @param engine the engine to use; closed by {@link #close()}
     * @param homeId labels every container this makes ({@link #HOME_LABEL}); containers labelled with another home
     *     are never listed or removed. Null: no home (tests).
     */
    public DockerContainers(DockerEngine engine, String homeId) {
        this.engine = engine;
        this.homeId = homeId;
        this.watcher = Executors.newSingleThreadScheduledExecutor(Threads.numbered("container-watch"));
    }

    /** The engine's address, for messages. */
    public String endpoint() {
        return engine.endpoint();
    }

    /** Why containers cannot run now (the engine does not answer), or empty when they can. */
    public Optional<String> unavailable() {
        EngineStatus s = engine.check();
        return s.reachable()
                ? Optional.empty()
                : Optional.of("the Docker engine at " + s.endpoint() + " does not answer (" + s.error() + ").");
    }

    /**
     * Why {@code image} cannot be used, or empty when the engine has it. Paddock never pulls: a missing image
     * must be built or pulled by a person first.
     */
    public Optional<String> imageProblem(String image) {
        if (image == null || image.isBlank()) {
            return Optional.of("no container image is set: set one for the repository, or give one for the sandbox"
                    + " (--image).");
        }
        try {
            engine.client().inspectImageCmd(image).exec();
            return Optional.empty();
        } catch (NotFoundException e) {
            return Optional.of("the image " + image + " is not on the Docker engine at " + endpoint()
                    + "; Paddock pulls nothing: pull or build it first (docker pull " + image + ").");
        } catch (ContainerException | RuntimeException e) {
            return Optional.of("the Docker engine at " + endpoint() + " cannot be asked about " + image + ": "
                    + DockerEngine.describe(e));
        }
    }

    /**
     * Creates and starts a container.
     *
     * @return the container's full id
     * @throws ContainerException when the engine does not answer, the image is missing, a container with that
     *     name exists, or the engine refuses the container (e.g. a mount source is missing); nothing is left
     */
    public String run(ContainerSpec spec) throws ContainerException {
        DockerClient c = engine.client();
        String id;
        try {
            CreateContainerResponse created = c.createContainerCmd(spec.image())
                    .withName(engineName(spec))
                    .withEntrypoint(spec.command())
                    .withCmd(List.of())
                    .withEnv(spec.env().entrySet().stream()
                            .map(e -> e.getKey() + "=" + e.getValue())
                            .toList())
                    .withWorkingDir(spec.workingDir())
                    .withUser(spec.user())
                    .withLabels(labels(spec))
                    .withHostConfig(hostConfig(spec))
                    .exec();
            id = created.getId();
        } catch (NotFoundException e) {
            throw new ContainerException(
                    "The image " + spec.image() + " is not on the Docker engine at " + endpoint()
                            + "; Paddock pulls nothing: pull or build it first.",
                    e);
        } catch (ConflictException e) {
            throw new ContainerException(
                    "A container named " + engineName(spec) + " exists already on the engine: "
                            + DockerEngine.describe(e),
                    e);
        } catch (RuntimeException e) {
            throw failure("create a container from " + spec.image(), e);
        }
        try {
            c.startContainerCmd(id).exec();
            return id;
        } catch (RuntimeException e) {
            removeQuietly(id);
            throw failure("start the container " + shortId(id), e);
        }
    }

    /**
     * The container's name on the engine: the run's name and, for a labelled home, the start of its id. Two Paddock
     * homes on one engine name sandboxes alike (ids are made of the task's words and the day), and a name is unique
     * on an engine.
     */
    String engineName(ContainerSpec spec) {
        return homeId == null ? spec.name() : spec.name() + "-" + homeId.substring(0, Math.min(8, homeId.length()));
    }

    private Map<String, String> labels(ContainerSpec spec) {
        if (homeId == null) {
            return spec.labels();
        }
        Map<String, String> labels = new java.util.LinkedHashMap<>(spec.labels());
        labels.put(HOME_LABEL, homeId);
        return labels;
    }

    /** The engine this works on (volumes and execs go through it too). */
    public DockerEngine engine() {
        return engine;
    }

    /** The home this labels its containers with, or null. */
    public String homeId() {
        return homeId;
    }

    /** Told the id of a container as soon as it was started (to record it, so a restart can remove it). */
    public interface Started {
        /** @throws PaddockException when it cannot be recorded: the run is then stopped and the container removed */
        void started(String containerId) throws PaddockException;
    }

    /**
     * Runs a container to its end: creates and starts it ({@link #run}), tells {@code started}, follows its output
     * (stdout and stderr, interleaved) into {@code logFile} (appended), and waits. Past {@code timeout}, or when
     * {@code cancelled} says so (polled every 100 ms) or the thread is interrupted, it is stopped (SIGTERM, SIGKILL
     * after {@code grace}). The container is removed afterwards in every case, also when this throws.
     *
     * @return how it ended
     * @throws ContainerException when the engine does not answer, the image is missing or the engine refuses the
     *     container (nothing is left), or when following it failed (the container is removed)
     * @throws PaddockException what {@code started} threw (the container is removed)
     */
    public ContainerRunEnd runToEnd(
            ContainerSpec spec,
            Path logFile,
            Duration timeout,
            Duration grace,
            java.util.function.BooleanSupplier cancelled,
            Started started)
            throws PaddockException {
        return ContainerRunToEnd.run(this, spec, logFile, timeout, grace, cancelled, started);
    }

    /**
     * Stops and removes every container (running or not) of this home ({@link #HOME_LABEL}) labelled
     * {@code label=value} and, unless null, {@link #REPO_LABEL}{@code =repository}.
     *
     * @return how many were removed
     * @throws ContainerException when the engine does not answer or refuses
     */
    public int removeLabelled(String label, String value, String repository, Duration grace) throws ContainerException {
        Map<String, String> filter = new java.util.LinkedHashMap<>();
        filter.put(label, value);
        if (repository != null) {
            filter.put(REPO_LABEL, repository);
        }
        if (homeId != null) {
            filter.put(HOME_LABEL, homeId);
        }
        List<Container> found;
        try {
            found = engine.client()
                    .listContainersCmd()
                    .withShowAll(true)
                    .withLabelFilter(filter)
                    .exec();
        } catch (RuntimeException e) {
            throw failure("list the containers labelled " + label + "=" + value, e);
        }
        for (Container c : found) {
            stopAndRemove(c.getId(), grace);
        }
        return found.size();
    }

    static HostConfig hostConfig(ContainerSpec spec) {
        // Structured mounts, not "host:target:ro" bind strings: a path with a colon or comma stays one path, and
        // a missing source is an error instead of an empty directory the engine creates.
        List<Mount> mounts = new ArrayList<>();
        Map<String, String> tmpfs = new java.util.LinkedHashMap<>();
        tmpfs.put("/tmp", "rw,nosuid,nodev,mode=1777,size=" + TMP_BYTES);
        for (ContainerSpec.Mount m : spec.mounts()) {
            switch (m.kind()) {
                case TMPFS -> tmpfs.put(m.target(), m.source());
                case VOLUME ->
                    mounts.add(new Mount()
                            .withType(MountType.VOLUME)
                            .withSource(m.source())
                            .withTarget(m.target())
                            .withReadOnly(m.readOnly()));
                default ->
                    mounts.add(new Mount()
                            .withType(MountType.BIND)
                            .withSource(m.host().toString())
                            .withTarget(m.target())
                            .withReadOnly(m.readOnly()));
            }
        }
        ResourceLimits l = spec.limits();
        return HostConfig.newHostConfig()
                .withMounts(mounts)
                .withNanoCPUs(l.nanoCpus())
                .withMemory(l.memoryBytes())
                .withMemorySwap(l.memoryBytes())
                .withPidsLimit(l.pids())
                .withUlimits(List.of(new Ulimit("nofile", l.nofile(), l.nofile())))
                .withNetworkMode(spec.network() ? "default" : "none")
                .withReadonlyRootfs(true)
                .withTmpFs(tmpfs)
                .withInit(true)
                .withCapDrop(Capability.ALL)
                .withSecurityOpts(List.of("no-new-privileges"));
    }

    /**
     * Follows a container's output (stdout and stderr, interleaved as written) into {@code logFile} and tells
     * {@code onExit} once how it ended. One stream per container; when it ends, one {@code inspect} tells
     * whether the container stopped (then {@code onExit}) or the stream merely broke (engine restart, network):
     * then it attaches again, with growing pauses while the engine is away, without writing a line twice.
     *
     * @param since write only output produced after this instant (a Paddock restarting takes the log file's
     *     last modification), or null for everything
     * @param onExit called once, on a docker-java or watcher thread
     * @return the follow; closing it stops following (the container runs on)
     */
    public ContainerFollow follow(String containerId, Path logFile, Instant since, Consumer<ContainerExit> onExit)
            throws ContainerException {
        ContainerFollow f =
                new ContainerFollow(engine.streamingClient(), this, watcher, containerId, logFile, since, onExit);
        f.attach();
        return f;
    }

    /**
     * Opens the stats stream of a running container (one stream, kept open; the engine sends a sample a second)
     * into {@code board}, under {@code sandboxId}. One {@code inspect} reads its CPU limit first.
     *
     * @return the stream; closing it ends the stream and shows the container stopped
     * @throws ContainerException when the engine does not answer or does not know the container
     */
    public ContainerStatsStream watchStats(String sandboxId, String containerId, ContainerMetricsBoard board)
            throws ContainerException {
        long nanoCpus;
        try {
            InspectContainerResponse r =
                    engine.client().inspectContainerCmd(containerId).exec();
            Long n = r.getHostConfig() == null ? null : r.getHostConfig().getNanoCPUs();
            nanoCpus = n == null ? 0 : n;
        } catch (RuntimeException e) {
            throw failure("inspect the container " + shortId(containerId), e);
        }
        ContainerStatsStream s = new ContainerStatsStream(board, engine.clock(), sandboxId, containerId, nanoCpus);
        try {
            s.open(engine.streamingClient());
        } catch (RuntimeException e) {
            throw failure("read the stats of the container " + shortId(containerId), e);
        }
        return s;
    }

    /**
     * How the container ended, or empty while it runs.
     *
     * @return {@link ContainerExit#vanished()} when the engine does not know it
     * @throws ContainerException when the engine does not answer
     */
    public Optional<ContainerExit> exitOf(String containerId) throws ContainerException {
        try {
            InspectContainerResponse r =
                    engine.client().inspectContainerCmd(containerId).exec();
            InspectContainerResponse.ContainerState s = r.getState();
            if (s != null && (Boolean.TRUE.equals(s.getRunning()) || "created".equals(s.getStatus()))) {
                return Optional.empty();
            }
            Long code = s == null ? null : s.getExitCodeLong();
            Long memory = r.getHostConfig() == null ? null : r.getHostConfig().getMemory();
            return Optional.of(new ContainerExit(code, s != null && Boolean.TRUE.equals(s.getOOMKilled()), memory));
        } catch (NotFoundException e) {
            return Optional.of(ContainerExit.vanished());
        } catch (RuntimeException e) {
            throw failure("inspect the container " + shortId(containerId), e);
        }
    }

    /**
     * Stops the container (SIGTERM to its init, which passes it on; SIGKILL after {@code grace}, rounded up to
     * whole seconds) and removes it with its anonymous volumes. Every process inside dies with it. A container
     * that is gone already is fine.
     *
     * @throws ContainerException when the engine does not answer or refuses
     */
    public void stopAndRemove(String containerId, Duration grace) throws ContainerException {
        DockerClient c = engine.client();
        int seconds = (int) Math.max(1, (grace.toMillis() + 999) / 1000);
        try {
            c.stopContainerCmd(containerId).withTimeout(seconds).exec();
        } catch (NotFoundException e) {
            return;
        } catch (NotModifiedException e) {
            // stopped already
        } catch (RuntimeException e) {
            throw failure("stop the container " + shortId(containerId), e);
        }
        try {
            c.removeContainerCmd(containerId)
                    .withForce(true)
                    .withRemoveVolumes(true)
                    .exec();
        } catch (NotFoundException e) {
            // removed meanwhile
        } catch (ConflictException e) {
            if (!DockerEngine.describe(e).contains("already in progress")) {
                throw failure("remove the container " + shortId(containerId), e);
            }
        } catch (RuntimeException e) {
            throw failure("remove the container " + shortId(containerId), e);
        }
    }

    /**
     * Every container (running or not) that carries {@link #SANDBOX_LABEL}, oldest first: this home's and those
     * labelled with no home (made by a Paddock from before {@link #HOME_LABEL}); another home's are left out.
     *
     * @throws ContainerException when the engine does not answer
     */
    public List<LabelledContainer> labelled() throws ContainerException {
        return labelled(null);
    }

    /**
     * The containers labelled {@code paddock.sandbox=<sandboxId>} (running or not), oldest first; every
     * labelled container when {@code sandboxId} is null. Another home's are left out (see {@link #labelled()}).
     *
     * @throws ContainerException when the engine does not answer
     */
    public List<LabelledContainer> labelled(String sandboxId) throws ContainerException {
        try {
            var cmd = engine.client().listContainersCmd().withShowAll(true);
            List<Container> found = (sandboxId == null
                            ? cmd.withLabelFilter(List.of(SANDBOX_LABEL))
                            : cmd.withLabelFilter(Map.of(SANDBOX_LABEL, sandboxId)))
                    .exec();
            List<LabelledContainer> out = new ArrayList<>();
            for (Container c : found) {
                Map<String, String> labels = c.getLabels() == null ? Map.of() : Map.copyOf(c.getLabels());
                String home = labels.get(HOME_LABEL);
                if (homeId != null && home != null && !home.equals(homeId)) {
                    continue; // another Paddock's
                }
                String name = c.getNames() == null || c.getNames().length == 0
                        ? null
                        : c.getNames()[0].startsWith("/") ? c.getNames()[0].substring(1) : c.getNames()[0];
                out.add(new LabelledContainer(
                        c.getId(),
                        labels.get(SANDBOX_LABEL),
                        labels.get(REPO_LABEL),
                        c.getState(),
                        c.getCreated() == null ? Instant.EPOCH : Instant.ofEpochSecond(c.getCreated()),
                        labels,
                        name));
            }
            out.sort(java.util.Comparator.comparing(LabelledContainer::createdAt));
            return out;
        } catch (RuntimeException e) {
            throw failure("list Paddock's containers", e);
        }
    }

    private void removeQuietly(String id) {
        try {
            engine.client()
                    .removeContainerCmd(id)
                    .withForce(true)
                    .withRemoveVolumes(true)
                    .exec();
        } catch (ContainerException | RuntimeException e) {
            LOG.warn("Could not remove the container {} that failed to start: {}", shortId(id), e.toString());
        }
    }

    /** A docker-java failure as a message for people: what Paddock tried, where, and the engine's reason. */
    ContainerException failure(String what, RuntimeException e) {
        String why = DockerEngine.describe(e);
        if (!(e instanceof DockerException)) {
            return new ContainerException(
                    "Cannot " + what + ": the Docker engine at " + endpoint() + " does not answer (" + why + ").", e);
        }
        return new ContainerException("Cannot " + what + " on the Docker engine at " + endpoint() + ": " + why, e);
    }

    /** The engine, for tests in this package that read raw samples. */
    DockerEngine engineForTests() {
        return engine;
    }

    /** The 12-character form docker shows. */
    public static String shortId(String id) {
        return id == null ? "" : id.substring(0, Math.min(12, id.length()));
    }

    /** Stops the watcher and closes the engine's clients. Containers run on. */
    @Override
    public void close() {
        watcher.shutdownNow();
        engine.close();
    }
}
