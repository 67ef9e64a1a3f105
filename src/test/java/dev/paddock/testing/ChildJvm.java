package dev.paddock.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A second Java process running a main class from the test class path (the same JDK, the same
 * {@code java.class.path} as the test JVM, so classes from {@code src/main} and {@code src/test} are
 * both there). Use it when a test needs another process: a second owner of the H2 file, a real
 * {@code paddock serve}, a CLI run with its own environment.
 *
 * <p>Its stdout and stderr go to files in {@code outputDir} (never to pipes a test could forget to
 * drain); read them with {@link #stdout()} and {@link #stderr()}. Its stdin is a pipe: {@link #closeStdin()}
 * is a convenient "please stop" signal for test main classes. The child gets {@code LC_ALL=C.UTF-8}
 * unless the caller sets {@code LC_ALL}, so non-ASCII paths work even where the test JVM's locale is
 * not UTF-8.
 *
 * <p>{@link #close()} ends it: {@code destroy()} (SIGTERM, so shutdown hooks run), then
 * {@code destroyForcibly()} after a few seconds. Use it in try-with-resources or an {@code @AfterEach}.
 */
public final class ChildJvm implements AutoCloseable {
    private static final Duration POLL = Duration.ofMillis(50);
    private static final Duration GRACE = Duration.ofSeconds(5);

    private final Process process;
    private final Path out;
    private final Path err;
    private final String description;

    private ChildJvm(Process process, Path out, Path err, String description) {
        this.process = process;
        this.out = out;
        this.err = err;
        this.description = description;
    }

    /** Starts {@code mainClass} with {@code args}; see {@link #start(Path, Map, String, List)}. */
    public static ChildJvm start(Path outputDir, Class<?> mainClass, String... args) {
        return start(outputDir, Map.of(), mainClass.getName(), List.of(args));
    }

    /**
     * Starts {@code java -cp <test class path> mainClass args...}.
     *
     * @param outputDir where {@code <simple name>-<n>.out} and {@code .err} are written (created if missing)
     * @param env variables added to (or, with a null value, removed from) the inherited environment
     */
    public static ChildJvm start(Path outputDir, Map<String, String> env, String mainClass, List<String> args) {
        return start(outputDir, env, System.getProperty("java.class.path"), mainClass, args);
    }

    /**
     * Starts {@code mainClass} like {@link #start(Path, Map, String, List)}, without the test classes on the class
     * path: their {@code logback-test.xml} would replace Paddock's own logging, which writes
     * {@code <home>/logs/paddock.log} (and its main classes are the same).
     */
    public static ChildJvm startWithOwnLogging(
            Path outputDir, Map<String, String> env, String mainClass, List<String> args) {
        String classPath = java.util.stream.Stream.of(
                        System.getProperty("java.class.path").split(java.io.File.pathSeparator))
                .filter(e -> !Path.of(e).endsWith("test-classes"))
                .collect(java.util.stream.Collectors.joining(java.io.File.pathSeparator));
        return start(outputDir, env, classPath, mainClass, args);
    }

    private static ChildJvm start(
            Path outputDir, Map<String, String> env, String classPath, String mainClass, List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xshare:auto");
        cmd.add("-XX:TieredStopAtLevel=1"); // short-lived: start fast rather than run fast
        cmd.add("-cp");
        cmd.add(classPath);
        cmd.add(mainClass);
        cmd.addAll(args);
        try {
            Files.createDirectories(outputDir);
            String base = mainClass.substring(mainClass.lastIndexOf('.') + 1);
            Path outFile = Files.createTempFile(outputDir, base + "-", ".out");
            Path errFile =
                    outFile.resolveSibling(outFile.getFileName().toString().replace(".out", ".err"));
            ProcessBuilder pb =
                    new ProcessBuilder(cmd).redirectOutput(outFile.toFile()).redirectError(errFile.toFile());
            Map<String, String> childEnv = pb.environment();
            Map<String, String> extra = new LinkedHashMap<>();
            extra.put("LC_ALL", "C.UTF-8");
            extra.putAll(env);
            extra.forEach((k, v) -> {
                if (v == null) {
                    childEnv.remove(k);
                } else {
                    childEnv.put(k, v);
                }
            });
            return new ChildJvm(pb.start(), outFile, errFile, mainClass + " " + String.join(" ", args));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + mainClass, e);
        }
    }

    /** The process, e.g. for its pid. */
    public Process process() {
        return process;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Everything the child wrote on stdout so far (UTF-8). */
    public String stdout() {
        return read(out);
    }

    /** Everything the child wrote on stderr so far (UTF-8). */
    public String stderr() {
        return read(err);
    }

    /** Writes a line to the child's stdin. */
    public void send(String line) {
        try {
            OutputStream in = process.getOutputStream();
            in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Closes the child's stdin (it reads end of file). */
    public void closeStdin() {
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Waits until the child's stdout contains {@code text}.
     *
     * @throws AssertionError when the child exits first or {@code timeout} passes, with both outputs
     */
    public void awaitStdout(String text, Duration timeout) {
        await("stdout to contain \"" + text + "\"", () -> stdout().contains(text), timeout);
    }

    /**
     * Waits until {@code condition} holds, polling every 50 ms.
     *
     * @throws AssertionError when the child exits first or {@code timeout} passes, with both outputs
     */
    public void await(String what, BooleanSupplier condition, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (!process.isAlive()) {
                if (condition.getAsBoolean()) {
                    return;
                }
                throw new AssertionError("child " + description + " exited with " + process.exitValue()
                        + " while waiting for " + what + report());
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout.toMillis() + " ms waiting for " + what
                        + " from child " + description + report());
            }
            sleep(POLL);
        }
    }

    /**
     * Waits for the child to exit and returns its exit code.
     *
     * @throws AssertionError when it is still running after {@code timeout} (it is then killed)
     */
    public int waitFor(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                close();
                throw new AssertionError(
                        "child " + description + " still running after " + timeout.toMillis() + " ms" + report());
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** Both outputs, for failure messages. */
    public String report() {
        return "\n--- stdout ---\n" + stdout() + "\n--- stderr ---\n" + stderr();
    }

    /** Ends the child: SIGTERM, then SIGKILL after a few seconds; waits until it is gone. */
    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
