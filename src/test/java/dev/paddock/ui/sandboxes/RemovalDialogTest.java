package dev.paddock.ui.sandboxes;

import static dev.paddock.ui.sandboxes.Panel.fx;
import static dev.paddock.ui.sandboxes.Panel.node;
import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.sandbox.RemovalPlan;
import dev.paddock.ui.common.UiExecutor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeView;
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
 * The removal dialog's contents and choices for every kind of plan, built here (SandboxesViewTest takes
 * real plans of real sandboxes through it); removing goes to the real services of a running Paddock.
 */
@ExtendWith(ApplicationExtension.class)
class RemovalDialogTest {
    private static final RemovalPlan LOSES_WORK = new RemovalPlan(
            "fix-auth-20261130-001",
            true,
            true,
            List.of("?? notes.txt", " M README.md"),
            List.of("abc1234 Add notes"),
            false,
            null);
    private static final RemovalPlan CLEAN =
            new RemovalPlan("docs-20261130-001", false, true, List.of(), List.of(), true, null);
    private static final RemovalPlan LOCKED =
            new RemovalPlan("locked-20261130-001", false, true, List.of(), List.of(), false, "agent at work");

    @TempDir
    Path temp;

    private Stage stage;
    private Panel panel;

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @BeforeEach
    void startPaddock() throws Exception {
        panel = Panel.start(temp, stage);
        panel.show();
    }

    @AfterEach
    void closePanel() throws Exception {
        panel.close();
    }

    private RemovalDialog show(FxRobot robot, RemovalPlan... plans) throws Exception {
        RemovalViewModel vm =
                RemovalViewModel.withPlans(panel.host.panel().sandboxes(), List.of(plans), UiExecutor.io());
        RemovalDialog dialog = fx(() -> {
            RemovalDialog d = new RemovalDialog(vm, stage);
            d.show();
            return d;
        });
        node(robot, "#removal-dialog", javafx.scene.Node.class);
        return dialog;
    }

    private static List<String> treeTexts(FxRobot robot) throws Exception {
        @SuppressWarnings("unchecked")
        TreeView<String> tree = robot.lookup("#removal-plan").queryAs(TreeView.class);
        return fx(() -> {
            List<String> out = new ArrayList<>();
            collect(tree.getRoot(), out);
            return out;
        });
    }

    private static void collect(TreeItem<String> item, List<String> out) {
        for (TreeItem<String> c : item.getChildren()) {
            out.add(c.getValue());
            collect(c, out);
        }
    }

    private static List<String> buttons(RemovalDialog d) throws Exception {
        return fx(() -> d.getDialogPane().getButtonTypes().stream()
                .map(ButtonType::getText)
                .toList());
    }

    @Test
    void aRemovalThatWouldLoseWorkListsItAndKeepsByDefault(FxRobot robot) throws Exception {
        RemovalDialog d = show(robot, LOSES_WORK);

        assertThat(fx(() ->
                        robot.lookup("#removal-summary").queryAs(Label.class).getText()))
                .contains("fix-auth-20261130-001 would lose work");
        assertThat(treeTexts(robot))
                .contains(
                        "fix-auth-20261130-001  —  2 uncommitted files, 1 commit not in the base branch, its agent runs: it is"
                                + " stopped first",
                        "Uncommitted files (2)",
                        "notes.txt  (untracked)",
                        "README.md  (modified)",
                        "Commits not in the base branch (1)",
                        "abc1234 Add notes");
        assertThat(buttons(d)).containsExactlyInAnyOrder("Force remove", "Commit and remove", "Keep");
        assertThat(fx(() -> ((Button) d.getDialogPane().lookupButton(RemovalDialog.KEEP)).isDefaultButton()))
                .isTrue();

        CheckBox deleteBranch = robot.lookup("#removal-delete-branch").queryAs(CheckBox.class);
        assertThat(deleteBranch.isSelected()).isFalse();
        Label warning = robot.lookup("#removal-branch-warning").queryAs(Label.class);
        assertThat(warning.isVisible()).isFalse();
        Button commit = (Button) d.getDialogPane().lookupButton(RemovalDialog.COMMIT);
        assertThat(commit.isDisabled()).isFalse();
        robot.clickOn(deleteBranch);
        assertThat(warning.isVisible()).isTrue();
        assertThat(commit.isDisabled())
                .as("commit keeps the work on the branch: not with delete-branch")
                .isTrue();
    }

