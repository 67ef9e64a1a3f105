package dev.paddock.bench;

import dev.paddock.testing.TempRepo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Helpers shared by the benchmarks (run with {@code mvn -B -Pbench verify}). */
public final class BenchSupport {
    private BenchSupport() {}

    /** The packaged jar; the bench profile runs after {@code package}. */
    static Path jar() {
        Path jar = Path.of("target", "paddock.jar").toAbsolutePath();
        if (!Files.exists(jar)) {
            throw new IllegalStateException(
                    "target/paddock.jar is missing: run the benchmarks with mvn -Pbench verify");
        }
        return jar;
    }

    /** The launcher {@code mvn package} writes next to the jar (see src/main/dist/paddock). */
    static Path launcher() {
        String other = System.getProperty("paddock.bench.launcher");
        Path launcher = other != null
                ? Path.of(other).toAbsolutePath()
                : Path.of("target", "paddock").toAbsolutePath();
        if (!Files.isExecutable(launcher)) {
            throw new IllegalStateException("target/paddock is missing: run the benchmarks with mvn -Pbench verify");
        }
        return launcher;
    }

    /** The java executable of this JVM. */
    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /**
     * A repository (real path) with one commit of 50 files and {@code linked} linked worktrees on
     * branches agent/N.
     */
    static Path repositoryWithWorktrees(Path dir, int linked) {
        TempRepo repo = TempRepo.initEmpty(dir.resolve("repo"));
        for (int i = 0; i < 50; i++) {
            repo.write("file" + i + ".txt", "line " + i + "\n");
        }
        repo.commitAll("Initial commit");
        for (int i = 1; i <= linked; i++) {
            repo.addWorktree(dir.resolve("wt" + i), "agent/" + i);
        }
        return repo.dir();
    }

    /** The private Xvfb's display once started (one per JVM: a second one on the same number cannot start). */
    private static String privateDisplay;

    /**
     * The X display to use: $DISPLAY when set, otherwise a private Xvfb started here on first use (stopped at exit).
     */
    public static synchronized String display() throws IOException, InterruptedException {
        String d = System.getenv("DISPLAY");
        if (d != null && !d.isBlank()) {
            return d;
        }
        if (privateDisplay != null) {
            return privateDisplay;
        }
        // -displayfd: Xvfb takes a free display number itself and prints it once it accepts connections.
        Process xvfb = new ProcessBuilder("Xvfb", "-displayfd", "1", "-screen", "0", "1440x900x24", "-nolisten", "tcp")
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        Runtime.getRuntime().addShutdownHook(new Thread(xvfb::destroy));
        java.util.concurrent.CompletableFuture<String> number =
                java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                    try (java.io.BufferedReader r = new java.io.BufferedReader(new java.io.InputStreamReader(
                            xvfb.getInputStream(), java.nio.charset.StandardCharsets.US_ASCII))) {
                        return r.readLine();
                    } catch (IOException e) {
                        return null;
                    }
                });
        String n;
        try {
            n = number.get(20, java.util.concurrent.TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            n = null;
        }
        if (n == null || !n.strip().matches("[0-9]+") || !xvfb.isAlive()) {
            xvfb.destroy();
            throw new IllegalStateException("Xvfb could not start (apt-get install xvfb)");
        }
        privateDisplay = ":" + n.strip();
        return privateDisplay;
    }

    /** Resident set size of a process in bytes (Linux /proc). */
    /**
     * With {@code -Dpaddock.bench.jfr=FILE}, starts a flight recording (profile settings) of process {@code pid}: the
     * measured window only, for finding where its CPU goes. Close the result to write FILE.
     */
    static AutoCloseable recording(long pid) throws IOException, InterruptedException {
        String file = System.getProperty("paddock.bench.jfr");
        if (file == null) {
            return () -> {};
        }
        String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
        new ProcessBuilder(jcmd, Long.toString(pid), "JFR.start", "name=bench", "settings=profile")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start()
                .waitFor(30, java.util.concurrent.TimeUnit.SECONDS);
        return () -> new ProcessBuilder(jcmd, Long.toString(pid), "JFR.stop", "name=bench", "filename=" + file)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start()
                .waitFor(30, java.util.concurrent.TimeUnit.SECONDS);
    }

    static long rssBytes(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        throw new IllegalStateException("no VmRSS for " + pid);
    }

    /** CPU time (user + system) a process has used so far, in ms (Linux /proc, clock ticks of 10 ms). */
    static long cpuMillis(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
        return ticks * 10;
    }

    /**
     * CPU time (user + system, clock ticks of 10 ms) of each thread of a process so far, by thread name (Linux
     * /proc/PID/task; names end in "-N" for numbered threads, summed as one).
     */
    static Map<String, Long> threadTicks(long pid) throws IOException {
        Map<String, Long> out = new HashMap<>();
        try (var tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path task : tasks.toList()) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
                            .replaceAll("[-#]?[0-9]+$", "-N");
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    out.merge(name, Long.parseLong(f[11]) + Long.parseLong(f[12]), Long::sum);
                } catch (IOException | RuntimeException gone) {
                    // the thread ended meanwhile
                }
            }
        }
        return out;
    }

    /** The {@code top} threads of a process by CPU (ms) since {@code before} ({@link #threadTicks}). */
    static String busiestThreads(long pid, Map<String, Long> before, int top) throws IOException {
        return threadTicks(pid).entrySet().stream()
                .map(e -> Map.entry(e.getKey(), (e.getValue() - before.getOrDefault(e.getKey(), 0L)) * 10))
                .filter(e -> e.getValue() > 0)
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .limit(top)
                .map(e -> e.getKey() + "=" + e.getValue())
                .reduce((a, b) -> a + ", " + b)
                .orElse("");
    }

    /** Min, median and max of a list of figures. */
    public static String summary(List<Long> values) {
        long[] v = values.stream().mapToLong(Long::longValue).sorted().toArray();
        return "min " + v[0] + ", median " + v[v.length / 2] + ", max " + v[v.length - 1] + " (n=" + v.length + ")";
    }

    /** Prints a result line and appends it to target/bench/results.txt. */
    public static void report(String line) throws IOException {
        System.out.println("BENCH " + line);
        Path out = Path.of("target", "bench", "results.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, line + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    static List<String> command(String... parts) {
        return new ArrayList<>(Arrays.asList(parts));
    }
}
