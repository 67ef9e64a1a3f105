package dev.paddock.merge;

import dev.paddock.common.PrivateFiles;
import dev.paddock.common.Processes;
import dev.paddock.sandbox.AgentLauncher;
import dev.paddock.sandbox.MarkedProcesses;
import dev.paddock.sandbox.ProcessTree;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Runs a repository's test command ({@code /bin/sh -c}) in the candidate result, as the worktree tier runs an
 * agent: a host process in its own process group ({@code setsid}), output appended to a log file, killed as a
 * whole tree (SIGTERM, then SIGKILL after {@link #GRACE}) when it runs past its timeout or is cancelled.
 */
public final class TestRunner {
    /** Time between SIGTERM and SIGKILL when a test run is stopped. */
    static final Duration GRACE = Duration.ofSeconds(2);
    /**
     * The variable that marks every process of a test run ({@code <home id>:<entry id>:<nonce>}), set before the
     * command starts: a Paddock killed before it recorded the run's pid, or a process that left the run's group, is
     * still found by it ({@link MarkedProcesses}).
     */
    public static final String RUN_MARKER = "PADDOCK_MERGE_RUN";
    private static final List<String> REDIRECTING_VARS = List.of("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE",
            "GIT_OBJECT_DIRECTORY", "GIT_COMMON_DIR");

    private final String setsid;

    /** @param setsid path of setsid(1), or null (the test then shares Paddock's group; killed by descendants) */
    public TestRunner(String setsid) {
        this.setsid = setsid;
    }

    /** A runner with the machine's setsid. */
    public static TestRunner create() {
        return new TestRunner(AgentLauncher.findSetsid());
    }

    /** Called with the test's process as soon as it started (so it can be recorded and killed after a restart). */
    public interface Started {
        void started(long pid, Instant startedAt) throws dev.paddock.store.StoreException;
    }

    /**
     * How a test run ended.
     *
     * @param exitCode the command's exit code, null when killed
     * @param timedOut whether it ran past its timeout and was killed
     * @param cancelled whether it was stopped because the entry was cancelled
     * @param elapsed how long it ran
     */
    public record Outcome(Integer exitCode, boolean timedOut, boolean cancelled, Duration elapsed) {
        /** Whether the test passed (exit code 0). */
        public boolean passed() {
            return exitCode != null && exitCode == 0;
        }

        /** For people: "passed in 3 s", "failed with exit code 1", "killed after its timeout of 60 s". */
        public String describe(Duration timeout) {
            if (timedOut) {
                return "the test command ran past its timeout of " + timeout.toSeconds() + " s and was killed";
            }
            if (cancelled) {
                return "the test command was stopped: the entry was cancelled";
            }
            return passed() ? "the test command passed in " + elapsed.toMillis() + " ms"
                    : "the test command failed with exit code " + exitCode;
        }
    }

    /**
     * Runs {@code command} in {@code dir} and waits for it, at most {@code timeout}.
     *
     * @param marker the value of {@link #RUN_MARKER} in its environment (unique to the run)
     * @param log file the output is appended to (created with its folder)
     * @param cancelled polled every 100 ms; true stops the run
     * @throws MergeException when the command cannot be started
     */
    public Outcome run(Path dir, String command, String marker, Duration timeout, Path log, Started started,
                       BooleanSupplier cancelled) throws MergeException {
        return run(dir, List.of("/bin/sh", "-c", command), null, command, marker, timeout, log, started, cancelled);
    }

    /**
     * Runs {@code argv} (e.g. {@code bwrap ... -- /bin/sh -c <command>}) in {@code dir} in a process group of its
     * own, and waits for it, at most {@code timeout}; as {@link #run(Path, String, String, Duration, Path, Started,
     * BooleanSupplier)} otherwise. Whatever way it ends, every process still marked with {@code marker} is killed
     * with it (a child that left the group, a daemon it started).
     *
     * @param env the whole environment, or null for Paddock's own without git's redirecting variables
     * @param what the command as the log's first line names it
     * @throws MergeException when the command cannot be started
     */
    Outcome run(Path dir, List<String> argv, Map<String, String> env, String what, String marker, Duration timeout,
                Path log, Started started, BooleanSupplier cancelled) throws MergeException {
        try {
            return runMarked(dir, argv, env, what, marker, timeout, log, started, cancelled);
        } finally {
            MarkedProcesses.kill(RUN_MARKER, marker, GRACE);
        }
    }

    private Outcome runMarked(Path dir, List<String> argv, Map<String, String> env, String what, String marker,
                              Duration timeout, Path log, Started started, BooleanSupplier cancelled)
            throws MergeException {
        List<String> cmd = new ArrayList<>();
        if (setsid != null) {
            cmd.add(setsid);
        }
        cmd.addAll(argv);
        long t0 = System.nanoTime();
        Process p;
        try {
            PrivateFiles.append(log, "=== " + Instant.now() + " in " + dir + ": " + what + "\n");
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectInput(Processes.NO_INPUT)
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            if (env != null) {
                pb.environment().clear();
                pb.environment().putAll(env);
            } else {
                REDIRECTING_VARS.forEach(pb.environment()::remove);
                pb.environment().put("PADDOCK_MERGE_WORKTREE", dir.toString());
            }
            pb.environment().put(RUN_MARKER, marker);
            p = pb.start();
        } catch (IOException e) {
            throw new MergeException(MergeException.Kind.FAILED, "Cannot run the test command in " + dir + ": "
                    + e.getMessage(), e);
        }
        try {
            started.started(p.pid(), p.info().startInstant().orElse(Instant.now()));
        } catch (dev.paddock.store.StoreException e) {
            ProcessTree.kill(p.pid(), GRACE);
            throw new MergeException(MergeException.Kind.FAILED, "Cannot record the test run: " + e.getMessage(), e);
        }
        long deadline = t0 + timeout.toNanos();
        try {
            while (p.isAlive()) {
                if (cancelled.getAsBoolean()) {
                    ProcessTree.kill(p.pid(), GRACE);
                    return new Outcome(null, false, true, Duration.ofNanos(System.nanoTime() - t0));
                }
                if (System.nanoTime() >= deadline) {
                    ProcessTree.kill(p.pid(), GRACE);
                    note(log, "=== killed after the timeout of " + timeout.toMillis() + " ms");
                    return new Outcome(null, true, false, Duration.ofNanos(System.nanoTime() - t0));
                }
                p.waitFor(Math.min(100, Math.max(1, (deadline - System.nanoTime()) / 1_000_000)),
                        java.util.concurrent.TimeUnit.MILLISECONDS);
            }
            // The shell ended: anything it left behind in its group dies with it.
            ProcessTree.kill(p.pid(), Duration.ZERO);
            int code = p.exitValue();
            note(log, "=== exit code " + code);
            return new Outcome(code, false, false, Duration.ofNanos(System.nanoTime() - t0));
        } catch (InterruptedException e) {
            ProcessTree.kill(p.pid(), GRACE);
            Thread.currentThread().interrupt();
            return new Outcome(null, false, true, Duration.ofNanos(System.nanoTime() - t0));
        }
    }

    /** Appends a line of Paddock's own to the test log (a failure to write is ignored: the outcome is stored). */
    static void note(Path log, String line) {
        try {
            PrivateFiles.append(log, line + "\n");
        } catch (IOException ignored) {
            // the log is a convenience; the outcome is stored
        }
    }
}