    @Test
    void aRemovalThatLosesNothingOffersAPlainRemove(FxRobot robot) throws Exception {
        RemovalDialog d = show(robot, CLEAN);

        assertThat(fx(() ->
                        robot.lookup("#removal-summary").queryAs(Label.class).getText()))
                .startsWith("Nothing would be lost");
        assertThat(buttons(d)).containsExactlyInAnyOrder("Remove", "Keep");
        assertThat(fx(() -> ((Button) d.getDialogPane().lookupButton(RemovalDialog.REMOVE)).isDefaultButton()))
                .isTrue();
        CheckBox deleteBranch = robot.lookup("#removal-delete-branch").queryAs(CheckBox.class);
        assertThat(deleteBranch.getText()).isEqualTo("The branch is merged: it is deleted with the worktree");
        assertThat(deleteBranch.isDisabled()).as("nothing to choose").isTrue();
    }

    @Test
    void aRemovalSaysWhichIgnoredFilesGoWithTheWorktree(FxRobot robot) throws Exception {
        RemovalPlan withBuildOutput = new RemovalPlan(
                "build-20261205-001",
                false,
                true,
                List.of(),
                List.of(),
                true,
                null,
                List.of(),
                "main",
                new dev.paddock.sandbox.IgnoredFiles(1204, false, List.of("node_modules/", "build/"), 0));
        show(robot, withBuildOutput);

        assertThat(fx(() ->
                        robot.lookup("#removal-summary").queryAs(Label.class).getText()))
                .startsWith("Nothing would be lost")
                .endsWith(" Removing also deletes 1,204 ignored files in node_modules/, build/ (git ignores them:"
                        + " build output and the like).");
        assertThat(treeTexts(robot))
                .contains("Also deletes 1,204 ignored files in node_modules/, build/: git ignores"
                        + " them (build output), so they are not counted as work");
    }

    @Test
    void removingSeveralOffersToTakeOnlyTheCleanOnes(FxRobot robot) throws Exception {
        RemovalDialog d = show(robot, LOSES_WORK, CLEAN);

        assertThat(fx(d::getTitle)).isEqualTo("Remove 2 sandboxes");
        assertThat(fx(() ->
                        robot.lookup("#removal-summary").queryAs(Label.class).getText()))
                .startsWith("1 of the 2 sandboxes hold work");
        assertThat(fx(() -> ((Button) d.getDialogPane().lookupButton(RemovalDialog.REMOVE)).getText()))
                .isEqualTo("Remove the clean ones (1)");
        assertThat(buttons(d)).contains("Force remove", "Commit and remove", "Keep");
        assertThat(treeTexts(robot)).contains("docs-20261130-001  —  nothing would be lost");
    }

    @Test
    void aLockedWorktreeIsOnlyForceRemoved(FxRobot robot) throws Exception {
        RemovalDialog d = show(robot, LOCKED);

        assertThat(fx(() ->
                        robot.lookup("#removal-summary").queryAs(Label.class).getText()))
                .isEqualTo(
                        "locked-20261130-001 loses nothing, but git has its worktree locked (\"agent at work\"): only"
                                + " Force remove takes it.");
        assertThat(buttons(d)).containsExactlyInAnyOrder("Force remove", "Keep");
        assertThat(treeTexts(robot))
                .contains("Locked (git worktree lock) (\"agent at work\"): a strict removal refuses" + " it");
    }

