package dev.paddock.ui.shell;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.bench.BenchSupport;
import dev.paddock.testing.TempRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real panel in its own JVM, started as a user starts it ({@code paddock --home DIR --repo PATH}) on a
 * real X display (Xvfb): its first frame is drawn, then Paddock starts behind it and the dashboard gets the
 * repository's worktrees. Guards the start-up order (Paddock starts only after the first frame is drawn).
 */
class PanelProcessTest {
    @TempDir
    Path temp;

    @Test
    void theFirstFrameIsDrawnThenPaddockStartsAndTheDashboardShowsTheWorktrees() throws Exception {
        TempRepo repo = TempRepo.init(temp.resolve("My Répo"));
        repo.addWorktree(temp.resolve("wt-one"), "agent/one");
        Path home = temp.resolve("home");
        Path probe = temp.resolve("startup.txt");
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dpaddock.bench.startupFile=" + probe, "-Dpaddock.bench.exit=true",
                "-cp", System.getProperty("java.class.path"), "dev.paddock.Paddock",
                "--home", home.toString(), "--repo", repo.dir().toString());
        pb.environment().put("DISPLAY", BenchSupport.display());
        pb.redirectErrorStream(true).redirectOutput(temp.resolve("panel.log").toFile());
        long launchedAt = System.currentTimeMillis();
        Process panel = pb.start();
        try {
            assertThat(panel.waitFor(120, TimeUnit.SECONDS)).as("the panel quits after its dashboard").isTrue();
        } finally {
            panel.destroyForcibly();
        }
        assertThat(panel.exitValue()).as(Files.readString(temp.resolve("panel.log"))).isZero();

        String line = Files.readString(probe).strip();
        long firstFrame = Long.parseLong(line.replaceAll(".*firstFrameAt=(-?\\d+).*", "$1"));
        long dashboard = Long.parseLong(line.replaceAll(".*dashboardAt=(-?\\d+).*", "$1"));
        assertThat(firstFrame).as("first frame drawn").isGreaterThan(launchedAt);
        assertThat(dashboard).as("worktrees shown after the first frame").isGreaterThanOrEqualTo(firstFrame);
        // Paddock started behind the window: its store exists and recorded the repository.
        List<Path> store = Files.list(home).filter(p -> p.getFileName().toString().startsWith("paddock")).toList();
        assertThat(store).as("store files in " + home).isNotEmpty();
    }
}
