package dev.paddock.sandbox;

import dev.paddock.common.PaddockException;
import dev.paddock.container.DockerContainers;
import dev.paddock.container.ResourceLimits;
import dev.paddock.isolation.ApiRelays;
import dev.paddock.isolation.GitWrites;
import dev.paddock.isolation.IsolationException;
import dev.paddock.isolation.IsolationRuntime;
import dev.paddock.isolation.IsolationRuntimes;
import dev.paddock.isolation.RunId;
import dev.paddock.isolation.RunRef;
import dev.paddock.isolation.RunSpec;
import dev.paddock.isolation.SandboxApi;
import dev.paddock.worktree.GitRepository;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What a sandbox's agent run is, for the runtime of its tier ({@link Tier#runtimeIn}): {@code /bin/sh -c <agent
 * command>} in the worktree, Paddock's commands for agents ({@link AgentCommands}) in its control directory, and
 * {@code PADDOCK_SANDBOX_ID}, {@code PADDOCK_TOKEN} (this sandbox's alone), {@code PADDOCK_HEARTBEAT_FILE} and
 * {@code PADDOCK_WORKTREE} in its environment; on the host (host process and bubblewrap) also {@code PADDOCK_API}
 * and {@code PADDOCK_HOOK_KEY} (the key its Claude Code hook signs requests with and checks the broker's answers
 * by). A container has no route to the host's loopback and gets no {@code PADDOCK_API}. Namespace and container
 * agents reach the API through their sandbox's socket instead ({@link SandboxApi}: {@code PADDOCK_API_SOCKET},
 * {@code PADDOCK_HOOK_KEY}, the socket and the hook programs shown read-only); see
 * docs/decisions/0019-hook-channel-per-sandbox-socket.md. What the agent runs comes from its preset
 * ({@link AgentPrograms}): a {@code custom} agent's command line, or the preset's command line for the task with the
 * variables it takes from Paddock's environment.
 */
public final class AgentLauncher {
    /** The label that carries a run's number (a container's name carries it too: a retry makes a new one). */
    static final String RUN_LABEL = "paddock.run";

    private final IsolationRuntimes runtimes;
    /** A sandbox's hook key by its id, once the API runs; null before (no key is given then). */
    private volatile Function<String, String> hookKeys;

    private volatile AgentPrograms programs = AgentPrograms.CUSTOM_ONLY;
    /** The sandboxes' API sockets, once the API runs; null before (namespace and container agents get none). */
    private volatile ApiRelays relays;

    private volatile List<Path> hookPrograms = List.of();
    /** The repositories' shared layers, once wired; null before (namespace agents get none). */
    private volatile dev.paddock.layer.SharedLayers layers;
    /** Sandboxes whose socket could not be opened again (warned about once). */
    private final java.util.Set<String> socketFailures = java.util.concurrent.ConcurrentHashMap.newKeySet();

    public AgentLauncher(IsolationRuntimes runtimes) {
        this.runtimes = runtimes;
    }

    /**
     * Gives agents started from now on their sandbox's hook key ({@code PADDOCK_HOOK_KEY}): the key their
     * Claude Code hook proves itself with and checks the broker's answers by.
     *
     * @param keyOfSandbox sandbox id → its key (64 hex digits)
     */
    public void hookKeys(Function<String, String> keyOfSandbox) {
        this.hookKeys = keyOfSandbox;
    }

    /**
     * Gives namespace and container agents started from now on their sandbox's API socket and shows them
     * {@code programs} (the Claude Code hooks) read-only ({@link SandboxApi}).
     */
    public void sandboxApi(ApiRelays sockets, List<Path> programs) {
        this.hookPrograms = List.copyOf(programs);
        this.relays = sockets;
    }

