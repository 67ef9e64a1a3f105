package dev.paddock.ui.sandboxes;

import static dev.paddock.ui.sandboxes.Panel.fx;
import static dev.paddock.ui.sandboxes.Panel.node;
import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.container.DockerContainers;
import dev.paddock.container.DockerEngine;
import dev.paddock.container.ResourceLimits;
import dev.paddock.isolation.container.ContainerAgents;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.Tier;
import dev.paddock.sandbox.TierChecks;
import dev.paddock.testing.DockerTests;
import dev.paddock.testing.TestRuntimes;
import dev.paddock.ui.common.UiExecutor;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.RadioButton;
import javafx.scene.control.TextField;
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
 * The container tier of the New Sandbox dialog, in the real panel: offered when the Docker engine answers, with
 * the repository's image and the default limits, each field checked as typed, and a sandbox created through
 * the panel's backend that runs in a container on the real engine; disabled with the reason when no engine
 * answers.
 */
@ExtendWith(ApplicationExtension.class)
class NewContainerSandboxDialogTest {
    private static final String IMAGE = "paddock-test:busybox";

    @TempDir
    Path temp;

    private Stage stage;
    private Panel panel;

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @BeforeEach
    void openPanel() throws Exception {
        panel = Panel.start(temp, stage);
        panel.show();
    }

    @AfterEach
    void closePanel() throws Exception {
        if (panel != null) {
            String repo = panel.repo.dir().toString();
            panel.close();
            if (DockerTests.containers("paddock.repo=" + repo).size() > 0) {
                DockerTests.removeAll("paddock.repo=" + repo);
            }
        }
    }

    private NewSandboxViewModel openDialog(FxRobot robot) throws Exception {
        return Panel.openNewSandboxDialog(robot);
    }

    private static void type(FxRobot robot, String id, String text) {
        TextField f = robot.lookup(id).queryAs(TextField.class);
        robot.interact(() -> f.setText(text));
    }

    private static String check(FxRobot robot) throws Exception {
        Label l = robot.lookup("#new-sandbox-container-check").queryAs(Label.class);
        return fx(() -> l.isVisible() ? l.getText() : null);
    }

    @Test
    void theContainerTierTakesTheRepositorysImageAndDefaultLimitsChecksEachFieldAndCreatesAContainerSandbox(
            FxRobot robot) throws Exception {
        DockerTests.requireEngineWithGitImage();
        panel.host.wiring().repoService().setContainerImage(panel.repo.dir(), IMAGE);
        NewSandboxViewModel vm = openDialog(robot);
        RadioButton container = robot.lookup("#tier-container").queryAs(RadioButton.class);
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, () -> fx(() -> !container.isDisabled()));
        assertThat(robot.lookup("#tier-container-problem").queryAs(Label.class).isVisible())
                .isFalse();
        robot.clickOn("#new-sandbox-task").write("Count in a box");
        type(robot, "#new-sandbox-command", "echo counted > counted.txt");
        robot.clickOn(container);

