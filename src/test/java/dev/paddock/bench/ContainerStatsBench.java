package dev.paddock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.container.ContainerMetrics;
import dev.paddock.container.ContainerMetricsBoard;
import dev.paddock.container.ContainerStatsStream;
import dev.paddock.container.DockerContainers;
import dev.paddock.container.DockerEngine;
import dev.paddock.testing.DockerTests;
import dev.paddock.ui.dashboard.DashboardView;
import dev.paddock.ui.dashboard.DashboardViewModel;
import dev.paddock.ui.theme.Theme;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javafx.scene.Scene;
import javafx.scene.control.TabPane;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Live container metrics at scale: {@value #CONTAINERS} running busybox containers, each with its stats
 * stream (a sample a second), and the dashboard open on the containers tab (charts drawn) in this JVM. Measures
 * this JVM's CPU (percent of one core, from /proc/self/stat over {@value #MEASURE_S} s) and its resident memory
 * (targets: ≤ 5 % and ≤ 300 MB), then compares Paddock's CPU % with {@code docker stats --no-stream} on the same
 * containers (mean absolute difference, target ≤ 3 points). A few containers spin under small CPU limits so the
 * figures are not all zero. Every container carries the label {@code paddock.bench=<run>} and is removed.
 *
 * <p>Run it with the panel's own JVM options (src/main/dist/paddock), else the test JVM's default G1 heap and C2
 * compiler are what gets measured:
 * <pre>
 * mvn -B -o test -Dtest=ContainerStatsBench -Dsurefire.failIfNoSpecifiedTests=false \
 *   "-Dtestfx.argLine=-Dtestfx.robot=glass -Dtestfx.headless=true -Dglass.platform=Monocle -Dmonocle.platform=Headless
 *    -Dprism.order=sw -Djava.awt.headless=true -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xms32m -Xmx512m"
 * </pre>
 * (or {@code mvn -B -Pbench verify}, which runs every *Bench with the test options).
 */
class ContainerStatsBench {
    static final int CONTAINERS = 50;
    static final int MEASURE_S = 60;
    static final int WARM_UP_S = 15;
    /** CPU limits of the spinning containers (the rest sleep): 0.75 CPU together on this 2-core machine. */
    static final double[] SPINNING = {0.1, 0.15, 0.2, 0.3};

    @Test
    void fiftyContainersWithStatsStreamsAndTheDashboardOpen() throws Exception {
        DockerTests.requireEngineWithGitImage();
        String run = UUID.randomUUID().toString().substring(0, 8);
        String label = "paddock.bench=" + run;
        List<String> names = new ArrayList<>();
        Map<String, String> ids = new HashMap<>();
        DockerContainers containers = new DockerContainers(new DockerEngine(Clock.systemUTC()));
        ContainerMetricsBoard board = new ContainerMetricsBoard(Clock.systemUTC());
        List<ContainerStatsStream> streams = new ArrayList<>();
        DashboardViewModel dashboard = new DashboardViewModel();
        try {
            start(run, label, names, ids);
            for (String name : names) {
                streams.add(containers.watchStats(name, ids.get(name), board));
            }
            Stage stage = FxToolkit.registerPrimaryStage();
            WaitForAsyncUtils.asyncFx(() -> {
                        DashboardView view = new DashboardView(dashboard);
                        Scene scene = new Scene(view, 1280, 800);
                        Theme.LIGHT.apply(scene);
                        stage.setScene(scene);
                        stage.show();
                        dashboard.containers().connect(board);
                        view.lookupAll(".tab-pane").stream()
                                .map(TabPane.class::cast)
                                .findFirst()
                                .orElseThrow()
                                .getSelectionModel()
                                .select(2);
                    })
                    .get(60, TimeUnit.SECONDS);

            Thread.sleep(WARM_UP_S * 1000L);
            long pid = ProcessHandle.current().pid();
            Map<String, Long> threads0 = threadCpu();
            long cpu0 = BenchSupport.cpuMillis(pid);
            long t0 = System.nanoTime();
            Thread.sleep(MEASURE_S * 1000L);
            double cpuPercent = (BenchSupport.cpuMillis(pid) - cpu0) * 100.0 / ((System.nanoTime() - t0) / 1e6);
            long rssMb = BenchSupport.rssBytes(pid) / (1024 * 1024);
            System.gc();
            Thread.sleep(2000);
            long heapMb =
                    (Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()) / (1024 * 1024);
            BenchSupport.report("container stats: busiest threads over the run (ms of CPU): " + busiest(threads0)
                    + "; heap in use after a GC " + heapMb + " MB");
            Map<String, ContainerMetrics> seen = board.latest();
            long measured =
                    seen.values().stream().filter(ContainerMetrics::running).count();
            BenchSupport.report(String.format(
                    Locale.ROOT,
                    "container stats: %d containers (%d measured), dashboard on"
                            + " the containers tab: Paddock CPU %.1f %% of one core over %d s (target <= 5), RSS %d MB"
                            + " (target <= 300)",
                    CONTAINERS,
                    measured,
                    cpuPercent,
                    MEASURE_S,
                    rssMb));

            // The dashboard as it opens: the sandboxes tab (the charts are not fed while hidden).
            WaitForAsyncUtils.asyncFx(() -> stage.getScene().getRoot().lookupAll(".tab-pane").stream()
                            .map(TabPane.class::cast)
                            .findFirst()
                            .orElseThrow()
                            .getSelectionModel()
                            .select(0))
                    .get(60, TimeUnit.SECONDS);
            Thread.sleep(5_000);
            Map<String, Long> threads1 = threadCpu();
            long cpu1 = BenchSupport.cpuMillis(pid);
            long t1 = System.nanoTime();
            Thread.sleep(MEASURE_S * 1000L);
            double sandboxTab = (BenchSupport.cpuMillis(pid) - cpu1) * 100.0 / ((System.nanoTime() - t1) / 1e6);
            BenchSupport.report(String.format(
                    Locale.ROOT,
                    "container stats: %d containers, dashboard on the sandboxes"
                            + " tab: Paddock CPU %.1f %% of one core over %d s, RSS %d MB; busiest threads (ms): %s",
                    CONTAINERS,
                    sandboxTab,
                    MEASURE_S,
                    BenchSupport.rssBytes(pid) / (1024 * 1024),
                    busiest(threads1)));

            List<Double> diffs = new ArrayList<>();
            for (int round = 0; round < 3; round++) {
                diffs.addAll(compareWithDockerStats(board, names));
            }
            double mad =
                    diffs.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
            double max = diffs.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
            BenchSupport.report(String.format(
                    Locale.ROOT,
                    "container stats: Paddock CPU %% vs docker stats --no-stream,"
                            + " %d container readings in 3 rounds: mean absolute difference %.2f points (target <= 3), max %.2f",
                    diffs.size(),
                    mad,
                    max));
            assertThat(measured).isEqualTo(CONTAINERS);
        } finally {
            streams.forEach(ContainerStatsStream::close);
            board.close();
            containers.close();
            DockerTests.removeAll(label);
            FxToolkit.cleanupStages();
            dashboard.close();
        }
    }

    /** CPU time so far of every live thread, by name (the docker-java stream threads summed as one). */
    static Map<String, Long> threadCpu() {
        var mx = java.lang.management.ManagementFactory.getThreadMXBean();
        Map<String, Long> out = new HashMap<>();
        for (long id : mx.getAllThreadIds()) {
            var info = mx.getThreadInfo(id);
            long ns = mx.getThreadCpuTime(id);
            if (info != null && ns > 0) {
                out.merge(info.getThreadName().replaceAll("[-#]?[0-9]+$", "-N"), ns / 1_000_000, Long::sum);
            }
        }
        return out;
    }

    static String busiest(Map<String, Long> before) {
        Map<String, Long> now = threadCpu();
        return now.entrySet().stream()
                .map(e -> Map.entry(e.getKey(), e.getValue() - before.getOrDefault(e.getKey(), 0L)))
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .limit(6)
                .map(e -> e.getKey() + "=" + e.getValue())
                .reduce((a, b) -> a + ", " + b)
                .orElse("");
    }

    /**
     * One {@code docker stats --no-stream} of every container; each of its figures against Paddock's samples of
     * the same seconds (the mean of the board's samples seen while the CLI ran: it reports one ~1 s delta).
     */
    static List<Double> compareWithDockerStats(ContainerMetricsBoard board, List<String> names) throws Exception {
        Map<String, List<Double>> ours = new HashMap<>();
        List<String> cmd =
                new ArrayList<>(List.of("docker", "stats", "--no-stream", "--format", "{{.Name}} {{.CPUPerc}}"));
        cmd.addAll(names);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        Map<String, java.time.Instant> lastAt = new HashMap<>();
        while (p.isAlive()) {
            for (ContainerMetrics m : board.current().values()) {
                if (m.running() && !m.at().equals(lastAt.put(m.sandboxId(), m.at()))) {
                    ours.computeIfAbsent(m.sandboxId(), k -> new ArrayList<>()).add(m.cpuPercentOfOneCpu());
                }
            }
            Thread.sleep(100);
        }
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor()).as("docker stats: %s", out).isZero();
        List<Double> diffs = new ArrayList<>();
        for (String line : out.lines().toList()) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 2 && ours.containsKey(f[0])) {
                double theirs = Double.parseDouble(f[1].replace("%", ""));
                double mine = ours.get(f[0]).stream()
                        .mapToDouble(Double::doubleValue)
                        .average()
                        .orElseThrow();
                diffs.add(Math.abs(mine - theirs));
            }
        }
        assertThat(diffs).as("docker stats lines matched: %s", out).hasSizeGreaterThan(CONTAINERS / 2);
        return diffs;
    }

    /** Starts the containers (a few at a time): names paddock-bench-<run>-NN; the first few spin. */
    static void start(String run, String label, List<String> names, Map<String, String> ids) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<DockerTests.Result>> started = new ArrayList<>();
            for (int i = 0; i < CONTAINERS; i++) {
                String name = String.format(Locale.ROOT, "paddock-bench-%s-%02d", run, i);
                names.add(name);
                List<String> args = new ArrayList<>(List.of(
                        "run",
                        "-d",
                        "--network",
                        "none",
                        "--init",
                        "--label",
                        label,
                        "--name",
                        name,
                        "--memory",
                        "64m"));
                if (i < SPINNING.length) {
                    args.addAll(List.of(
                            "--cpus",
                            Double.toString(SPINNING[i]),
                            DockerTests.GIT_IMAGE,
                            "sh",
                            "-c",
                            "while :; do :; done"));
                } else {
                    args.addAll(List.of(DockerTests.GIT_IMAGE, "sleep", "3600"));
                }
                started.add(pool.submit(() -> DockerTests.docker(args.toArray(String[]::new))));
            }
            for (int i = 0; i < CONTAINERS; i++) {
                DockerTests.Result r = started.get(i).get(120, TimeUnit.SECONDS);
                assertThat(r.code())
                        .as("docker run %s: %s", names.get(i), r.out())
                        .isZero();
                ids.put(
                        names.get(i),
                        r.out().strip().lines().reduce((a, b) -> b).orElseThrow());
            }
        } finally {
            pool.shutdown();
        }
    }
}