    /**
     * Keeps the API sockets of these live sandboxes' agents open (opening those of running agents Paddock found
     * after a restart) and closes every other one.
     */
    public void keepSockets(List<SandboxRecord> live) {
        ApiRelays r = relays;
        if (r == null) {
            return;
        }
        java.util.Set<String> keep = new java.util.HashSet<>();
        for (SandboxRecord s : live) {
            if (!s.spec().tier().dialsSandboxSocket()
                    || !(s.state() == SandboxState.RUNNING
                            || s.state() == SandboxState.PENDING
                            || s.state() == SandboxState.RETRYING)) {
                continue;
            }
            keep.add(s.id());
            if (s.state() == SandboxState.RUNNING && !r.open().contains(s.id())) {
                try {
                    r.ensure(s.id());
                    socketFailures.remove(s.id());
                } catch (PaddockException e) {
                    if (socketFailures.add(s.id())) { // once, not at every tick
                        org.slf4j.LoggerFactory.getLogger(AgentLauncher.class)
                                .warn(
                                        "{} Its Claude Code hook denies" + " every call until it can be opened.",
                                        e.getMessage());
                    }
                }
            }
        }
        socketFailures.retainAll(keep);
        r.retain(keep);
    }

    /** Shows namespace agents started from now on their repository's shared layers. */
    public void sharedLayers(dev.paddock.layer.SharedLayers l) {
        this.layers = l;
    }

    /** Runs agents by these presets from now on (the default knows {@code custom} alone). */
    public void agentPrograms(AgentPrograms p) {
        this.programs = p;
    }

    /**
     * What run {@code iteration + 1} of the sandbox runs, after writing what its agent reads before it starts.
     *
     * @throws SandboxException when the agent's program is missing or its settings cannot be written
     */
    public AgentPrograms.Program prepare(Launch l) throws SandboxException {
        return programs.prepare(l.sandbox(), l.layout());
    }

    /**
     * What run {@code iteration + 1} runs when it resumes the agent's session with a person's follow-up prompt,
     * after writing what the agent reads before it starts.
     *
     * @throws SandboxException when the agent cannot take a follow-up, its program is missing or its settings cannot
     *     be written
     */
    public AgentPrograms.Program prepareFollowUp(Launch l, String text) throws SandboxException {
        return programs.prepareFollowUp(l.sandbox(), l.layout(), text);
    }

    /** Why the sandbox's agent cannot take a follow-up prompt, or empty when it can. */
    public java.util.Optional<String> followUpRefusal(SandboxRecord s) {
        return programs.followUpRefusal(s);
    }

    /** The session id the agent of {@code s} chose itself, from its log ({@link AgentPrograms#sessionOf}). */
    public java.util.Optional<String> sessionOf(SandboxRecord s, Path log) {
        return programs.sessionOf(s, log);
    }

    /** The turn's end that an agent's exit is ({@link AgentPrograms#exitTurn}), or empty. */
    public java.util.Optional<AgentSignal> exitTurn(SandboxRecord s, Integer exitCode) {
        return programs.exitTurn(s, exitCode);
    }

    /** The signal in an agent's turn hook input, or empty when there is none. */
    public java.util.Optional<AgentSignal> turnSignal(String payload) {
        return programs.turnSignal(payload);
    }

    /** The runtime of the sandbox's tier. */
    public IsolationRuntime runtimeOf(SandboxRecord s) {
        return s.spec().tier().runtimeIn(runtimes, s.spec().engine());
    }

    /**
     * What a start needs besides the sandbox.
     *
     * @param token the run's token, for the agent's {@code PADDOCK_TOKEN} (nowhere else: not stored, not logged)
     * @param apiUrl base URL of Paddock's loopback API, e.g. {@code http://127.0.0.1:41234}
     * @param logFile where the agent's output is appended
     */
    public record Launch(
            SandboxRecord sandbox, SandboxLayout layout, GitRepository git, String token, String apiUrl, Path logFile) {
        /** Without the token, which must never reach a log or a message. */
        @Override
        public String toString() {
            return "Launch[" + sandbox.id() + ", api " + apiUrl + ", log " + logFile + "]";
        }
    }

    /** Who run {@code iteration + 1} of the sandbox is: its name, labels, control directory and log. */
    public static RunId runId(SandboxRecord s, SandboxLayout layout, Path mainWorktree, Path logFile) {
        int run = s.run().iteration() + 1;
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(DockerContainers.SANDBOX_LABEL, s.id());
        labels.put(DockerContainers.REPO_LABEL, mainWorktree.toString());
        labels.put(RUN_LABEL, Integer.toString(run));
        return new RunId(s.id(), "paddock-" + s.id() + "-r" + run, labels, layout.controlDir(), logFile, null);
    }

