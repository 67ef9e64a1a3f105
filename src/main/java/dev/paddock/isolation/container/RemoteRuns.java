package dev.paddock.isolation.container;

import dev.paddock.common.PaddockException;
import dev.paddock.container.ContainerException;
import dev.paddock.container.WorkspaceVolumes;
import dev.paddock.isolation.ApiRelays;
import dev.paddock.isolation.BrokerChannel;
import dev.paddock.isolation.IsolationException;
import dev.paddock.isolation.RunId;
import dev.paddock.isolation.RunSpec;
import dev.paddock.isolation.host.HostRuntime;
import dev.paddock.worktree.GitCli;
import dev.paddock.worktree.WorkspaceRefused;
import dev.paddock.worktree.WorkspaceReturn;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The runs of a {@link ContainerRuntime} whose engine shares no disk with Paddock: the workspace is delivered into a
 * volume before the container is made ({@link RemoteWorkspace}), the hook programs into another
 * ({@link RemoteBroker#installPrograms}), the container is made with no bind mount ({@link RemotePlan}), and once it
 * runs its broker channel is opened (again at the supervisor's look when it closed and the container runs on). The
 * workspace is brought back when the run ends, when it is stopped (once its container is gone, so the copy is
 * settled) and before a checkpoint; its volumes go with the sandbox ({@link #forget}). A diverged history or a
 * refused copy is a line in the sandbox's log and Paddock's, never an error: the remote commits stay on
 * {@link WorkspaceReturn#REF_PREFIX}{@code <sandbox id>}.
 *
 * <p>What a bring-back needs (the worktree, its branch, the image, the log) is kept in the control directory
 * ({@value #STATE_FILE}), so a restarted Paddock brings back a run it finds there.
 */
final class RemoteRuns {
    private static final Logger LOG = LoggerFactory.getLogger(RemoteRuns.class);
    /** The file in a sandbox's control directory saying where its remote workspace comes back to. */
    static final String STATE_FILE = "remote-workspace.properties";
    /** The shortest time between two tries to open a closed channel. */
    private static final long CHANNEL_RETRY_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(5);

    /** Where a sandbox's workspace comes back to. */
    private record State(Path worktree, String branch, String image, Path log, Path controlDir) {}

    private final ContainerAgents agents;
    private final GitCli git;
    private final Supplier<ApiRelays> relays;
    private final Map<String, State> states = new ConcurrentHashMap<>();
    private final Map<String, BrokerChannel> channels = new ConcurrentHashMap<>();
    private final Map<String, Long> channelTries = new ConcurrentHashMap<>();
    /** The container whose end was brought back last, by sandbox: its workspace changes no more. */
    private final Map<String, String> settled = new ConcurrentHashMap<>();

    /** The sandboxes whose run ended and whose workspace could not be brought back since. */
    private final java.util.Set<String> owed = ConcurrentHashMap.newKeySet();

    private final Map<String, Object> locks = new ConcurrentHashMap<>();

    RemoteRuns(ContainerAgents agents, GitCli git, Supplier<ApiRelays> relays) {
        this.agents = agents;
        this.git = git;
        this.relays = relays;
    }

    /** The volume of a sandbox's workspace: {@code paddock-ws-<id>}, with the home's id when it has one. */
    String workspaceVolume(String key) throws IsolationException {
        return "paddock-ws-" + key + homeSuffix();
    }

    /** The volume of a sandbox's hook programs and relay. */
    String programsVolume(String key) throws IsolationException {
        return "paddock-bin-" + key + homeSuffix();
    }

    private String homeSuffix() throws IsolationException {
        String home = agents.docker().homeId();
        return home == null ? "" : "-" + home.substring(0, Math.min(8, home.length()));
    }

    private WorkspaceVolumes volumes() throws IsolationException {
        return new WorkspaceVolumes(agents.docker().engine());
    }

    private RemoteWorkspace workspace() throws IsolationException {
        return new RemoteWorkspace(
                volumes(), git, RemoteWorkspace.DEFAULT_MAX_BYTES, RemoteWorkspace.DEFAULT_MAX_ENTRIES);
    }

    /**
     * Starts an agent's run: its workspace delivered (a volume an earlier run left is brought back first, then
     * replaced), its programs installed, its container made and started, its channel opened.
     *
     * @return the container's id
     */
    String start(RunSpec spec, Runnable onEnd) throws IsolationException {
        String key = spec.id().key();
        synchronized (lock(key)) {
            try {
                String branch = git.runOk(spec.workdir(), "symbolic-ref", "--short", "HEAD")
                        .strip();
                State st = new State(
                        spec.workdir(),
                        branch,
                        spec.image(),
                        spec.id().log(),
                        spec.id().controlDir());
                save(spec.id(), st);
                states.put(key, st);
                settled.remove(key);
                String ws = workspaceVolume(key);
                WorkspaceVolumes volumes = volumes();
                if (volumes.exists(ws)) {
                    if (!bringBack(key, st, "before a new run")) {
                        throw new IsolationException("The workspace of " + key + " on its remote engine holds an"
                                + " earlier run's work that could not be brought back; it stays there (see the"
                                + " sandbox's log).");
                    }
                    volumes.remove(ws);
                }
                owed(key, st, null);
                Map<String, String> labels = new LinkedHashMap<>(spec.id().labels());
                labels.remove("paddock.run"); // the volumes outlive a run
                RemoteWorkspace.Delivered d = workspace()
                        .deliver(
                                ws,
                                spec.image(),
                                spec.workdir(),
                                branch,
                                RemotePlan.AGENT_UID,
                                RemotePlan.AGENT_GID,
                                labels);
                HostRuntime.note(
                        spec.id().log(),
                        "=== workspace delivered to the volume " + ws + ": " + d.files() + " files, " + d.tarBytes()
                                + " bytes, in " + d.took().toMillis() + " ms");
                String bin = null;
                if (spec.api() != null) {
                    bin = programsVolume(key);
                    RemoteBroker.installPrograms(
                            volumes, bin, spec.image(), spec.api().programs(), labels);
                }
                String id = agents.startSpec(spec, RemotePlan.spec(spec, ws, bin), ended(key, onEnd));
                if (spec.api() != null) {
                    openChannel(key, id);
                }
                return id;
            } catch (ContainerException | IOException e) {
                throw new IsolationException(
                        "Cannot start the agent of " + key + " on its remote engine: " + e.getMessage(), e);
            } catch (IsolationException e) {
                throw e;
            } catch (PaddockException e) {
                throw new IsolationException(
                        "Cannot deliver the workspace of " + key + " to its remote engine: " + e.getMessage(), e);
            }
        }
    }

    /** {@code onEnd}, after the workspace was brought back. */
    private Runnable ended(String key, Runnable onEnd) {
        return () -> {
            try {
                settle(key, null, "its run ended");
            } finally {
                onEnd.run();
            }
        };
    }

    /** The run of {@code key} in {@code containerId} runs: its channel is opened again if it closed. */
    void running(RunId id, String containerId) {
        load(id);
        BrokerChannel c = channels.get(id.key());
        if (c != null && c.isOpen()) {
            return;
        }
        if (relays.get() == null) {
            return;
        }
        long now = System.nanoTime();
        Long last = channelTries.get(id.key());
        if (last != null && now - last < CHANNEL_RETRY_NANOS) {
            return;
        }
        openChannel(id.key(), containerId);
    }

    private void openChannel(String key, String containerId) {
        ApiRelays r = relays.get();
        if (r == null) {
            return;
        }
        channelTries.put(key, System.nanoTime());
        try {
            BrokerChannel c = RemoteBroker.open(agents.docker().engine(), containerId, key, r);
            BrokerChannel old = channels.put(key, c);
            if (old != null) {
                old.close();
            }
        } catch (ContainerException | IsolationException e) {
            LOG.warn("{} Its hook denies every call until it opens.", e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The run of {@code id} ended (seen at a look): its workspace is brought back unless it was already. */
    void ended(RunId id) {
        load(id);
        settle(id.key(), null, "its run ended");
    }

    /** Brings the workspace back once for the end of a run (not again for the same end). */
    void settle(String key, String containerId, String why) {
        synchronized (lock(key)) {
            closeChannel(key);
            State st = states.get(key);
            if (st == null || settled.containsKey(key)) {
                return;
            }
            if (bringBack(key, st, why)) {
                settled.put(key, containerId == null ? "" : containerId);
                owed(key, st, null);
            } else {
                owed(key, st, why);
            }
        }
    }

    /**
     * The engine answers again: every end whose bring-back failed (the engine went away meanwhile) is brought back
     * now, and a run's end seen meanwhile too ({@code ended} keys).
     */
    void retryOwed(java.util.Collection<String> ended) {
        ended.stream()
                .filter(k -> states.containsKey(k) && !settled.containsKey(k))
                .forEach(owed::add);
        for (String key : java.util.List.copyOf(owed)) {
            settle(key, null, "once its engine answered again");
        }
    }

    /** Records (why non-null) or clears that the workspace of {@code key} holds work not brought back. */
    private void owed(String key, State st, String why) {
        if (why == null) {
            owed.remove(key);
        } else {
            owed.add(key);
        }
        owedFile(st, why);
    }

    /** Writes (why non-null) or removes the control directory's {@link RunId#WORKSPACE_OWED}. */
    private static void owedFile(State st, String why) {
        if (st.controlDir() == null) {
            return;
        }
        Path f = st.controlDir().resolve(RunId.WORKSPACE_OWED);
        try {
            if (why == null) {
                Files.deleteIfExists(f);
            } else {
                Files.createDirectories(st.controlDir());
                Files.writeString(
                        f,
                        "The workspace on the remote engine could not be brought back (" + why + "); it is tried"
                                + " again when the engine answers.\n");
            }
        } catch (IOException e) {
            LOG.warn("Cannot write {}: {}", f, e.toString());
        }
    }

    /** Brings the workspace back now (before a checkpoint) unless the run ended and it came back since. */
    void sync(String key) {
        synchronized (lock(key)) {
            State st = states.get(key);
            if (st == null || settled.containsKey(key)) {
                return;
            }
            if (bringBack(key, st, "before a checkpoint or a removal")) {
                if (owed.remove(key)) { // its run ended: the copy is settled
                    settled.put(key, "");
                }
                owedFile(st, null);
            } else {
                // A removal waits for it; the end of a run still running is brought back as usual.
                owedFile(st, "before a checkpoint or a removal");
            }
        }
    }

    /** Whether the workspace came back (or was looked at and refused: nothing more to try). */
    private boolean bringBack(String key, State st, String why) {
        long t0 = System.nanoTime();
        try {
            String ws = workspaceVolume(key);
            WorkspaceReturn.Outcome o = workspace().bringBack(ws, st.image(), st.worktree(), st.branch(), key);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            String line = o.diverged()
                    ? "the workspace on its remote engine was brought back (" + why + "), but its history diverged from"
                            + " the branch " + st.branch() + ": nothing local changed, its commits are kept on "
                            + o.ref()
                    : "the workspace on its remote engine was brought back (" + why + ") in " + ms + " ms"
                            + (o.moved() ? ": the branch " + st.branch() + " moved to " + o.remote() : "") + " ("
                            + o.written() + " files written, " + o.deleted() + " deleted)";
            if (o.diverged()) {
                LOG.warn("{}: {}", key, line);
            } else {
                LOG.info("{}: {}", key, line);
            }
            HostRuntime.note(st.log(), "=== " + line);
            return true;
        } catch (WorkspaceRefused e) {
            String line = "the workspace on its remote engine was not brought back (" + why + "): " + e.getMessage()
                    + "; nothing local changed";
            LOG.warn("{}: {}", key, line);
            HostRuntime.note(st.log(), "=== " + line);
            return true;
        } catch (PaddockException | IOException | RuntimeException e) {
            String line =
                    "the workspace on its remote engine could not be brought back (" + why + "): " + e.getMessage()
                            + "; it stays in the volume and is brought back when the engine answers again (a strict"
                            + " removal waits for it)";
            LOG.warn("{}: {}", key, line);
            HostRuntime.note(st.log(), "=== " + line);
            return false;
        }
    }

    /** The sandbox is removed: its channel closes and its volumes go. */
    void forget(String key) {
        synchronized (lock(key)) {
            closeChannel(key);
            states.remove(key);
            settled.remove(key);
            owed.remove(key);
            try {
                WorkspaceVolumes volumes = volumes();
                volumes.remove(workspaceVolume(key));
                volumes.remove(programsVolume(key));
            } catch (ContainerException | IsolationException e) {
                LOG.warn("The volumes of {} stay on its engine: {}", key, e.getMessage());
            }
        }
        locks.remove(key);
    }

    /** Whether a channel of {@code key} is open (tests). */
    boolean channelOpen(String key) {
        BrokerChannel c = channels.get(key);
        return c != null && c.isOpen();
    }

    private void closeChannel(String key) {
        BrokerChannel c = channels.remove(key);
        channelTries.remove(key);
        if (c != null) {
            c.close();
        }
    }

    private Object lock(String key) {
        return locks.computeIfAbsent(key, k -> new Object());
    }

    private static void save(RunId id, State st) throws IOException {
        if (id.controlDir() == null) {
            return;
        }
        Files.createDirectories(id.controlDir());
        Properties p = new Properties();
        p.setProperty("worktree", st.worktree().toString());
        p.setProperty("branch", st.branch());
        p.setProperty("image", st.image());
        try (OutputStream out = Files.newOutputStream(id.controlDir().resolve(STATE_FILE))) {
            p.store(out, "Where the workspace on a remote engine comes back to");
        }
    }

    /** What a Paddock that started the run before a restart knew of it, from its control directory. */
    void load(RunId id) {
        if (states.containsKey(id.key()) || id.controlDir() == null) {
            return;
        }
        Path f = id.controlDir().resolve(STATE_FILE);
        if (!Files.isRegularFile(f)) {
            return;
        }
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(f)) {
            p.load(in);
            states.putIfAbsent(
                    id.key(),
                    new State(
                            Path.of(p.getProperty("worktree")),
                            p.getProperty("branch"),
                            p.getProperty("image"),
                            id.log(),
                            id.controlDir()));
            if (Files.isRegularFile(id.controlDir().resolve(RunId.WORKSPACE_OWED))) {
                owed.add(id.key());
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("Cannot read {}: {}", f, e.toString());
        }
    }

    /** Closes every channel (the containers run on). */
    void close() {
        channels.keySet().forEach(this::closeChannel);
    }
}
