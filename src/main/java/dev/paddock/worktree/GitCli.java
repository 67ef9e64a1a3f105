package dev.paddock.worktree;

import dev.paddock.common.Processes;
import dev.paddock.common.Threads;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Runs the git command-line tool with an argument list (never a shell string), for what JGit
 * lacks (worktree add/list/remove) and what must match the user's own git exactly.
 *
 * <p>Variables that would redirect git to another repository ({@code GIT_DIR}, {@code GIT_WORK_TREE},
 * ...) are removed from the child's environment; prompts are disabled; output is read as UTF-8.
 */
public final class GitCli {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(GitCli.class);
    private static final List<String> REDIRECTING_VARS = List.of(
            "GIT_DIR",
            "GIT_WORK_TREE",
            "GIT_INDEX_FILE",
            "GIT_OBJECT_DIRECTORY",
            "GIT_ALTERNATE_OBJECT_DIRECTORIES",
            "GIT_COMMON_DIR",
            "GIT_NAMESPACE",
            "GIT_CEILING_DIRECTORIES",
            "GIT_DISCOVERY_ACROSS_FILESYSTEM");
    /** Default time a git command may take before it is killed. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);
    /** Time for commands that check out or delete whole trees (worktree add/remove). */
    public static final Duration LONG_TIMEOUT = Duration.ofMinutes(10);

    private static final ExecutorService PIPES = Executors.newCachedThreadPool(Threads.daemon("git-pipe"));

    private final String executable;

    public GitCli() {
        this("git");
    }

    public GitCli(String executable) {
        this.executable = executable;
    }

    /** Output of a finished git command. */
    public record Result(int exitCode, String stdout, String stderr) {
        public boolean ok() {
            return exitCode == 0;
        }

        /** The first non-empty line of stderr, without git's "fatal: " or "error: " prefix. */
        public String errorLine() {
            for (String line : stderr.split("\n")) {
                String l = line.strip();
                if (!l.isEmpty()) {
                    return l.replaceFirst("^(fatal|error): ", "");
                }
            }
            return "git exited with " + exitCode;
        }
    }

    /**
     * Runs {@code git -C dir args...} and waits for it.
     *
     * @throws GitException when git cannot be started or runs past {@code timeout} (it is then killed)
     */
    public Result run(Path dir, List<String> args, Duration timeout) throws GitException {
        return run(dir, args, timeout, Map.of(), null);
    }

    /**
     * Runs {@code git -C dir args...} with {@code env} added to the cleaned environment (e.g. a private
     * {@code GIT_INDEX_FILE}, which is removed otherwise) and {@code input} on its standard input (null: none).
     *
     * @throws GitException when git cannot be started or runs past {@code timeout} (it is then killed)
     */
    public Result run(Path dir, List<String> args, Duration timeout, Map<String, String> extraEnv, byte[] input)
            throws GitException {
        List<String> cmd = new ArrayList<>(args.size() + 3);
        cmd.add(executable);
        cmd.add("-C");
        cmd.add(dir.toString());
        cmd.addAll(args);
        ProcessBuilder pb = Processes.withoutPaddockSecrets(new ProcessBuilder(cmd));
        if (input == null) {
            pb.redirectInput(Processes.NO_INPUT);
        }
        Map<String, String> env = pb.environment();
        REDIRECTING_VARS.forEach(env::remove);
        env.put("GIT_TERMINAL_PROMPT", "0");
        env.put("LC_ALL", "C");
        env.putAll(extraEnv);
        long t0 = System.nanoTime();
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new GitException("Cannot run git (" + e.getMessage() + "). Is git installed and on PATH?", e);
        }
        // Both pipes are drained on their own threads so a chatty child never blocks on a full pipe,
        // and this thread can enforce the timeout.
        CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> readAll(p.getErrorStream()), PIPES);
        CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> readAll(p.getInputStream()), PIPES);
        if (input != null) {
            CompletableFuture.runAsync(() -> writeAll(p.getOutputStream(), input), PIPES);
        }
        try {
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new GitException("git " + String.join(" ", args) + " took longer than " + timeout.toSeconds()
                        + " s and was stopped");
            }
            Result r = new Result(
                    p.exitValue(),
                    new String(out.join(), StandardCharsets.UTF_8),
                    new String(err.join(), StandardCharsets.UTF_8));
            if (LOG.isDebugEnabled()) {
                LOG.debug(
                        "git {} -> {} in {} ms",
                        String.join(" ", args),
                        r.exitCode(),
                        (System.nanoTime() - t0) / 1_000_000);
            }
            return r;
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new GitException("Interrupted while running git " + String.join(" ", args), e);
        }
    }

    /** Runs with the default timeout. */
    public Result run(Path dir, String... args) throws GitException {
        return run(dir, List.of(args), DEFAULT_TIMEOUT);
    }

    /**
     * Runs and requires exit code 0.
     *
     * @throws GitException with git's own error line when it fails
     */
    public String runOk(Path dir, String... args) throws GitException {
        Result r = run(dir, args);
        if (!r.ok()) {
            throw new GitException("git " + subcommand(args) + " failed in " + dir + ": " + r.errorLine());
        }
        return r.stdout();
    }

    /** The git command among {@code args} ({@code status} in {@code -c k=v --no-optional-locks status ...}). */
    static String subcommand(String... args) {
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("-c") || args[i].equals("-C")) {
                i++;
            } else if (!args[i].startsWith("-")) {
                return args[i];
            }
        }
        return args.length > 0 ? args[0] : "";
    }

    private static void writeAll(java.io.OutputStream out, byte[] input) {
        try (out) {
            out.write(input);
        } catch (IOException e) {
            LOG.debug("git's standard input closed early: {}", e.getMessage());
        }
    }

    private static byte[] readAll(InputStream in) {
        try (in) {
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            in.transferTo(buf);
            return buf.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