    /** The run's description. */
    RunSpec spec(Launch l, AgentPrograms.Program program, Path socketDir) {
        return spec(l, program, socketDir, List.of());
    }

    /** The run's description with the shared layers it mounts. */
    RunSpec spec(
            Launch l, AgentPrograms.Program program, Path socketDir, List<dev.paddock.isolation.LayerMount> mounts) {
        SandboxRecord s = l.sandbox();
        Map<String, String> env = new LinkedHashMap<>(program.env());
        env.put("PADDOCK_SANDBOX_ID", s.id());
        env.put("PADDOCK_TOKEN", l.token());
        env.put("PADDOCK_HEARTBEAT_FILE", l.layout().heartbeatFile().toString());
        env.put("PADDOCK_WORKTREE", l.layout().worktree().toString());
        Map<String, String> hostEnv = new LinkedHashMap<>();
        hostEnv.put("PADDOCK_API", l.apiUrl());
        Function<String, String> keys = hookKeys;
        SandboxApi api = null;
        if (keys != null) {
            hostEnv.put("PADDOCK_HOOK_KEY", keys.apply(s.id()));
            if (socketDir != null) {
                // Inside a namespace or a container the hook reaches Paddock through its sandbox's socket alone.
                env.put("PADDOCK_HOOK_KEY", keys.apply(s.id()));
                env.put(SandboxApi.SOCKET_VARIABLE, SandboxApi.SOCKET);
                api = new SandboxApi(
                        socketDir,
                        hookPrograms.stream().filter(Files::isRegularFile).toList());
            }
        }
        ResourceLimits limits = java.util.Objects.requireNonNullElse(s.limits(), ResourceLimits.DEFAULTS);
        return new RunSpec(
                RunSpec.Kind.AGENT,
                runId(s, l.layout(), l.git().mainWorktree(), l.logFile()),
                l.layout().worktree(),
                program.command(),
                "run " + (s.run().iteration() + 1) + " of " + s.id(),
                GitWrites.COMMIT,
                env,
                hostEnv,
                limits,
                s.spec().networkGranted(),
                s.spec().image(),
                api,
                mounts);
    }

    /**
     * Starts the agent in the runtime of its tier, after writing Paddock's commands for agents into its control
     * directory and removing a heartbeat file an earlier run left (the supervisor takes any file present once the
     * run is recorded without a heartbeat).
     *
     * @param onEnd called (on another thread) when the run ends
     * @throws SandboxException when it cannot be started (no /bin/sh, bwrap missing, log not writable, the engine
     *     does not answer)
     */
    public RunRef start(Launch l, Runnable onEnd) throws SandboxException {
        return start(l, prepare(l), onEnd);
    }

    /** Starts the agent with a program {@link #prepare} gave. See {@link #start(Launch, Runnable)}. */
    public RunRef start(Launch l, AgentPrograms.Program program, Runnable onEnd) throws SandboxException {
        try {
            Files.createDirectories(l.layout().controlDir());
            AgentCommands.write(l.layout().binDir());
            Files.deleteIfExists(l.layout().heartbeatFile());
            // An earlier run's turn must not make this one "waiting for you".
            Files.deleteIfExists(l.layout().turnFile());
            ApiRelays r = relays;
            Path socketDir = r != null && l.sandbox().spec().tier().dialsSandboxSocket()
                    ? r.ensure(l.sandbox().id())
                    : null;
            dev.paddock.layer.SharedLayers shared = layers;
            List<dev.paddock.isolation.LayerMount> mounts =
                    shared == null || l.sandbox().spec().tier() != Tier.NAMESPACE
                            ? List.of()
                            : shared.mounts(
                                    l.sandbox().repositoryId(),
                                    l.layout().mainWorktree(),
                                    l.layout().sandboxDir(),
                                    l.layout().worktree());
            return runtimeOf(l.sandbox()).start(spec(l, program, socketDir, mounts), onEnd);
        } catch (IOException e) {
            throw new SandboxException(
                    "Cannot start the agent of " + l.sandbox().id() + ": " + e.getMessage(), e);
        } catch (IsolationException e) {
            throw new SandboxException(e.getMessage(), e);
        } catch (PaddockException e) {
            throw new SandboxException(
                    "Cannot start the agent of " + l.sandbox().id() + ": " + e.getMessage(), e);
        }
    }
}