        assertThat(fx(() -> vm.tierProperty().get())).isEqualTo(Tier.CONTAINER);
        assertThat(robot.lookup("#new-sandbox-image").queryAs(TextField.class).getText())
                .isEqualTo(IMAGE);
        assertThat(robot.lookup("#new-sandbox-cpus").queryAs(TextField.class).getText())
                .isEqualTo("2");
        assertThat(robot.lookup("#new-sandbox-memory").queryAs(TextField.class).getText())
                .isEqualTo("4096");
        assertThat(robot.lookup("#new-sandbox-pids").queryAs(TextField.class).getText())
                .isEqualTo("512");
        CheckBox network = robot.lookup("#new-sandbox-network").queryAs(CheckBox.class);
        assertThat(network.isDisabled()).isFalse();
        assertThat(network.isSelected()).isFalse();
        Button create = robot.lookup("#new-sandbox-create").queryAs(Button.class);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> fx(() -> !create.isDisabled()));
        assertThat(check(robot)).isNull();

        type(robot, "#new-sandbox-cpus", "two");
        assertThat(check(robot)).isEqualTo("CPUs must be a number such as 2 or 0.5 (got \"two\").");
        assertThat(create.isDisabled()).isTrue();
        type(robot, "#new-sandbox-cpus", "0.001");
        assertThat(check(robot)).isEqualTo("CPUs must be at least 0.01 (docker's smallest --cpus).");
        type(robot, "#new-sandbox-cpus", "0.5");
        type(robot, "#new-sandbox-memory", "3");
        assertThat(check(robot)).isEqualTo("The memory limit must be at least 6 MiB (got 3145728 bytes).");
        type(robot, "#new-sandbox-memory", "64");
        type(robot, "#new-sandbox-pids", "-4");
        assertThat(check(robot)).isEqualTo("Processes must be a whole number above 0 (got -4).");
        type(robot, "#new-sandbox-pids", "100");
        type(robot, "#new-sandbox-image", " ");
        assertThat(check(robot)).isEqualTo("Give an image: the repository's is " + IMAGE + ".");
        type(robot, "#new-sandbox-image", IMAGE);
        assertThat(check(robot)).isNull();
        assertThat(create.isDisabled()).isFalse();
        robot.clickOn(network);

        robot.clickOn(create);
        WaitForAsyncUtils.waitFor(
                30, TimeUnit.SECONDS, () -> fx(() -> vm.createdProperty().get() != null));
        SandboxRecord made = panel.host
                .wiring()
                .sandboxService()
                .find(fx(() -> vm.createdProperty().get().id()));
        assertThat(made.spec().tier()).isEqualTo(Tier.CONTAINER);
        assertThat(made.spec().image()).isEqualTo(IMAGE);
        assertThat(made.limits().nanoCpus()).isEqualTo(ResourceLimits.ONE_CPU / 2);
        assertThat(made.limits().memoryBytes()).isEqualTo(64 * ResourceLimits.MIB);
        assertThat(made.limits().pids()).isEqualTo(100);
        assertThat(made.spec().networkGranted()).isTrue();
        // The supervisor runs it in a container on the engine; the file shows in the worktree on the host.
        Path counted = made.workspace().worktree().resolve("counted.txt");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!java.nio.file.Files.exists(counted)) {
            SandboxRecord now = panel.host.wiring().sandboxService().find(made.id());
            assertThat(System.nanoTime())
                    .as(
                            "the agent wrote %s; the sandbox is %s (%s); events %s; log:%n%s",
                            counted,
                            now.state().id(),
                            now.run().lastError(),
                            panel.host.wiring().sandboxService().history(made.id()).stream()
                                    .map(e -> e.kind() + ": " + e.message())
                                    .toList(),
                            panel.host.wiring().sandboxService().logTail(made.id()))
                    .isLessThan(deadline);
            Thread.sleep(200);
        }
    }

    @Test
    void withoutAnEngineTheContainerTierIsDisabledAndSaysWhy(FxRobot robot) throws Exception {
        String nowhere = "unix://" + temp.resolve("no-engine.sock");
        ContainerAgents agents =
                new ContainerAgents(() -> new DockerContainers(new DockerEngine(Clock.systemUTC(), nowhere)));
        try {
            SandboxBackend backend = panel.host.wiring().sandboxBackend(new TierChecks(TestRuntimes.with(agents)));
            NewSandboxViewModel form = new NewSandboxViewModel(backend, panel.repo.dir(), "main", UiExecutor.io());
            robot.interact(() -> new NewSandboxDialog(form, stage).show());

            RadioButton container = node(robot, "#tier-container", RadioButton.class);
            Label problem = robot.lookup("#tier-container-problem").queryAs(Label.class);
            WaitForAsyncUtils.waitFor(
                    15,
                    TimeUnit.SECONDS,
                    () -> fx(() ->
                            problem.getText() != null && !problem.getText().startsWith("Checking")));
            assertThat(container.isDisabled()).isTrue();
            assertThat(problem.isVisible()).isTrue();
            assertThat(problem.getText()).startsWith("The Docker engine at " + nowhere + " does not answer (");
            assertThat(fx(() -> form.tierProperty().get())).isEqualTo(Tier.WORKTREE);
        } finally {
            agents.close();
        }
    }
}
