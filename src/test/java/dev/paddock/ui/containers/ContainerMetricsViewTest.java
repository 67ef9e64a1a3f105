package dev.paddock.ui.containers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.Host;
import dev.paddock.container.ResourceLimits;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.Tier;
import dev.paddock.settings.PaddockHome;
import dev.paddock.testing.DockerTests;
import dev.paddock.testing.TempRepo;
import dev.paddock.ui.shell.MainWindow;
import dev.paddock.ui.shell.ShellViewModel;
import dev.paddock.ui.theme.Theme;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javafx.scene.Scene;
import javafx.scene.chart.LineChart;
import javafx.scene.chart.XYChart;
import javafx.scene.control.Label;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableCell;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The whole panel with a real container sandbox on the Docker engine (a failure, not a skip, with
 * {@code PADDOCK_REQUIRE_DOCKER=1}): the sandboxes table shows its live CPU and memory, the containers tab its
 * figures, charts and totals, and both say "stopped" once it is stopped.
 */
@ExtendWith(ApplicationExtension.class)
class ContainerMetricsViewTest {
    @TempDir
    Path temp;

    private Stage stage;
    private TempRepo repo;
    private Host host;
    private final ShellViewModel vm = new ShellViewModel();

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @BeforeEach
    void startPaddock() throws Exception {
        DockerTests.requireEngineWithGitImage();
        repo = TempRepo.init(temp.resolve("project"));
        repo.commitFile("src/App.java", "class App {}\n", "Add App");
        host = Host.start(PaddockHome.resolve(temp.resolve("home"), Map.of()), "panel");
        host.wiring().repoService().setContainerImage(repo.dir(), DockerTests.GIT_IMAGE);
    }

    @AfterEach
    void close() throws Exception {
        WaitForAsyncUtils.asyncFx(stage::hide).get(60, TimeUnit.SECONDS);
        vm.close();
        if (repo != null) {
            DockerTests.removeAll("paddock.repo=" + repo.dir());
        }
    }

    static <T> T fx(Callable<T> c) throws Exception {
        return WaitForAsyncUtils.asyncFx(c).get(30, TimeUnit.SECONDS);
    }

    /** The text of the sandboxes table's cell in column {@code columnId} of the sandbox's row, if shown. */
    static Optional<String> tableCell(FxRobot robot, String columnId, String sandboxId) throws Exception {
        return fx(() -> robot.lookup(n -> n instanceof TableCell<?, ?> c
                        && c.getTableColumn() != null
                        && columnId.equals(c.getTableColumn().getId())
                        && dev.paddock.testing.TableCells.shown(c)
                        && c.getTableRow().getItem() instanceof dev.paddock.status.RepositoryStatus.Sandbox s
                        && s.id().equals(sandboxId))
                .tryQuery()
                .map(n -> ((TableCell<?, ?>) n).getText()));
    }

    /** The text of the containers table's cell under the header {@code title} of the sandbox's row. */
    static Optional<String> containersCell(FxRobot robot, String title, String sandboxId) throws Exception {
        return fx(() -> robot.lookup(n -> n instanceof TableCell<?, ?> c
                        && c.getTableColumn() != null
                        && title.equals(c.getTableColumn().getText())
                        && dev.paddock.testing.TableCells.shown(c)
                        && c.getTableRow().getItem() instanceof dev.paddock.container.ContainerMetrics m
                        && m.sandboxId().equals(sandboxId))
                .tryQuery()
                .map(n -> ((TableCell<?, ?>) n).getText()));
    }

    void waitFor(String what, int seconds, Callable<Boolean> condition) throws Exception {
        try {
            WaitForAsyncUtils.waitFor(seconds, TimeUnit.SECONDS, condition);
        } catch (java.util.concurrent.TimeoutException e) {
            var live = host.wiring().sandboxes().listLive();
            throw new AssertionError(
                    "timed out waiting until " + what + "; sandboxes: " + live + "; metrics: "
                            + host.wiring().containers().metrics().current() + "; log: "
                            + (live.isEmpty()
                                    ? ""
                                    : host.wiring()
                                            .sandboxService()
                                            .logTail(live.get(0).id())),
                    e);
        }
    }

