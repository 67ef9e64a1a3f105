package dev.paddock.sandbox;

import dev.paddock.common.PrivateFiles;
import dev.paddock.common.Processes;
import dev.paddock.worktree.GitRepository;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Starts a sandbox's agent: {@code /bin/sh -c <agent command>} in the worktree, as a host process
 * (tier {@code worktree}) or inside bubblewrap (tier {@code namespace}). Every agent runs under a small
 * wrapper in a session and process group of its own ({@code setsid}), with stdin closed, stdout and
 * stderr appended to its log file, and a scrubbed environment plus {@code PADDOCK_SANDBOX_ID},
 * {@code PADDOCK_API}, {@code PADDOCK_TOKEN} (this sandbox's alone), {@code PADDOCK_HOOK_KEY} (the key its
 * Claude Code hook signs requests with and checks the broker's answers by) and {@code PADDOCK_HEARTBEAT_FILE}.
 * The wrapper writes its own pid to the sandbox's pid file before anything else, and the agent's exit code
 * to its exit-code file at the end, so the supervisor finds a run and learns how it ended even when Paddock
 * was killed or restarted in between.
 */
public final class AgentLauncher {
    /** Variables kept from Paddock's own environment; everything else is scrubbed. */
    static final List<String> KEPT_ENV = List.of("PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LC_ALL",
            "LC_CTYPE", "TZ", "TMPDIR", "JAVA_HOME");
    /**
     * The wrapper: writes its pid to the file named second, runs its other arguments, then writes their exit
     * status to the file named first; both files atomically. POSIX sh; $1 = exit-code file, $2 = pid file, the
     * rest = what to run.
     */
    static final String WRAPPER = "f=$1; p=$2; shift 2; echo $$ > \"$p.tmp\" && mv -f \"$p.tmp\" \"$p\";"
            + " \"$@\"; code=$?; printf '%s\\n' \"$code\" > \"$f.tmp\" && mv -f \"$f.tmp\" \"$f\"; exit $code";

    private final String setsid;
    private final BubblewrapCommand bubblewrap;
    /** A sandbox's hook key by its id, once the API runs; null before (no key is given then). */
    private volatile Function<String, String> hookKeys;

    /**
     * @param setsid path of setsid(1), or null where there is none (macOS): the agent then shares
     *     Paddock's process group and is killed through its descendants only
     */
    public AgentLauncher(String setsid, BubblewrapCommand bubblewrap) {
        this.setsid = setsid;
        this.bubblewrap = bubblewrap;
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

    /** Finds setsid(1) on the usual paths. */
    public static String findSetsid() {
        for (String p : List.of("/usr/bin/setsid", "/bin/setsid", "/usr/local/bin/setsid")) {
            if (Files.isExecutable(Path.of(p))) {
                return p;
            }
        }
        return null;
    }

    /**
     * What a start needs besides the sandbox.
     *
     * @param token the run's token, for the agent's {@code PADDOCK_TOKEN} (nowhere else: not stored, not logged)
     * @param apiUrl base URL of Paddock's loopback API, e.g. {@code http://127.0.0.1:41234}
     * @param logFile where the agent's output is appended
     */
    public record Launch(SandboxRecord sandbox, SandboxLayout layout, GitRepository git, String token, String apiUrl,
                         Path logFile) {
        /** Without the token, which must never reach a log or a message. */
        @Override
        public String toString() {
            return "Launch[" + sandbox.id() + ", api " + apiUrl + ", log " + logFile + "]";
        }
    }

    /** A started agent: the wrapper's pid (= its process group) and its start time. */
    public record Started(long pid, Instant startedAt, Process process) {
    }

    /**
     * Starts the agent.
     *
     * @throws SandboxException when it cannot be started (no /bin/sh, bwrap missing, log not writable)
     */
    public Started start(Launch l) throws SandboxException {
        try {
            Files.createDirectories(l.layout().controlDir());
            AgentCommands.write(l.layout().binDir());
            Files.deleteIfExists(l.layout().exitCodeFile());
            Files.deleteIfExists(l.layout().agentPidFile());
            // A heartbeat file left by an earlier run must not count for this one (the supervisor takes any
            // file present once the run is recorded without a heartbeat).
            Files.deleteIfExists(l.layout().heartbeatFile());
            // Owner-only (600, its directory 700): an agent's output may show anything it read.
            PrivateFiles.append(l.logFile(), "=== " + Instant.now() + " run " + (l.sandbox().iteration() + 1) + " of "
                    + l.sandbox().id() + ": " + l.sandbox().agentCommand() + "\n");
            ProcessBuilder pb = new ProcessBuilder(command(l)).directory(l.layout().worktree().toFile())
                    .redirectInput(Processes.NO_INPUT).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(l.logFile().toFile()));
            pb.environment().clear();
            pb.environment().putAll(environment(l));
            Process p = pb.start();
            Instant startedAt = p.info().startInstant().orElse(Instant.now());
            return new Started(p.pid(), startedAt, p);
        } catch (IOException e) {
            throw new SandboxException("Cannot start the agent of " + l.sandbox().id() + ": " + e.getMessage(), e);
        }
    }

    /** The command line: [setsid] /bin/sh -c WRAPPER paddock-agent EXITFILE PIDFILE [bwrap ... --] /bin/sh -c CMD. */
    List<String> command(Launch l) throws IOException {
        List<String> agent = List.of("/bin/sh", "-c", l.sandbox().agentCommand());
        List<String> inner = switch (l.sandbox().tier()) {
            case WORKTREE -> agent;
            case NAMESPACE -> bubblewrap.command(l.layout().worktree(), l.git().commonDir(),
                    worktreeGitDir(l.layout().worktree()), l.layout().controlDir(), l.sandbox().networkGranted(),
                    agent);
            case CONTAINER -> throw new IOException("the container tier does not run through this launcher");
        };
        List<String> c = new ArrayList<>();
        if (setsid != null) {
            c.add(setsid);
        }
        c.addAll(List.of("/bin/sh", "-c", WRAPPER, "paddock-agent", l.layout().exitCodeFile().toString(),
                l.layout().agentPidFile().toString()));
        c.addAll(inner);
        return c;
    }

    /**
     * A run that a Paddock started after {@code since} but that the store does not know of (that Paddock was
     * killed between starting the agent and recording it), found through the wrapper's pid file.
     *
     * @param pid the wrapper's pid while it still runs, or null once the run ended (its exit-code file then says
     *     how, if the wrapper lived to write it)
     * @param startedAt when the wrapper started (from the OS while it runs, else when it wrote its pid file)
     */
    public record UnrecordedRun(Long pid, Instant startedAt) {
    }

    /**
     * Looks for an {@link UnrecordedRun} of a sandbox: a pid file written after {@code since}. A live process
     * counts only when its command line names this sandbox's exit-code file (a reused pid does not).
     */
    public Optional<UnrecordedRun> unrecordedRun(SandboxLayout layout, Instant since) {
        Path pidFile = layout.agentPidFile();
        try {
            Instant written = Files.getLastModifiedTime(pidFile).toInstant();
            if (since != null && !written.isAfter(since)) {
                return Optional.empty();
            }
            long pid = Long.parseLong(Files.readString(pidFile, StandardCharsets.UTF_8).strip());
            Optional<ProcessHandle> h = ProcessHandle.of(pid).filter(ProcessTree::isRunning);
            String exitFile = layout.exitCodeFile().toString();
            boolean ours = h.flatMap(x -> x.info().arguments()).map(a -> List.of(a).contains(exitFile)).orElse(false);
            if (ours) {
                return Optional.of(new UnrecordedRun(pid, h.get().info().startInstant().orElse(written)));
            }
            return Optional.of(new UnrecordedRun(null, written));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException | NumberFormatException e) {
            return Optional.of(new UnrecordedRun(null, null));
        }
    }

    /** The agent's environment: the kept variables of Paddock's own, and Paddock's. */
    Map<String, String> environment(Launch l) {
        Map<String, String> env = keptEnvironment();
        // Paddock's own commands for agents first: `paddock heartbeat` works in every tier (see AgentCommands).
        env.put("PATH", l.layout().binDir() + ":" + env.get("PATH"));
        env.putIfAbsent("LANG", "C.UTF-8");
        env.put("TERM", "dumb");
        env.put("PADDOCK_SANDBOX_ID", l.sandbox().id());
        env.put("PADDOCK_API", l.apiUrl());
        env.put("PADDOCK_TOKEN", l.token());
        Function<String, String> keys = hookKeys;
        if (keys != null) {
            env.put("PADDOCK_HOOK_KEY", keys.apply(l.sandbox().id()));
        }
        env.put("PADDOCK_HEARTBEAT_FILE", l.layout().heartbeatFile().toString());
        env.put("PADDOCK_WORKTREE", l.layout().worktree().toString());
        return env;
    }

    /**
     * The scrubbed base of an isolated run's environment: only the {@link #KEPT_ENV} variables of Paddock's own
     * environment, with a default PATH when it has none. A new mutable map, in that order.
     */
    public static Map<String, String> keptEnvironment() {
        Map<String, String> env = new LinkedHashMap<>();
        Map<String, String> own = System.getenv();
        for (String k : KEPT_ENV) {
            if (own.containsKey(k)) {
                env.put(k, own.get(k));
            }
        }
        env.putIfAbsent("PATH", "/usr/local/bin:/usr/bin:/bin");
        return env;
    }

    /** {@code <worktree>/.git} is a file naming the worktree's admin directory ("gitdir: ..."). */
    static Path worktreeGitDir(Path worktree) throws IOException {
        String line = Files.readString(worktree.resolve(".git"), StandardCharsets.UTF_8).strip();
        if (!line.startsWith("gitdir:")) {
            throw new IOException(worktree.resolve(".git") + " does not name a git directory");
        }
        Path dir = Path.of(line.substring("gitdir:".length()).strip());
        return dir.isAbsolute() ? dir : worktree.resolve(dir).normalize();
    }
}
