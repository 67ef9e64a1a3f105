package dev.paddock.ui.sandboxes;

import static dev.paddock.ui.sandboxes.Panel.fx;
import static dev.paddock.ui.sandboxes.Panel.node;
import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.isolation.bubblewrap.BubblewrapProbe;
import dev.paddock.isolation.container.ContainerAgents;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.Tier;
import dev.paddock.sandbox.TierChecks;
import dev.paddock.status.RepositoryStatus;
import dev.paddock.testing.TestRuntimes;
import dev.paddock.ui.common.UiExecutor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.RadioButton;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
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

/** The New Sandbox dialog in the real panel, on a real repository, creating real sandboxes. */
@ExtendWith(ApplicationExtension.class)
class NewSandboxDialogTest {
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
            panel.close();
        }
    }

    private void openDialog(FxRobot robot) throws Exception {
        Panel.openNewSandboxDialog(robot);
    }

    private static void setCommand(FxRobot robot, String command) {
        TextField field = robot.lookup("#new-sandbox-command").queryAs(TextField.class);
        robot.interact(() -> field.setText(command));
    }

    @Test
    void createsASandboxThatRunsToDoneAndShowsItsRow(FxRobot robot) throws Exception {
        openDialog(robot);
        robot.clickOn("#new-sandbox-task").write("Say hello");
        setCommand(robot, "echo done; exit 0");
        Button create = robot.lookup("#new-sandbox-create").queryAs(Button.class);
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> !create.isDisabled());

        robot.clickOn(create);

        WaitForAsyncUtils.waitFor(
                20,
                TimeUnit.SECONDS,
                () -> fx(() -> robot.lookup("#new-sandbox-dialog").tryQuery().isEmpty()));
        // the row appears within a second or so (the dashboard refreshes when the supervisor moves it)
        WaitForAsyncUtils.waitFor(
                5,
                TimeUnit.SECONDS,
                () -> fx(() -> !panel.vm.dashboard().sandboxes().isEmpty()));
        String id = fx(() -> panel.vm.dashboard().sandboxes().get(0).id());
        assertThat(id).startsWith("say-hello-");
        panel.waitForState(id, "done", 20);
        RepositoryStatus.Sandbox row = panel.row(id).orElseThrow();
        assertThat(row.branch()).isEqualTo("agent/say-hello");
        assertThat(row.tier()).isEqualTo("worktree");
        assertThat(Files.isDirectory(Path.of(row.worktreePath()))).isTrue();
        // the new row is selected and shown in the table
        TableView<?> table = robot.lookup("#sandbox-table").queryAs(TableView.class);
        WaitForAsyncUtils.waitFor(
                20,
                TimeUnit.SECONDS,
                () -> fx(() -> table.getSelectionModel().getSelectedItem() instanceof RepositoryStatus.Sandbox s
                        && s.id().equals(id)));
        assertThat(fx(() -> panel.vm
                        .dashboard()
                        .sandboxPanel()
                        .details()
                        .sandboxProperty()
                        .get()
                        .id()))
                .isEqualTo(id);
    }

    @Test
    void aCountAboveOneFansTheTaskOutIntoAGroupOfSandboxes(FxRobot robot) throws Exception {
        openDialog(robot);
        robot.clickOn("#new-sandbox-task").write("Try three ways");
        setCommand(robot, "echo \"$PADDOCK_SANDBOX_ID\"; exit 0");
        javafx.scene.control.Spinner<?> count = node(robot, "#new-sandbox-count", javafx.scene.control.Spinner.class);
        assertThat(fx(() -> count.getValue())).isEqualTo(1);
        robot.interact(() -> robot.lookup("#new-sandbox-count")
                .queryAs(javafx.scene.control.Spinner.class)
                .getValueFactory()
                .setValue(3));
        Label check = node(robot, "#new-sandbox-branch-check", Label.class);
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(check::getText)
                        .equals(
                                "3 sandboxes will start at"
                                        + " main, each on a branch of its own: agent/try-three-ways-custom-1 to agent/try-three-ways-custom-3."));
        NewSandboxDialog dialog = (NewSandboxDialog)
                fx(() -> robot.lookup("#new-sandbox-dialog").query().getUserData());
        // The branch follows the task: Paddock picks the base, so that none of the group's branches exists.
        assertThat(fx(() -> dialog.viewModel().request().branch())).isNull();
        Button create = node(robot, "#new-sandbox-create", Button.class);
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> fx(() -> !create.isDisabled()));

        robot.clickOn(create);

        WaitForAsyncUtils.waitFor(
                30,
                TimeUnit.SECONDS,
                () -> fx(() -> robot.lookup("#new-sandbox-dialog").tryQuery().isEmpty()));
        java.util.List<SandboxRecord> made = panel.host
                .wiring()
                .sandboxService()
                .listOpen(panel.vm.currentProperty().get().id());
        assertThat(made).hasSize(3);
        String group = made.get(0).spec().group();
        assertThat(group).matches("try-three-ways-\\d{8}-\\d{3}");
        assertThat(made)
                .extracting(SandboxRecord::id)
                .containsExactlyInAnyOrder(group + "-custom-1", group + "-custom-2", group + "-custom-3");
        assertThat(made)
                .extracting(rec -> rec.workspace().branch())
                .containsExactlyInAnyOrder(
                        "agent/try-three-ways-custom-1",
                        "agent/try-three-ways-custom-2",
                        "agent/try-three-ways-custom-3");
        assertThat(made).extracting(rec -> rec.spec().group()).containsOnly(group);
        for (SandboxRecord s : made) {
            panel.waitForState(s.id(), "done", 20);
        }
        // The first of them is selected.
        TableView<?> table = node(robot, "#sandbox-table", TableView.class);
        WaitForAsyncUtils.waitFor(
                20,
                TimeUnit.SECONDS,
                () -> fx(() -> table.getSelectionModel().getSelectedItem() instanceof RepositoryStatus.Sandbox s
                        && s.id().equals(group + "-custom-1")));
    }

    @Test
    void tabLeavesTheTaskForTheCommandInsteadOfTypingATab(FxRobot robot) throws Exception {
        openDialog(robot);
        TextArea task = robot.lookup("#new-sandbox-task").queryAs(TextArea.class);
        robot.clickOn("#new-sandbox-task").write("Tidy up");

        robot.press(KeyCode.TAB).release(KeyCode.TAB);

        assertThat(fx(() -> task.getText())).isEqualTo("Tidy up");
        assertThat(fx(() -> task.getScene().getFocusOwner().getId())).isEqualTo("new-sandbox-command");
    }

    @Test
    void theBranchNameFollowsTheTaskUntilEdited(FxRobot robot) throws Exception {
        openDialog(robot);
        TextField branch = robot.lookup("#new-sandbox-branch").queryAs(TextField.class);
        robot.clickOn("#new-sandbox-task").write("Fix the auth timeout");
        assertThat(branch.getText()).isEqualTo("agent/fix-auth-timeout");
        robot.write(" in login");
        assertThat(branch.getText()).isEqualTo("agent/fix-auth-timeout"); // slug keeps three words
        robot.interact(
                () -> robot.lookup("#new-sandbox-task").queryAs(TextArea.class).setText("Speed up search"));
        assertThat(branch.getText()).isEqualTo("agent/speed-up-search");

        robot.clickOn(branch).press(KeyCode.END).release(KeyCode.END).write("-v2");
        assertThat(branch.getText()).isEqualTo("agent/speed-up-search-v2");
        robot.interact(
                () -> robot.lookup("#new-sandbox-task").queryAs(TextArea.class).setText("Something else"));
        assertThat(branch.getText()).isEqualTo("agent/speed-up-search-v2");
    }

    @Test
    void aSuggestedBranchThatExistsGetsASuffix(FxRobot robot) throws Exception {
        panel.repo.branch("agent/speed-up-search");
        openDialog(robot);
        robot.interact(
                () -> robot.lookup("#new-sandbox-task").queryAs(TextArea.class).setText("Speed up search"));
        assertThat(robot.lookup("#new-sandbox-branch").queryAs(TextField.class).getText())
                .isEqualTo("agent/speed-up-search-2");
    }

    @Test
    void anInvalidBranchNameIsExplainedInlineAndDisablesCreate(FxRobot robot) throws Exception {
        openDialog(robot);
        robot.clickOn("#new-sandbox-task").write("Tidy up");
        setCommand(robot, "true");
        Button create = robot.lookup("#new-sandbox-create").queryAs(Button.class);
        Label check = robot.lookup("#new-sandbox-branch-check").queryAs(Label.class);
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> !create.isDisabled());

        TextField branch = robot.lookup("#new-sandbox-branch").queryAs(TextField.class);
        robot.clickOn(branch).press(KeyCode.END).release(KeyCode.END).write("..lock");

        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, create::isDisabled);
        // Create goes off as soon as the text changes; the check (git check-ref-format) answers a moment later.
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> check.getText().contains("agent/tidy-up..lock"));
        assertThat(check.getText()).contains("not a valid branch name");
        assertThat(check.getStyleClass()).contains("pd-field-error");

        robot.interact(() -> branch.setText("agent/tidy-up-ok"));
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> !create.isDisabled());
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> check.getText().contains("A new branch agent/tidy-up-ok"));
    }

    @Test
    void aBranchCheckedOutElsewhereIsRefusedInline(FxRobot robot) throws Exception {
        openDialog(robot);
        robot.clickOn("#new-sandbox-task").write("Work on main");
        setCommand(robot, "echo hi");
        TextField branch = robot.lookup("#new-sandbox-branch").queryAs(TextField.class);
        robot.interact(() -> branch.setText("main"));

        Button create = robot.lookup("#new-sandbox-create").queryAs(Button.class);
        Label check = robot.lookup("#new-sandbox-branch-check").queryAs(Label.class);
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, create::isDisabled);
        assertThat(fx(check::getText))
                .isEqualTo("The branch main is checked out in " + panel.repo.dir()
                        + "; git allows a branch in one worktree only.");
        robot.interact(() -> branch.setText("feature/payments"));
        WaitForAsyncUtils.waitFor(
                5,
                TimeUnit.SECONDS,
                () -> fx(check::getText).equals("The branch feature/payments exists: the sandbox continues on it."));
        assertThat(create.isDisabled()).isFalse();
    }

    @Test
    void anErrorFromCreationIsShownInTheDialogAndNothingTypedIsLost(FxRobot robot) throws Exception {
        openDialog(robot);
        robot.clickOn("#new-sandbox-task").write("Build on payments");
        setCommand(robot, "echo hi");
        robot.interact(() -> robot.lookup("#new-sandbox-base")
                .queryAs(ComboBox.class)
                .getSelectionModel()
                .select("feature/payments"));
        // the base branch goes away after the dialog listed it
        panel.repo.git("branch", "-D", "feature/payments");

        Button create = robot.lookup("#new-sandbox-create").queryAs(Button.class);
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> !create.isDisabled());
        robot.clickOn(create);

        javafx.scene.Node box = robot.lookup("#new-sandbox-error").query();
        Label message = node(robot, "#new-sandbox-error .pd-error-message", Label.class);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> fx(box::isVisible));
        assertThat(fx(message::getText)).isEqualTo("\"feature/payments\" names no commit in " + panel.repo.dir() + ".");
        assertThat(robot.lookup("#new-sandbox-dialog").tryQuery()).isPresent();
        assertThat(robot.lookup("#new-sandbox-task").queryAs(TextArea.class).getText())
                .isEqualTo("Build on payments");
        assertThat(robot.lookup("#new-sandbox-command").queryAs(TextField.class).getText())
                .isEqualTo("echo hi");
        assertThat(panel.host
                        .wiring()
                        .sandboxService()
                        .listOpen(panel.vm.currentProperty().get().id()))
                .isEmpty();
        // the whole message shows (the form above it gives way)
        assertThat(fx(() -> message.getHeight() >= message.prefHeight(message.getWidth()) - 1))
                .isTrue();

        // the details unfold
        robot.clickOn("#new-sandbox-error .toggle-button");
        TextArea details = robot.lookup("#new-sandbox-error .text-area").queryAs(TextArea.class);
        assertThat(details.isVisible()).isTrue();
        assertThat(details.getText()).contains("GitException");

        // fixed and tried again
        robot.interact(() -> robot.lookup("#new-sandbox-base")
                .queryAs(ComboBox.class)
                .getSelectionModel()
                .select("main"));
        robot.clickOn(create);
        WaitForAsyncUtils.waitFor(
                20,
                TimeUnit.SECONDS,
                () -> fx(() -> robot.lookup("#new-sandbox-dialog").tryQuery().isEmpty()));
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(() -> panel.vm.dashboard().sandboxes().stream()
                        .anyMatch(s -> s.branch().equals("agent/build-payments"))));
    }

    @Test
    void theNamespaceTierIsOfferedWhenBubblewrapWorksHere(FxRobot robot) throws Exception {
        BubblewrapProbe.Status probe = new BubblewrapProbe().probe();
        openDialog(robot);
        RadioButton namespace = robot.lookup("#tier-namespace").queryAs(RadioButton.class);
        Label problem = robot.lookup("#tier-namespace-problem").queryAs(Label.class);
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(() -> problem.getText() == null || !problem.getText().startsWith("Checking")));

        assertThat(namespace.isDisabled()).isEqualTo(!probe.usable());
        assertThat(problem.isVisible()).isEqualTo(!probe.usable());
        if (probe.usable()) {
            robot.clickOn(namespace);
            assertThat(robot.lookup("#new-sandbox-network")
                            .queryAs(javafx.scene.control.CheckBox.class)
                            .isDisabled())
                    .isFalse();
        }
    }

    @Test
    void withoutBubblewrapTheNamespaceTierIsDisabledAndSaysWhy(FxRobot robot) throws Exception {
        // The real probe and tier check, pointed at a bwrap that is not there.
        SandboxBackend backend = panel.host
                .wiring()
                .sandboxBackend(new TierChecks(TestRuntimes.with(
                        new BubblewrapProbe(temp.resolve("no-such-bwrap").toString()), ContainerAgents.none())));
        NewSandboxViewModel form = new NewSandboxViewModel(backend, panel.repo.dir(), "main", UiExecutor.io());
        robot.interact(() -> new NewSandboxDialog(form, stage).show());

        RadioButton namespace = node(robot, "#tier-namespace", RadioButton.class);
        Label problem = robot.lookup("#tier-namespace-problem").queryAs(Label.class);
        WaitForAsyncUtils.waitFor(
                10, TimeUnit.SECONDS, () -> fx(() -> !problem.getText().startsWith("Checking")));
        assertThat(namespace.isDisabled()).isTrue();
        assertThat(problem.isVisible()).isTrue();
        assertThat(problem.getText()).contains("bwrap is not installed");
        assertThat(fx(() -> form.tierProperty().get())).isEqualTo(Tier.WORKTREE);
    }

    @Test
    void theFormBuildsTheRequestFromWhatWasChosen(FxRobot robot) throws Exception {
        openDialog(robot);
        robot.clickOn("#new-sandbox-task").write("Port the CLI");
        setCommand(robot, "  ./agent.sh  ");
        robot.interact(() -> {
            robot.lookup("#new-sandbox-base")
                    .queryAs(ComboBox.class)
                    .getSelectionModel()
                    .select("feature/payments");
            robot.lookup("#new-sandbox-lease")
                    .queryAs(javafx.scene.control.Spinner.class)
                    .getValueFactory()
                    .setValue(5);
            robot.lookup("#new-sandbox-retries")
                    .queryAs(javafx.scene.control.Spinner.class)
                    .getValueFactory()
                    .setValue(0);
        });
        NewSandboxDialog dialog =
                (NewSandboxDialog) robot.lookup("#new-sandbox-dialog").query().getUserData();
        var request = fx(() -> dialog.viewModel().request());
        assertThat(request.task()).isEqualTo("Port the CLI");
        assertThat(request.agentCommand()).isEqualTo("./agent.sh");
        assertThat(request.baseBranch()).isEqualTo("feature/payments");
        assertThat(request.branch()).isEqualTo("agent/port-cli");
        assertThat(request.leaseMs()).isEqualTo(5 * 60_000L);
        assertThat(request.maxRetries()).isZero();
        assertThat(request.tier()).isEqualTo(Tier.WORKTREE);
        assertThat(request.network()).isFalse();

        robot.press(KeyCode.CONTROL, KeyCode.ENTER).release(KeyCode.ENTER, KeyCode.CONTROL);
        WaitForAsyncUtils.waitFor(
                20,
                TimeUnit.SECONDS,
                () -> fx(() -> robot.lookup("#new-sandbox-dialog").tryQuery().isEmpty()));
        SandboxRecord made = panel.host
                .wiring()
                .sandboxService()
                .listOpen(panel.vm.currentProperty().get().id())
                .get(0);
        assertThat(made.workspace().baseBranch()).isEqualTo("feature/payments");
        assertThat(made.lease().ms()).isEqualTo(5 * 60_000L);
        assertThat(made.run().maxRetries()).isZero();
    }
}