    @Test
    void theTableAndTheChartsShowARunningContainerAndThenStopped(FxRobot robot) throws Exception {
        SandboxRecord s = host.wiring()
                .sandboxService()
                .create(NewSandbox.custom(repo.dir(), "Spin", "while :; do :; done")
                        .tier(Tier.CONTAINER)
                        .leaseMs(300_000L)
                        .maxRetries(0)
                        .limits(ResourceLimits.DEFAULTS
                                .withNanoCpus(300_000_000L)
                                .withMemoryBytes(128 * ResourceLimits.MIB))
                        .build());
        WaitForAsyncUtils.asyncFx(() -> {
                    MainWindow window = new MainWindow(vm, Theme.LIGHT);
                    Scene scene = new Scene(window, 1280, 800);
                    Theme.LIGHT.apply(scene);
                    window.installShortcuts(scene);
                    stage.setScene(scene);
                    stage.show();
                })
                .get(60, TimeUnit.SECONDS); // generous: this machine's tests share two cores with other builds
        vm.start(CompletableFuture.completedFuture(host.panel()), repo.dir()).get(90, TimeUnit.SECONDS);

        waitFor(
                "the CPU cell shows a figure (" + s.id() + ")",
                40,
                () -> tableCell(robot, "sandbox-cpu", s.id())
                        .filter(t -> t.endsWith("%"))
                        .isPresent());
        assertThat(tableCell(robot, "sandbox-memory", s.id())).get().asString().matches("[0-9.]+ (KiB|MiB)");

        fx(() -> {
            robot.lookup(".tab-pane").queryAs(TabPane.class).getSelectionModel().select(2);
            return null;
        });
        waitFor(
                "the CPU chart has a few points",
                20,
                () -> fx(() -> points(robot, "#containers-cpu-chart", s.id()) >= 3));
        double cpu = fx(() -> newest(robot, "#containers-cpu-chart", s.id()));
        assertThat(cpu).as("CPU in percent of the 0.3-CPU limit").isBetween(5.0, 110.0);
        assertThat(fx(() -> newest(robot, "#containers-memory-chart", s.id())))
                .as("MiB")
                .isBetween(0.01, 128.0);
        // The containers table takes the same sample on its own refresh: wait for its row rather than race it.
        waitFor(
                "the containers table shows the CPU figure",
                20,
                () -> containersCell(robot, "CPU (1 CPU)", s.id())
                        .filter(t -> t.endsWith("%"))
                        .isPresent());
        assertThat(fx(() -> robot.lookup("#containers-running-value")
                        .queryAs(Label.class)
                        .getText()))
                .isEqualTo("1");
        assertThat(fx(() -> robot.lookup("#containers-memory-total-value")
                        .queryAs(Label.class)
                        .getText()))
                .matches("[0-9.]+ (KiB|MiB)");

        host.wiring().sandboxService().stop(s.id(), "test");

        waitFor(
                "the containers table says stopped",
                30,
                () -> containersCell(robot, "CPU (1 CPU)", s.id())
                        .filter("stopped"::equals)
                        .isPresent());
        assertThat(containersCell(robot, "Memory", s.id())).contains("stopped");
        assertThat(fx(() -> robot.lookup("#containers-running-value")
                        .queryAs(Label.class)
                        .getText()))
                .isEqualTo("0");
        assertThat(fx(() -> robot.lookup("#containers-running-label")
                        .queryAs(Label.class)
                        .getText()))
                .isEqualTo("Running · 1 stopped");
        fx(() -> {
            robot.lookup(".tab-pane").queryAs(TabPane.class).getSelectionModel().select(0);
            return null;
        });
        waitFor(
                "the sandboxes table says stopped",
                10,
                () -> tableCell(robot, "sandbox-cpu", s.id())
                        .filter("stopped"::equals)
                        .isPresent());
        assertThat(tableCell(robot, "sandbox-memory", s.id())).contains("stopped");
    }

    @SuppressWarnings("unchecked")
    private static Optional<XYChart.Series<Number, Number>> series(FxRobot robot, String chart, String sandboxId) {
        LineChart<Number, Number> c = robot.lookup(chart).queryAs(LineChart.class);
        return c.getData().stream()
                .filter(x -> x.getName().startsWith(sandboxId))
                .findFirst();
    }

    private static int points(FxRobot robot, String chart, String sandboxId) {
        return series(robot, chart, sandboxId).map(x -> x.getData().size()).orElse(0);
    }

    private static double newest(FxRobot robot, String chart, String sandboxId) {
        var d = series(robot, chart, sandboxId).orElseThrow().getData();
        return d.get(d.size() - 1).getYValue().doubleValue();
    }
}
