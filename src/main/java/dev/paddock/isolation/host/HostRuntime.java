package dev.paddock.isolation.host;

import dev.paddock.common.PaddockException;
import dev.paddock.common.PrivateFiles;
import dev.paddock.common.Processes;
import dev.paddock.isolation.IsolationException;
import dev.paddock.isolation.IsolationRuntime;
import dev.paddock.isolation.RunEnd;
import dev.paddock.isolation.RunExit;
import dev.paddock.isolation.RunId;
import dev.paddock.isolation.RunRef;
import dev.paddock.isolation.RunSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Runs as a host process (the worktree tier): {@code /bin/sh -c <command>} in the worktree, in a session and process
 * group of its own ({@code setsid}), stdin closed, stdout and stderr appended to its log, stopped as a whole process
 * tree ({@link ProcessTree}). Subclasses wrap the shell in more isolation (bubblewrap).
 *
 * <p>An agent runs under a small wrapper that writes its own pid to the run's pid file before anything else, and
 * the agent's exit code to its exit-code file at the end, so its run is found and its end known even when Paddock
 * was killed or restarted in between. Its environment is scrubbed ({@link #KEPT_ENV}). A task (a merge test) is
 * waited for; every process marked with its {@link RunId.Marker} is killed with it.
 */
public class HostRuntime implements IsolationRuntime {
    /** Variables kept from Paddock's own environment for an agent; everything else is scrubbed. */
    static final List<String> KEPT_ENV = List.of(
            "PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "JAVA_HOME");
    /**
     * The wrapper: writes its pid to the file named second, runs its other arguments, then writes their exit
     * status to the file named first; both files atomically. POSIX sh; $1 = exit-code file, $2 = pid file, the
     * rest = what to run.
     */
    static final String WRAPPER = "f=$1; p=$2; shift 2; echo $$ > \"$p.tmp\" && mv -f \"$p.tmp\" \"$p\";"
            + " \"$@\"; code=$?; printf '%s\\n' \"$code\" > \"$f.tmp\" && mv -f \"$f.tmp\" \"$f\"; exit $code";
    /** Git's variables that would point a task's git at another repository; a host task never inherits them. */
    private static final List<String> REDIRECTING_VARS =
            List.of("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_COMMON_DIR");

    private final String setsid;
    private final Map<String, Process> children = new ConcurrentHashMap<>();
    private final Map<String, ProcessTree.Watched> adopted = new ConcurrentHashMap<>();

    /**
     * @param setsid path of setsid(1), or null where there is none (macOS): runs then share Paddock's process group
     *     and are killed through their descendants only
     */
    public HostRuntime(String setsid) {
        this.setsid = setsid;
    }

    /** Finds setsid(1) on the usual paths; null when there is none. */
    public static String findSetsid() {
        for (String p : List.of("/usr/bin/setsid", "/bin/setsid", "/usr/local/bin/setsid")) {
            if (Files.isExecutable(Path.of(p))) {
                return p;
            }
        }
        return null;
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

    @Override
    public Optional<String> unavailable() {
        return Optional.empty();
    }

    /** What runs {@code argv} with this runtime's isolation; the host runs it as it is. */
    protected List<String> isolate(RunSpec spec, List<String> argv) throws IOException {
        if (!spec.layers().isEmpty()) {
            throw new IOException("shared layers need the namespace tier; a host process sees the real folders");
        }
        return argv;
    }

    /** A task's whole environment: Paddock's own without git's redirecting variables, and the task's. */
    protected Map<String, String> taskEnvironment(RunSpec spec) {
        Map<String, String> env = Processes.withoutPaddockSecrets(new LinkedHashMap<>(System.getenv()));
        REDIRECTING_VARS.forEach(env::remove);
        env.putAll(spec.env());
        return env;
    }

    /** An agent's environment: the kept variables of Paddock's own, the control directory's commands first. */
    Map<String, String> agentEnvironment(RunSpec spec) {
        Map<String, String> env = keptEnvironment();
        env.put("PATH", spec.id().controlDir().resolve("bin") + ":" + env.get("PATH"));
        env.putIfAbsent("LANG", "C.UTF-8");
        env.put("TERM", "dumb");
        env.putAll(spec.env());
        env.putAll(spec.hostEnv());
        return env;
    }

    /** The agent's command line: [setsid] /bin/sh -c WRAPPER paddock-agent EXITFILE PIDFILE [isolation] sh -c CMD. */
    List<String> agentCommand(RunSpec spec) throws IOException {
        List<String> c = new ArrayList<>();
        if (setsid != null) {
            c.add(setsid);
        }
        c.addAll(List.of(
                "/bin/sh",
                "-c",
                WRAPPER,
                "paddock-agent",
                spec.id().exitCodeFile().toString(),
                spec.id().pidFile().toString()));
        c.addAll(isolate(spec, List.of("/bin/sh", "-c", spec.command())));
        return c;
    }

    @Override
    public RunRef start(RunSpec spec, Runnable onEnd) throws IsolationException {
        RunId id = spec.id();
        try {
            Files.createDirectories(id.controlDir());
            Files.deleteIfExists(id.exitCodeFile());
            Files.deleteIfExists(id.pidFile());
            // Owner-only (600, its directory 700): an agent's output may show anything it read.
            PrivateFiles.append(id.log(), "=== " + Instant.now() + " " + spec.title() + ": " + spec.command() + "\n");
            ProcessBuilder pb = new ProcessBuilder(agentCommand(spec))
                    .directory(spec.workdir().toFile())
                    .redirectInput(Processes.NO_INPUT)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(id.log().toFile()));
            pb.environment().clear();
            pb.environment().putAll(agentEnvironment(spec));
            Process p = pb.start();
            Instant startedAt = p.info().startInstant().orElse(Instant.now());
            children.put(id.key(), p);
            p.onExit().thenRun(onEnd);
            return RunRef.process(p.pid(), startedAt);
        } catch (IOException e) {
            throw new IsolationException("Cannot start the agent of " + id.key() + ": " + e.getMessage(), e);
        }
    }

    /**
     * A run that a Paddock started after {@code since} but did not record, found through the wrapper's pid file. A
     * live process counts only when its command line names this run's exit-code file (a reused pid does not); one
     * that ended is found with no pid (its exit-code file says how it ended, if the wrapper lived to write it).
     */
    @Override
    public Optional<RunRef> unrecorded(RunId id, Instant since, Duration grace) {
        Path pidFile = id.pidFile();
        try {
            Instant written = Files.getLastModifiedTime(pidFile).toInstant();
            if (since != null && !written.isAfter(since)) {
                return Optional.empty();
            }
            long pid = Long.parseLong(
                    Files.readString(pidFile, StandardCharsets.UTF_8).strip());
            Optional<ProcessHandle> h = ProcessHandle.of(pid).filter(ProcessTree::isRunning);
            String exitFile = id.exitCodeFile().toString();
            boolean ours = h.flatMap(x -> x.info().arguments())
                    .map(a -> List.of(a).contains(exitFile))
                    .orElse(false);
            if (ours) {
                return Optional.of(
                        RunRef.process(pid, h.get().info().startInstant().orElse(written)));
            }
            return Optional.of(new RunRef(null, written, null));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException | NumberFormatException e) {
            return Optional.of(RunRef.NONE);
        }
    }

    @Override
    public boolean attached(RunId id, RunRef ref) {
        ProcessTree.Watched w = adopted.get(id.key());
        return children.containsKey(id.key()) || (w != null && ref.pid() != null && w.pid() == ref.pid());
    }

    /**
     * From the process handle when this Paddock started it, else (after a restart) from the pid and the exit-code
     * file. The identity of an adopted process (pid and start time) is checked once; the {@link ProcessTree.Watched}
     * kept then notices when the pid is reused, and asking it is one read of /proc per look.
     */
    @Override
    public Optional<RunExit> exitOf(RunId id, RunRef ref, Runnable onEnd) {
        Process p = children.get(id.key());
        Path exitFile = id.exitCodeFile();
        if (p != null) {
            if (p.isAlive()) {
                return Optional.empty();
            }
            children.remove(id.key(), p);
            return Optional.of(RunExit.fromFile(exitFile).orElseGet(() -> RunExit.of(p.exitValue())));
        }
        if (ref.pid() != null && adoptedAlive(id.key(), ref)) {
            return Optional.empty(); // adopted after a restart: still running
        }
        adopted.remove(id.key());
        return Optional.of(RunExit.fromFile(exitFile)
                .orElseGet(() ->
                        new RunExit(null, "ended while Paddock was not watching it, without leaving an exit code")));
    }

    private boolean adoptedAlive(String key, RunRef ref) {
        ProcessTree.Watched w = adopted.get(key);
        if (w == null || w.pid() != ref.pid()) {
            if (!ProcessTree.isAlive(ref.pid(), ref.startedAt())) {
                return false;
            }
            w = ProcessTree.Watched.of(ref.pid()).orElse(null);
            if (w == null) {
                return false;
            }
            adopted.put(key, w);
        }
        return w.running();
    }

    @Override
    public Optional<RunExit> inspect(RunRef ref) {
        return ref.pid() != null && ProcessTree.isAlive(ref.pid(), ref.startedAt())
                ? Optional.empty()
                : Optional.of(new RunExit(null, "is gone"));
    }

    @Override
    public Remains remains(RunRef ref) {
        return ref.pid() != null && ProcessTree.isAlive(ref.pid(), ref.startedAt()) ? Remains.ENDING : Remains.NONE;
    }

    @Override
    public void stop(String key, RunRef ref, Duration grace) {
        if (ref.pid() != null) {
            ProcessTree.kill(ref.pid(), grace);
        }
        children.remove(key);
        adopted.remove(key);
    }

    @Override
    public int endLeftovers(String marker, String markerPrefix, Map<String, String> labels, Duration grace) {
        return MarkedProcesses.kill(marker, markerPrefix, grace);
    }

    /**
     * Runs the task in a process group of its own and waits for it, at most {@code timeout}. Whatever way it ends,
     * every process still marked with the run's marker is killed with it (a child that left the group, a daemon it
     * started).
     */
    @Override
    public RunEnd runToEnd(RunSpec spec, Duration timeout, Duration grace, BooleanSupplier cancelled, Started started)
            throws PaddockException {
        RunId.Marker marker = spec.id().marker();
        try {
            return runMarked(spec, timeout, grace, cancelled, started);
        } finally {
            if (marker != null) {
                MarkedProcesses.kill(marker.name(), marker.value(), grace);
            }
        }
    }

    private RunEnd runMarked(RunSpec spec, Duration timeout, Duration grace, BooleanSupplier cancelled, Started started)
            throws PaddockException {
        Path dir = spec.workdir();
        Path log = spec.id().log();
        long t0 = System.nanoTime();
        Process p;
        try {
            List<String> cmd = new ArrayList<>();
            if (setsid != null) {
                cmd.add(setsid);
            }
            cmd.addAll(isolate(spec, List.of("/bin/sh", "-c", spec.command())));
            PrivateFiles.append(log, "=== " + Instant.now() + " in " + dir + ": " + spec.title() + "\n");
            ProcessBuilder pb = new ProcessBuilder(cmd)
                    .directory(dir.toFile())
                    .redirectInput(Processes.NO_INPUT)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            pb.environment().clear();
            pb.environment().putAll(taskEnvironment(spec));
            if (spec.id().marker() != null) {
                pb.environment()
                        .put(spec.id().marker().name(), spec.id().marker().value());
            }
            p = pb.start();
        } catch (IOException e) {
            throw new IsolationException(e.getMessage(), e);
        }
        try {
            started.started(RunRef.process(p.pid(), p.info().startInstant().orElse(Instant.now())));
        } catch (PaddockException | RuntimeException e) {
            ProcessTree.kill(p.pid(), grace);
            throw e;
        }
        long deadline = t0 + timeout.toNanos();
        try {
            while (p.isAlive()) {
                if (cancelled.getAsBoolean()) {
                    ProcessTree.kill(p.pid(), grace);
                    return RunEnd.cancelled(Duration.ofNanos(System.nanoTime() - t0));
                }
                if (System.nanoTime() >= deadline) {
                    ProcessTree.kill(p.pid(), grace);
                    note(log, "=== killed after the timeout of " + timeout.toMillis() + " ms");
                    return RunEnd.timedOut(Duration.ofNanos(System.nanoTime() - t0));
                }
                p.waitFor(
                        Math.min(100, Math.max(1, (deadline - System.nanoTime()) / 1_000_000)), TimeUnit.MILLISECONDS);
            }
            // The shell ended: anything it left behind in its group dies with it (kill(1) only when something
            // of the group still runs).
            if (ProcessTree.groupRuns(p.pid())) {
                ProcessTree.kill(p.pid(), Duration.ZERO);
            }
            int code = p.exitValue();
            note(log, "=== exit code " + code);
            return RunEnd.exited(code, Duration.ofNanos(System.nanoTime() - t0));
        } catch (InterruptedException e) {
            ProcessTree.kill(p.pid(), grace);
            Thread.currentThread().interrupt();
            return RunEnd.cancelled(Duration.ofNanos(System.nanoTime() - t0));
        }
    }

    /** Appends a line of Paddock's own to a run's log (a failure to write is ignored: the outcome is returned). */
    public static void note(Path log, String line) {
        try {
            PrivateFiles.append(log, line + "\n");
        } catch (IOException ignored) {
            // the log is a convenience; the outcome is returned
        }
    }
}
