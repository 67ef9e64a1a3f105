package dev.paddock.ui.sandboxes;

import static dev.paddock.ui.sandboxes.Panel.fx;
import static dev.paddock.ui.sandboxes.Panel.node;
import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.checkpoint.Checkpoint;
import dev.paddock.diff.FileChange;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.testing.TempRepo;
import dev.paddock.ui.diff.DiffViewModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
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

/** The Checkpoints tab of the real panel as a timeline: the diff of one or two checkpoints, and a rollback. */
@ExtendWith(ApplicationExtension.class)
class CheckpointTimelineTest {
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
    }

    @AfterEach
    void closePanel() throws Exception {
        panel.close();
    }

    @Test
    void theTimelineShowsTheDiffOfOneOrTwoCheckpointsAndRollsBackAfterSayingWhatChanges(FxRobot robot)
            throws Exception {
        SandboxRecord s = panel.create("Keep checkpoints", "echo one > notes.txt; sleep 300");
        panel.show();
        panel.waitForState(s.id(), "running", 20);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> Panel.exists(Panel.inWorktree(s, "notes.txt")));
        var checkpoints = panel.host.wiring().checkpoints();
        checkpoints.checkpoint(s.id(), "first notes", null, "test");
        Files.writeString(Panel.inWorktree(s, "more.txt"), "more\n");
        checkpoints.checkpoint(s.id(), "turn ended", 2, "test");
        Files.writeString(Panel.inWorktree(s, "notes.txt"), "one\ntwo\n");
        Files.writeString(Panel.inWorktree(s, "later.txt"), "after the last checkpoint\n");
        robot.clickOn(Panel.tableRow(robot, s.id()));
        robot.clickOn("Checkpoints");
        CheckpointTimeline timeline = node(robot, "#" + CheckpointTimeline.ID, CheckpointTimeline.class);
        ListView<Checkpoint> list = fx(timeline::list);
        WaitForAsyncUtils.waitFor(
                10, TimeUnit.SECONDS, () -> fx(() -> list.getItems().size() == 2));
        CheckpointTimelineViewModel vm =
                fx(() -> panel.vm.dashboard().sandboxPanel().details().timeline());
        DiffViewModel diff = vm.diff();

        // One checkpoint: its change against the one before it (checkpoint 2 added more.txt).
        robot.clickOn(cell(robot, list, 0));
        waitForFiles(diff, List.of("more.txt"));
        assertThat(fx(() -> robot.lookup("#sandbox-checkpoints-status")
                        .queryAs(Label.class)
                        .getText()))
                .isEqualTo("Checkpoint 2 against the one before it");
        // The first: against the sandbox's base.
        robot.clickOn(cell(robot, list, 1));
        waitForFiles(diff, List.of("notes.txt"));

        // Two (Ctrl-click): the older against the newer.
        robot.press(javafx.scene.input.KeyCode.CONTROL);
        robot.clickOn(cell(robot, list, 0));
        robot.release(javafx.scene.input.KeyCode.CONTROL);
        WaitForAsyncUtils.waitFor(
                5, TimeUnit.SECONDS, () -> fx(() -> vm.chosenProperty().get().equals(List.of(1, 2))));
        waitForFiles(diff, List.of("more.txt"));
        assertThat(fx(() -> vm.comparingProperty().get())).isEqualTo("Checkpoint 1 → checkpoint 2");
        assertThat(fx(() -> vm.canRollBackProperty().get())).isFalse();

        // Roll back to checkpoint 1, from the panel: the confirmation lists what changes.
        robot.clickOn(cell(robot, list, 1));
        WaitForAsyncUtils.waitFor(
                5, TimeUnit.SECONDS, () -> fx(() -> vm.canRollBackProperty().get()));
        robot.press(javafx.scene.input.KeyCode.CONTROL, javafx.scene.input.KeyCode.SHIFT, javafx.scene.input.KeyCode.B)
                .release(
                        javafx.scene.input.KeyCode.B,
                        javafx.scene.input.KeyCode.SHIFT,
                        javafx.scene.input.KeyCode.CONTROL);
        Node dialog = node(robot, "#rollback-dialog", Node.class);
        assertThat(fx(() ->
                        robot.lookup("#rollback-summary").queryAs(Label.class).getText()))
                .isEqualTo("3 files change: 1 written back (changed since), 0 restored (deleted since),"
                        + " 2 removed (added since).");
        @SuppressWarnings("unchecked")
        ListView<String> paths = fx(() -> robot.lookup("#rollback-paths").queryAs(ListView.class));
        assertThat(fx(() -> List.copyOf(paths.getItems())))
                .containsExactly("written back   notes.txt", "removed        later.txt", "removed        more.txt");
        assertThat(fx(() -> robot.lookup("#rollback-agent").queryAs(Label.class).getText()))
                .contains("stopped first");
        assertThat(fx(() -> robot.lookup("#rollback-undo").queryAs(Label.class).getText()))
                .contains("checkpoint 3");
        assertThat(fx(() ->
                        robot.lookup("#rollback-branch").queryAs(Label.class).getText()))
                .contains("commits are left alone");
        assertThat(fx(() -> robot.lookup("#rollback-reset-branch").query().isVisible()))
                .as("the branch has not moved since checkpoint 1: nothing to reset")
                .isFalse();
        assertThat(dialog.isVisible()).isTrue();

        robot.clickOn("#rollback-confirm");

        WaitForAsyncUtils.waitFor(
                20, TimeUnit.SECONDS, () -> fx(() -> vm.noticeProperty().get() != null));
        assertThat(fx(() -> vm.noticeProperty().get()))
                .startsWith("Rolled back to checkpoint 1: 1 file written, 2 removed; its agent was stopped.")
                .contains("Undo: roll back to checkpoint 3.");
        assertThat(Files.readString(Panel.inWorktree(s, "notes.txt"))).isEqualTo("one\n");
        assertThat(Panel.inWorktree(s, "more.txt")).doesNotExist();
        assertThat(Panel.inWorktree(s, "later.txt")).doesNotExist();
        WaitForAsyncUtils.waitFor(
                10, TimeUnit.SECONDS, () -> fx(() -> list.getItems().size() == 3));
        panel.waitForState(s.id(), "awaiting_human", 15);

        // A commit on the branch since checkpoint 1: the confirmation offers to move the branch back too.
        Path wt = Panel.inWorktree(s, ".");
        String start = TempRepo.git(wt, "rev-parse", "HEAD").strip();
        Files.writeString(Panel.inWorktree(s, "committed.txt"), "committed after the checkpoints\n");
        TempRepo.git(wt, "add", "committed.txt");
        TempRepo.git(wt, "-c", "user.name=t", "-c", "user.email=t@x", "commit", "-q", "-m", "later");
        robot.clickOn(cell(robot, list, 2));
        WaitForAsyncUtils.waitFor(
                5, TimeUnit.SECONDS, () -> fx(() -> vm.canRollBackProperty().get()));
        robot.press(javafx.scene.input.KeyCode.CONTROL, javafx.scene.input.KeyCode.SHIFT, javafx.scene.input.KeyCode.B)
                .release(
                        javafx.scene.input.KeyCode.B,
                        javafx.scene.input.KeyCode.SHIFT,
                        javafx.scene.input.KeyCode.CONTROL);
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(() -> robot.lookup("#rollback-reset-branch")
                        .tryQuery()
                        .map(Node::isVisible)
                        .orElse(false)));
        robot.clickOn("#rollback-reset-branch");
        assertThat(fx(() ->
                        robot.lookup("#rollback-branch").queryAs(Label.class).getText()))
                .contains("The branch goes back to " + start.substring(0, 8));
        robot.clickOn("#rollback-confirm");

        WaitForAsyncUtils.waitFor(
                20,
                TimeUnit.SECONDS,
                () -> fx(() -> vm.noticeProperty().get() != null
                        && vm.noticeProperty().get().contains("branch was reset")));
        assertThat(TempRepo.git(wt, "rev-parse", "HEAD").strip()).isEqualTo(start);
        assertThat(Panel.inWorktree(s, "committed.txt")).doesNotExist();
    }

    private static Node cell(FxRobot robot, ListView<Checkpoint> list, int index) throws Exception {
        Checkpoint c = fx(() -> list.getItems().get(index));
        WaitForAsyncUtils.waitFor(
                5,
                TimeUnit.SECONDS,
                () -> fx(() -> robot.from(list)
                        .lookup((java.util.function.Predicate<Node>)
                                n -> n instanceof javafx.scene.control.ListCell<?> cell && cell.getItem() == c)
                        .tryQuery()
                        .isPresent()));
        return fx(() -> robot.from(list)
                .lookup((java.util.function.Predicate<Node>)
                        n -> n instanceof javafx.scene.control.ListCell<?> cell && cell.getItem() == c)
                .query());
    }

    private static void waitForFiles(DiffViewModel diff, List<String> paths) throws Exception {
        try {
            WaitForAsyncUtils.waitFor(
                    15,
                    TimeUnit.SECONDS,
                    () -> fx(() -> !diff.loadingProperty().get()
                            && diff.files().stream()
                                    .map(FileChange::path)
                                    .toList()
                                    .equals(paths)));
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError(
                    "the diff lists "
                            + fx(() ->
                                    diff.files().stream().map(FileChange::path).toList()) + ", not " + paths
                            + "; error: " + fx(() -> diff.errorProperty().get()),
                    e);
        }
    }
}
