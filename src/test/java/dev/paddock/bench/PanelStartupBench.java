package dev.paddock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Benchmark: cold start of the panel to its first frame (target ≤ 1.5 s on this 2-core
 * machine), and resident memory after one minute idle on a repository with 20 worktrees
 * (target ≤ 300 MB). The panel runs as a real process under X (Xvfb), started the way the README
 * says ({@code target/paddock}, the launcher with its JVM options and class-data archive) and, for
 * comparison, as a bare {@code java -jar target/paddock.jar}. Times run from just before the
 * process is started to the first pulse after the window shows ("first frame") and to the first
 * worktree rows ("dashboard"). Each start gets a new home (a first start: store created, every migration
 * run); the launcher is also timed on a home an earlier start made. Figures are reported, not asserted.
 */
class PanelStartupBench {
    private static final int RUNS = 7;

    @TempDir
    Path temp;

    @Test
    void coldStartToFirstFrameAndIdleMemory() throws Exception {
        Path repo = BenchSupport.repositoryWithWorktrees(temp, 19); // main + 19 linked = 20 worktrees
        String display = BenchSupport.display();

        for (Launch launch : List.of(Launch.LAUNCHER, Launch.JAVA_JAR)) {
            // First start of a new installation: a new home each run (store created, every migration run).
            List<Long> firstFrame = new ArrayList<>();
            List<Long> dashboard = new ArrayList<>();
            for (int i = 0; i < RUNS; i++) {
                start(launch, Files.createTempDirectory(temp, "home"), repo, display, firstFrame, dashboard);
            }
            BenchSupport.report(launch.label + ": first frame ms: " + BenchSupport.summary(firstFrame));
            BenchSupport.report(launch.label + ": dashboard with 20 worktrees ms: " + BenchSupport.summary(dashboard));
        }
        // Every later start (a new JVM, the home made by an earlier start): one untimed start makes it.
        Path used = Files.createTempDirectory(temp, "used");
        start(Launch.LAUNCHER, used, repo, display, new ArrayList<>(), new ArrayList<>());
        List<Long> firstFrame = new ArrayList<>();
        List<Long> dashboard = new ArrayList<>();
        for (int i = 0; i < RUNS; i++) {
            start(Launch.LAUNCHER, used, repo, display, firstFrame, dashboard);
        }
        BenchSupport.report(
                Launch.LAUNCHER.label + ", existing home: first frame ms: " + BenchSupport.summary(firstFrame));
        BenchSupport.report(Launch.LAUNCHER.label + ", existing home: dashboard with 20 worktrees ms: "
                + BenchSupport.summary(dashboard));

        for (Launch launch : List.of(Launch.LAUNCHER, Launch.JAVA_JAR)) {
            Path home = Files.createTempDirectory(temp, "idle");
            ProcessBuilder pb = launch.command(home, repo);
            pb.environment().put("DISPLAY", display);
            Process panel = pb.start();
            try {
                Thread.sleep(10_000);
                long cpuAt10 = BenchSupport.cpuMillis(panel.pid());
                Thread.sleep(50_000);
                long cpuAt60 = BenchSupport.cpuMillis(panel.pid());
                long rss = BenchSupport.rssBytes(panel.pid());
                assertThat(panel.isAlive()).isTrue();
                BenchSupport.report(
                        launch.label + ": RSS after 60 s idle with 20 worktrees: " + rss / (1024 * 1024) + " MB");
                BenchSupport.report(String.format(
                        "%s: CPU while idle (10-60 s): %.1f %% of one core",
                        launch.label, (cpuAt60 - cpuAt10) / 500.0));
            } finally {
                panel.destroy();
                panel.waitFor(20, TimeUnit.SECONDS);
            }
        }
    }

    /** Starts the panel in a new JVM on {@code home}, adds its first-frame and dashboard times (ms), waits for its exit. */
    private static void start(
            Launch launch, Path home, Path repo, String display, List<Long> firstFrame, List<Long> dashboard)
            throws Exception {
        Path out = home.resolve("startup.txt");
        Files.deleteIfExists(out);
        ProcessBuilder pb =
                launch.command(home, repo, "-Dpaddock.bench.startupFile=" + out, "-Dpaddock.bench.exit=true");
        pb.environment().put("DISPLAY", display);
        long launchedAt = System.currentTimeMillis();
        Process p = pb.start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS))
                .as("panel exits after its first dashboard")
                .isTrue();
        String line = Files.readString(out).strip();
        firstFrame.add(Long.parseLong(line.replaceAll(".*firstFrameAt=(\\d+).*", "$1")) - launchedAt);
        dashboard.add(Long.parseLong(line.replaceAll(".*dashboardAt=(\\d+).*", "$1")) - launchedAt);
    }

    /** How the panel is started. */
    private enum Launch {
        LAUNCHER("target/paddock"),
        JAVA_JAR("java -jar target/paddock.jar");

        final String label;

        Launch(String label) {
            this.label = label;
        }

        ProcessBuilder command(Path home, Path repo, String... systemProperties) {
            List<String> cmd = new ArrayList<>();
            ProcessBuilder pb = new ProcessBuilder(cmd);
            if (this == LAUNCHER) {
                cmd.add(BenchSupport.launcher().toString());
                pb.environment().put("PADDOCK_JAVA_OPTS", String.join(" ", systemProperties));
            } else {
                cmd.add(BenchSupport.java());
                cmd.addAll(List.of(systemProperties));
                cmd.add("-jar");
                cmd.add(BenchSupport.jar().toString());
            }
            cmd.addAll(List.of("--home", home.toString(), "--repo", repo.toString()));
            return pb.redirectErrorStream(true)
                    .redirectOutput(home.resolve("out.log").toFile());
        }
    }
}