    @Test
    void aRemovalThatFailsIsExplainedInTheDialog(FxRobot robot) throws Exception {
        RemovalDialog d = show(robot, LOSES_WORK);

        robot.clickOn("#removal-force");

        javafx.scene.Node box = robot.lookup("#removal-error").query();
        Label message = robot.lookup("#removal-error .pd-error-message").queryAs(Label.class);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> fx(box::isVisible));
        assertThat(fx(message::getText)).startsWith("Could not remove fix-auth-20261130-001: ");
        assertThat(fx(d::isShowing)).isTrue();
        assertThat(fx(() -> d.viewModel().plans())).containsExactly(LOSES_WORK);
    }

    /**
     * A commit-and-remove that fails with a long message (here, for eight sandboxes Paddock does not know) in a
     * window of 1366 x 768: the dialog, sized when it opened, keeps its buttons in view and the whole message
     * readable (wrapped in a bounded area that scrolls, never cut with an ellipsis).
     */
    @Test
    void aLongFailureOfCommitAndRemoveKeepsTheButtonsInViewAndTheMessageWhole(FxRobot robot) throws Exception {
        WaitForAsyncUtils.asyncFx(() -> {
                    stage.setWidth(1366);
                    stage.setHeight(768);
                })
                .get(10, TimeUnit.SECONDS);
        List<RemovalPlan> plans = new ArrayList<>();
        for (int i = 1; i <= 8; i++) {
            plans.add(new RemovalPlan(
                    "submodule-edits-20261205-00" + i,
                    false,
                    true,
                    List.of(" M extern/click/README.md"),
                    List.of(),
                    false,
                    null));
        }
        RemovalDialog d = show(robot, plans.toArray(RemovalPlan[]::new));

        robot.clickOn("#removal-commit");

        javafx.scene.Node box = robot.lookup("#removal-error").query();
        Label message = robot.lookup("#removal-error .pd-error-message").queryAs(Label.class);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> fx(box::isVisible));
        WaitForAsyncUtils.waitForFxEvents();
        WaitForAsyncUtils.sleep(300, TimeUnit.MILLISECONDS);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(message::getText))
                .startsWith("Could not remove 8 sandboxes: submodule-edits-20261205-001: ")
                .hasSizeGreaterThan(400);
        List<String> problems = fx(() -> {
            List<String> out = new ArrayList<>();
            javafx.scene.Scene scene = d.getDialogPane().getScene();
            javafx.geometry.Bounds window = new javafx.geometry.BoundingBox(0, 0, scene.getWidth(), scene.getHeight());
            for (ButtonType t : d.getDialogPane().getButtonTypes()) {
                javafx.scene.Node b = d.getDialogPane().lookupButton(t);
                javafx.geometry.Bounds bb = b.localToScene(b.getLayoutBounds());
                if (!window.contains(bb)) {
                    out.add("button " + t.getText() + " at " + bb + " outside the dialog " + window);
                }
            }
            String drawn = message.getChildrenUnmodifiable().stream()
                    .filter(c -> c instanceof javafx.scene.text.Text && c != message.getGraphic())
                    .map(c -> ((javafx.scene.text.Text) c).getText())
                    .collect(java.util.stream.Collectors.joining());
            if (!drawn.replace("\n", " ").equals(message.getText().replace("\n", " "))) {
                out.add("the message is drawn cut: " + drawn);
            }
            double needed = message.prefHeight(message.getWidth());
            if (message.getHeight() + 0.5 < needed) {
                out.add("the message has " + message.getHeight() + " px of the " + needed + " it needs");
            }
            javafx.geometry.Bounds boxBounds = box.localToScene(box.getLayoutBounds());
            javafx.geometry.Bounds pane =
                    d.getDialogPane().localToScene(d.getDialogPane().getLayoutBounds());
            javafx.scene.Node bar = d.getDialogPane().lookup(".button-bar");
            javafx.geometry.Bounds barBounds = bar.localToScene(bar.getLayoutBounds());
            if (boxBounds.getMinY() > barBounds.getMinY()) {
                out.add("the error box starts at " + boxBounds.getMinY() + ", below the buttons at "
                        + barBounds.getMinY());
            }
            if (pane.getMaxY() > scene.getHeight() + 0.5) {
                out.add("the dialog's pane ends at " + pane.getMaxY() + " past its window's " + scene.getHeight());
            }
            return out;
        });
        assertThat(problems).isEmpty();
        assertThat(fx(d::isShowing)).isTrue();
    }
}
