package dev.paddock.ui.shell;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.Paddock;
import dev.paddock.api.InstanceFile;
import dev.paddock.bench.BenchSupport;
import dev.paddock.testing.ChildJvm;
import dev.paddock.testing.TempRepo;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real panel in its own JVM, started as a user starts it ({@code paddock --home DIR --repo PATH}) on a
 * real X display (Xvfb): its first frame is drawn, then Paddock starts behind it and the dashboard gets the
 * repository's worktrees. Guards the start-up order (Paddock starts only after the first frame is drawn). A panel
 * refused because another Paddock owns its home is driven with real key presses ({@code xdotool}, which must be
 * installed).
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
        ProcessBuilder pb = new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dpaddock.bench.startupFile=" + probe,
                "-Dpaddock.bench.exit=true",
                "-cp",
                System.getProperty("java.class.path"),
                "dev.paddock.Paddock",
                "--home",
                home.toString(),
                "--repo",
                repo.dir().toString());
        pb.environment().put("DISPLAY", BenchSupport.display());
        pb.redirectErrorStream(true).redirectOutput(temp.resolve("panel.log").toFile());
        long launchedAt = System.currentTimeMillis();
        Process panel = pb.start();
        try {
            assertThat(panel.waitFor(120, TimeUnit.SECONDS))
                    .as("the panel quits after its dashboard")
                    .isTrue();
        } finally {
            panel.destroyForcibly();
        }
        assertThat(panel.exitValue())
                .as(Files.readString(temp.resolve("panel.log")))
                .isZero();

        String line = Files.readString(probe).strip();
        long firstFrame = Long.parseLong(line.replaceAll(".*firstFrameAt=(-?\\d+).*", "$1"));
        long dashboard = Long.parseLong(line.replaceAll(".*dashboardAt=(-?\\d+).*", "$1"));
        assertThat(firstFrame).as("first frame drawn").isGreaterThan(launchedAt);
        assertThat(dashboard).as("worktrees shown after the first frame").isGreaterThanOrEqualTo(firstFrame);
        // Paddock started behind the window: its store exists and recorded the repository.
        List<Path> store = Files.list(home)
                .filter(p -> p.getFileName().toString().startsWith("paddock"))
                .toList();
        assertThat(store).as("store files in " + home).isNotEmpty();
    }

    @Test
    void aPanelRefusedOnAHomeAnotherPaddockOwnsSaysWhyInOneLineQuitsOnEnterWithExitCode1AndLeavesThatHomeAlone()
            throws Exception {
        Path home = temp.resolve("owned home");
        String display = BenchSupport.display();
        try (ChildJvm serve = ChildJvm.start(
                temp.resolve("serve-out"),
                Map.of(),
                Paddock.class.getName(),
                List.of("--home", home.toString(), "serve"))) {
            serve.awaitStdout("Paddock serving on", Duration.ofSeconds(60));
            assertThat(InstanceFile.live(home.resolve("instance.json"))).isPresent();
            // Without the test classes: their logback-test.xml would replace Paddock's own logging, which writes
            // the refusal on stderr.
            String classPath = Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
                    .filter(e -> !Path.of(e).endsWith("test-classes"))
                    .collect(Collectors.joining(File.pathSeparator));
            Path err = temp.resolve("panel.err");
            ProcessBuilder pb = new ProcessBuilder(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp",
                    classPath,
                    "dev.paddock.Paddock",
                    "--home",
                    home.toString());
            pb.environment().put("DISPLAY", display);
            pb.environment().put("LC_ALL", "C.UTF-8"); // no relaunch: the window belongs to this pid
            pb.redirectOutput(temp.resolve("panel.out").toFile()).redirectError(err.toFile());
            Process panel = pb.start();
            try {
                String window = awaitWindow(panel, display, err);
                // Paddock starts once the first frame is drawn; the refusal is logged just before the window shows it.
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (!Files.readString(err).contains("cannot start") && System.nanoTime() < deadline) {
                    Thread.sleep(100);
                }
                Thread.sleep(1000); // the window's next pulses: the message shows and Quit takes the focus
                // Light / dark is switched (kept in memory, not saved), then Enter presses the focused Quit button.
                xdotool(display, "key", "--window", window, "ctrl+shift+l");
                xdotool(display, "key", "--window", window, "Return");

                assertThat(panel.waitFor(30, TimeUnit.SECONDS))
                        .as("Enter quits: " + Files.readString(err))
                        .isTrue();
                assertThat(panel.exitValue()).isEqualTo(1);
                List<String> lines = Files.readString(err)
                        .lines()
                        .filter(l -> l.startsWith("paddock:"))
                        .toList();
                assertThat(lines)
                        .containsExactly("paddock: cannot start: another Paddock (`paddock serve`, pid "
                                + serve.pid() + ") is running on this home (" + home + ") and holds its store "
                                + home.resolve("paddock.mv.db")
                                + ". Use that one, or start with --home DIR for a separate"
                                + " store.");
                assertThat(home.resolve("ui.properties"))
                        .as("the refused panel's preferences")
                        .doesNotExist();
            } finally {
                panel.destroyForcibly();
            }
            assertThat(serve.isAlive()).as("the owner keeps running").isTrue();
        }
    }

    @Test
    void sigtermSavesTheWindowSizeAPersonLeftIt() throws Exception {
        TempRepo repo = TempRepo.init(temp.resolve("repo"));
        Path home = temp.resolve("home");
        String display = BenchSupport.display();
        Path err = temp.resolve("panel.err");
        ProcessBuilder pb = new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                "dev.paddock.Paddock",
                "--home",
                home.toString(),
                "--repo",
                repo.dir().toString());
        pb.environment().put("DISPLAY", display);
        pb.environment().put("LC_ALL", "C.UTF-8"); // no relaunch: SIGTERM goes to the panel itself
        pb.redirectOutput(temp.resolve("panel.out").toFile()).redirectError(err.toFile());
        Process panel = pb.start();
        try {
            String window = awaitWindow(panel, display, err);
            // Paddock started behind the window (it owns the home, so it may write there).
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (InstanceFile.live(home.resolve("instance.json")).isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertThat(InstanceFile.live(home.resolve("instance.json")))
                    .as(Files.readString(err))
                    .isPresent();
            xdotool(display, "windowsize", window, "1111", "666");
            deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            String geometry = "";
            while (!geometry.contains("1111x666") && System.nanoTime() < deadline) {
                geometry = xdotoolOut(display, "getwindowgeometry", window);
                Thread.sleep(100);
            }
            assertThat(geometry).as("the window took the size a person gave it").contains("1111x666");
            Thread.sleep(3000); // the panel's FX thread handles the resize (slower on a loaded machine)

            panel.destroy(); // SIGTERM, as systemd, a desktop logout or `kill` sends it
            assertThat(panel.waitFor(60, TimeUnit.SECONDS))
                    .as("the panel ends on SIGTERM")
                    .isTrue();
        } finally {
            panel.destroyForcibly();
        }
        Path prefs = home.resolve("ui.properties");
        assertThat(prefs).as(Files.readString(err)).exists();
        java.util.Properties p = new java.util.Properties();
        try (var in = Files.newInputStream(prefs)) {
            p.load(in);
        }
        assertThat(p.getProperty("window.width")).isEqualTo("1111");
        assertThat(p.getProperty("window.height")).isEqualTo("666");
        assertThat(java.nio.file.Files.getPosixFilePermissions(prefs))
                .isEqualTo(java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
    }

    /** The id of the panel's window that shows (its other one is GTK's hidden leader), once it exists. */
    private static String awaitWindow(Process panel, String display, Path err)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline && panel.isAlive()) {
            ProcessBuilder pb = new ProcessBuilder(
                            "xdotool", "search", "--onlyvisible", "--pid", Long.toString(panel.pid()))
                    .redirectErrorStream(true);
            pb.environment().put("DISPLAY", display);
            Process search = start(pb);
            String out = new String(search.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (search.waitFor() == 0 && out.matches("\\d+(\\s+\\d+)*")) {
                return out.lines().reduce((a, b) -> b).orElseThrow();
            }
            Thread.sleep(200);
        }
        throw new AssertionError(
                "no window of the panel (pid " + panel.pid() + ") on " + display + ": " + Files.readString(err));
    }

    private static void xdotool(String display, String... args) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of("xdotool"));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("DISPLAY", display);
        Process p = start(pb);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(String.join(" ", command) + ": " + out).isZero();
    }

    private static String xdotoolOut(String display, String... args) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of("xdotool"));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("DISPLAY", display);
        Process p = start(pb);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        return out;
    }

    private static Process start(ProcessBuilder xdotool) {
        try {
            return xdotool.start();
        } catch (IOException e) {
            throw new AssertionError("this test presses keys with xdotool: apt-get install xdotool", e);
        }
    }
}
