package dev.paddock.ui.sandboxes;

import static dev.paddock.ui.sandboxes.Panel.fx;
import static dev.paddock.ui.sandboxes.Panel.node;
import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.status.RepositoryStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.Labeled;
import javafx.scene.control.ListView;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.input.KeyCode;
import javafx.stage.PopupWindow;
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

/** The sandboxes tab of the real panel: row actions, keys, and the details pane, with real agents. */
@ExtendWith(ApplicationExtension.class)
class SandboxesViewTest {
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

    /** Clicks the sandbox's row until it alone is selected (a click that lands while the table reloads is lost). */
    private void select(FxRobot robot, String id) throws Exception {
        for (int attempt = 1; ; attempt++) {
            robot.clickOn(Panel.tableRow(robot, id));
            try {
                WaitForAsyncUtils.waitFor(
                        3,
                        TimeUnit.SECONDS,
                        () -> fx(() -> panel.vm
                                .dashboard()
                                .sandboxPanel()
                                .selectedIds()
                                .equals(List.of(id))));
                return;
            } catch (java.util.concurrent.TimeoutException e) {
                if (attempt == 3) {
                    throw e;
                }
            }
        }
    }

    /**
     * Right-clicks a node. A right click reaches JavaFX as a CONTEXT_MENU_REQUESTED event, which Monocle's
     * headless platform does not make from a mouse button; this fires that same event at the node.
     */
    private static void openContextMenu(FxRobot robot, Node node) {
        robot.clickOn(node);
        robot.interact(() -> {
            javafx.geometry.Bounds b = node.localToScene(node.getBoundsInLocal());
            double x = b.getMinX() + 20;
            double y = b.getCenterY();
            javafx.geometry.Point2D screen = node.localToScreen(20, b.getHeight() / 2);
            javafx.event.Event.fireEvent(
                    node,
                    new javafx.scene.input.ContextMenuEvent(
                            javafx.scene.input.ContextMenuEvent.CONTEXT_MENU_REQUESTED,
                            x,
                            y,
                            screen.getX(),
                            screen.getY(),
                            false,
                            new javafx.scene.input.PickResult(node, x, y)));
        });
    }

    /** The item of the open context menu with this text. */
    private static Node menuItem(FxRobot robot, String text) throws Exception {
        WaitForAsyncUtils.waitFor(
                5,
                TimeUnit.SECONDS,
                () -> robot.lookup(n -> n instanceof Labeled l
                                && text.equals(l.getText())
                                && n.getScene().getWindow() instanceof PopupWindow)
                        .tryQuery()
                        .isPresent());
        return robot.lookup(n -> n instanceof Labeled l
                        && text.equals(l.getText())
                        && n.getScene().getWindow() instanceof PopupWindow)
                .query();
    }

    @Test
    void stopFromTheContextMenuKillsTheAgentAndLeavesTheSandboxAwaitingAPerson(FxRobot robot) throws Exception {
        SandboxRecord s = panel.create("Wait a long time", "sleep 300");
        panel.show();
        panel.waitForState(s.id(), "running", 20);
        long pid = panel.host
                .wiring()
                .sandboxes()
                .find(s.id())
                .orElseThrow()
                .runRef()
                .pid();

        openContextMenu(robot, Panel.tableRow(robot, s.id()));
        robot.clickOn(menuItem(robot, "Stop"));

        panel.waitForState(s.id(), "awaiting_human", 15);
        assertThat(panel.row(s.id()).orElseThrow().lastError()).startsWith("stopped by");
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true));
        Label status = robot.lookup("#sandbox-action-status").queryAs(Label.class);
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> ("Stopped " + s.id() + ".").equals(status.getText()));
        // The note goes after a while (it would otherwise stay for the rest of the session).
        WaitForAsyncUtils.waitFor(
                (long) SandboxesView.NOTICE_FOR.toSeconds() + 5,
                TimeUnit.SECONDS,
                () -> fx(() -> status.getText() == null || status.getText().isEmpty()));
    }

    @Test
    void aLongTaskShowsOnTwoLinesInTheDetailsHeader(FxRobot robot) throws Exception {
        String task = "Refactor the JsonReader so that lenient parsing of unquoted names, single-quoted strings and NaN"
                + " literals is controlled by one Strictness setting instead of three booleans, keep binary"
                + " compatibility for the deprecated setters, and add tests for each mode, including the odd cases"
                + " of comments, unquoted values and a top-level value that is not an object or an array";
        SandboxRecord s = panel.create(task, "sleep 300");
        panel.show();
        panel.waitForState(s.id(), "running", 20);
        select(robot, s.id());

        Label label = node(robot, "#sandbox-details-task", Label.class);
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> task.equals(fx(label::getText)));
        double line = fx(() -> label.getFont().getSize() * 1.2);
        // The label takes its second line once its width is known: a layout pass or two after it shows.
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> fx(label::getHeight) > 1.8 * line);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(label::getHeight)).as("two lines of the task").isGreaterThan(1.8 * line);
        javafx.scene.text.Text text = fx(() -> (javafx.scene.text.Text) label.lookup(".text"));
        String drawn = fx(text::getText);
        double textHeight = fx(() -> text.getLayoutBounds().getHeight());
        assertThat(textHeight)
                .as("the drawn text, two lines: " + drawn + " in " + fx(label::getWidth) + "x" + fx(label::getHeight))
                .isGreaterThan(1.8 * line);
        assertThat(fx(() -> label.getTooltip().isWrapText()))
                .as("the tooltip wraps")
                .isTrue();
    }

    @Test
    void keysStopAndRetryTheSelectedSandbox(FxRobot robot) throws Exception {
        SandboxRecord s = panel.create("Wait again", "sleep 300");
        panel.show();
        panel.waitForState(s.id(), "running", 20);
        select(robot, s.id());

        robot.press(KeyCode.CONTROL, KeyCode.PERIOD).release(KeyCode.PERIOD, KeyCode.CONTROL);
        panel.waitForState(s.id(), "awaiting_human", 15);

        robot.press(KeyCode.CONTROL, KeyCode.SHIFT, KeyCode.R).release(KeyCode.R, KeyCode.SHIFT, KeyCode.CONTROL);
        panel.waitForState(s.id(), "running", 15);
        assertThat(panel.host
                        .wiring()
                        .sandboxes()
                        .find(s.id())
                        .orElseThrow()
                        .run()
                        .iteration())
                .isEqualTo(2);
    }

    @Test
    void theDetailsPaneFollowsTheLogAndShowsHistoryAndChanges(FxRobot robot) throws Exception {
        SandboxRecord s = panel.create(
                "Write notes",
                "echo 'hello from the agent'; echo notes > notes.txt;"
                        + " echo more >> README.md; rm src/App.java; sleep 1; echo 'second line, later'; sleep 300");
        panel.show();
        panel.waitForState(s.id(), "running", 20);
        select(robot, s.id());

        TextArea log = node(robot, "#sandbox-log", TextArea.class);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> fx(log::getText).contains("hello from the agent"));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> fx(log::getText).contains("second line, later"));
        assertThat(fx(() -> robot.lookup("#sandbox-details-title")
                        .queryAs(Label.class)
                        .getText()))
                .isEqualTo(s.id());
        // The task shows whole above the tabs (the table's Task column gives way first on a small screen).
        Label task = robot.lookup("#sandbox-details-task").queryAs(Label.class);
        assertThat(fx(task::getText)).isEqualTo("Write notes");
        assertThat(fx(() -> ((javafx.scene.text.Text) task.lookup(".text")).getText()))
                .as("drawn without an ellipsis")
                .isEqualTo("Write notes");

        robot.clickOn("History");
        @SuppressWarnings("unchecked")
        ListView<dev.paddock.events.Event> history = node(robot, "#sandbox-history", ListView.class);
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(
                        () -> history.getItems().stream().anyMatch(e -> e.kind().equals("sandbox.created"))));
        assertThat(fx(() -> history.getItems().get(0).id()
                        > history.getItems().get(history.getItems().size() - 1).id()))
                .as("newest first")
                .isTrue();

        // The Changes tab: the diff itself, as the diff window shows it.
        robot.clickOn("Changes");
        ChangesPane changes = node(robot, "#" + ChangesPane.ID, ChangesPane.class);
        WaitForAsyncUtils.waitFor(
                20,
                TimeUnit.SECONDS,
                () -> fx(() -> changes.diff() != null && changes.diff().files().size() == 3));
        assertThat(fx(() -> changes.diff().files().stream()
                        .map(f -> f.kind() + " " + f.path())
                        .toList()))
                .as("in the tree's order: folders first")
                .containsExactly("DELETED src/App.java", "MODIFIED README.md", "ADDED notes.txt");
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(() -> changes.lookup("#diff-caption") instanceof Label l
                        && l.getText().startsWith("src/App.java")));
        assertThat(fx(() -> ((Label) changes.lookup("#diff-summary")).getText()))
                .startsWith("3 files · +");

        // Read again when the worktree's set of changed files moves (the details' poll sees it).
        Panel.inWorktree(s, "later.txt").toFile().createNewFile();
        WaitForAsyncUtils.waitFor(
                20, TimeUnit.SECONDS, () -> fx(() -> changes.diff().files().size() == 4));
        // And when a file already changed changes again (the set of files stays the same).
        int added = fx(() -> changes.diff().diffProperty().get().totalAdded());
        Files.writeString(Panel.inWorktree(s, "README.md"), "one more line\n", java.nio.file.StandardOpenOption.APPEND);
        WaitForAsyncUtils.waitFor(
                20,
                TimeUnit.SECONDS,
                () -> fx(() -> changes.diff().diffProperty().get().totalAdded() == added + 1));

        // "Open in window": the whole review, on the file shown here.
        fx(
                () -> { // (the tree may have scrolled it out of this small pane's view)
                    changes.diff()
                            .selectedProperty()
                            .set(changes.diff().files().stream()
                                    .filter(f -> f.path().equals("notes.txt"))
                                    .findFirst()
                                    .orElseThrow());
                    return null;
                });
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(() -> changes.diff().selectedProperty().get() != null
                        && changes.diff().selectedProperty().get().path().equals("notes.txt")));
        int windows = fx(() -> javafx.stage.Window.getWindows().size());
        robot.clickOn("#sandbox-changes-open");
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(() -> javafx.stage.Window.getWindows().size() == windows + 1));
        javafx.stage.Stage window = fx(() -> (javafx.stage.Stage) javafx.stage.Window.getWindows().stream()
                .filter(w -> w instanceof javafx.stage.Stage st
                        && st.getTitle() != null
                        && st.getTitle().startsWith("Changes: "))
                .findFirst()
                .orElseThrow());
        dev.paddock.ui.diff.DiffViewModel opened = dev.paddock.ui.diff.DiffWindow.modelOf(window);
        WaitForAsyncUtils.waitFor(
                20,
                TimeUnit.SECONDS,
                () -> fx(() -> opened.selectedProperty().get() != null
                        && opened.selectedProperty().get().path().equals("notes.txt")));
        WaitForAsyncUtils.asyncFx(window::close).get(10, TimeUnit.SECONDS);
    }

    @Test
    void theCheckpointsTabListsTheSandboxsCheckpointsNewestFirst(FxRobot robot) throws Exception {
        SandboxRecord s = panel.create("Keep checkpoints", "echo one > notes.txt; sleep 300");
        panel.show();
        panel.waitForState(s.id(), "running", 20);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> Panel.exists(Panel.inWorktree(s, "notes.txt")));
        panel.host.wiring().checkpoints().checkpoint(s.id(), "first notes", null, "test");
        Files.writeString(Panel.inWorktree(s, "more.txt"), "more\n");
        panel.host.wiring().checkpoints().checkpoint(s.id(), "turn ended", 2, "test");
        select(robot, s.id());

        robot.clickOn("Checkpoints");
        @SuppressWarnings("unchecked")
        ListView<dev.paddock.checkpoint.Checkpoint> list = node(robot, "#sandbox-checkpoints", ListView.class);
        WaitForAsyncUtils.waitFor(
                10, TimeUnit.SECONDS, () -> fx(() -> list.getItems().size() == 2));

        assertThat(fx(() -> list.getItems().stream().map(c -> c.number()).toList()))
                .containsExactly(2, 1);
        assertThat(fx(() -> DetailsLists.describe(list.getItems().get(0), java.time.Instant.now())))
                .startsWith("#2  ")
                .contains("turn ended (turn 2)  ·  1 added · 0 modified · 0 deleted");
        assertThat(fx(() -> DetailsLists.counts(list.getItems().get(0)))).isEqualTo("+1");
    }

    @Test
    void theLogStaysAtTheBottomUnlessThePersonScrolledUp(FxRobot robot) throws Exception {
        SandboxRecord s = panel.create(
                "Talk a lot",
                "i=0; while [ $i -lt 120 ]; do echo \"line $i\"; i=$((i+1)); done;"
                        + " while true; do echo \"tick $i\"; i=$((i+1)); sleep 0.3; done");
        panel.show();
        panel.waitForState(s.id(), "running", 20);
        select(robot, s.id());
        TextArea log = node(robot, "#sandbox-log", TextArea.class);
        SandboxDetailsView details = node(robot, "#sandbox-details", SandboxDetailsView.class);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> fx(log::getText).contains("tick 122"));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(details::isAtBottom)).as("follows the end").isTrue();

        robot.interact(() -> log.setScrollTop(0));
        String before = fx(log::getText);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> fx(log::getText).length() > before.length() + 20);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(log::getScrollTop)).as("stays where the person scrolled").isLessThan(1.0);
        assertThat(fx(details::isAtBottom)).isFalse();

        robot.interact(() -> {
            javafx.scene.control.ScrollPane sp = (javafx.scene.control.ScrollPane) log.lookup(".scroll-pane");
            sp.setVvalue(sp.getVmax());
        });
        String later = fx(log::getText);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> fx(log::getText).length() > later.length() + 20);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(details::isAtBottom)).as("follows again").isTrue();
    }

    @Test
    void deleteShowsAnUncommittedFileAndForceRemovesTheSandbox(FxRobot robot) throws Exception {
        SandboxRecord s = panel.create("Take notes", "echo notes > notes.txt; exit 0");
        panel.show();
        panel.waitForState(s.id(), "done", 20);
        select(robot, s.id());

        robot.press(KeyCode.DELETE).release(KeyCode.DELETE);

        RemovalDialog dialog =
                (RemovalDialog) node(robot, "#removal-dialog", Node.class).getUserData();
        assertThat(fx(dialog::getTitle)).isEqualTo("Remove " + s.id());
        WaitForAsyncUtils.waitFor(
                10, TimeUnit.SECONDS, () -> fx(() -> !dialog.viewModel().plans().isEmpty()));
        assertThat(treeTexts(robot)).contains("Uncommitted files (1)", "notes.txt  (untracked)");
        assertThat(fx(() -> dialog.getDialogPane().getButtonTypes()))
                .containsExactlyInAnyOrder(RemovalDialog.FORCE, RemovalDialog.COMMIT, RemovalDialog.KEEP);

        robot.clickOn("#removal-force");

        WaitForAsyncUtils.waitFor(
                20,
                TimeUnit.SECONDS,
                () -> fx(() -> robot.lookup("#removal-dialog").tryQuery().isEmpty()));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> panel.row(s.id()).isEmpty());
        assertThat(s.workspace().worktree()).doesNotExist();
        assertThat(panel.host
                        .wiring()
                        .sandboxes()
                        .find(s.id())
                        .orElseThrow()
                        .state()
                        .id())
                .isEqualTo("closed");
        assertThat(fx(() -> robot.lookup("#sandbox-action-status")
                        .queryAs(Label.class)
                        .getText()))
                .isEqualTo("Removed " + s.id() + ".");
    }

    @Test
    void commitAndRemoveKeepsTheWorkOnTheBranch(FxRobot robot) throws Exception {
        SandboxRecord s = panel.create("Write a plan", "echo 'step one' > plan.txt; exit 0");
        panel.show();
        panel.waitForState(s.id(), "done", 20);
        select(robot, s.id());

        robot.clickOn("#sandbox-remove");
        RemovalDialog dialog =
                (RemovalDialog) node(robot, "#removal-dialog", Node.class).getUserData();
        WaitForAsyncUtils.waitFor(
                10, TimeUnit.SECONDS, () -> fx(() -> !dialog.viewModel().plans().isEmpty()));
        robot.clickOn("#removal-commit");

        WaitForAsyncUtils.waitFor(
                40,
                TimeUnit.SECONDS,
                () -> fx(() -> robot.lookup("#removal-dialog").tryQuery().isEmpty()));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> panel.row(s.id()).isEmpty());
        assertThat(s.workspace().worktree()).doesNotExist();
        assertThat(panel.repo.git("show", s.workspace().branch() + ":plan.txt")).isEqualTo("step one\n");
    }

    @Test
    void severalCleanSandboxesAreRemovedTogether(FxRobot robot) throws Exception {
        SandboxRecord a = panel.create("First job", "exit 0");
        SandboxRecord b = panel.create("Second job", "exit 0");
        panel.show();
        panel.waitForState(a.id(), "done", 20);
        panel.waitForState(b.id(), "done", 20);

        select(robot, a.id());
        robot.press(KeyCode.CONTROL).clickOn(Panel.tableRow(robot, b.id())).release(KeyCode.CONTROL);
        WaitForAsyncUtils.waitFor(
                5,
                TimeUnit.SECONDS,
                () -> fx(() -> panel.vm.dashboard().sandboxPanel().selectedIds().size() == 2));
        robot.clickOn("#sandbox-remove");

        RemovalDialog dialog =
                (RemovalDialog) node(robot, "#removal-dialog", Node.class).getUserData();
        assertThat(fx(dialog::getTitle)).isEqualTo("Remove 2 sandboxes");
        WaitForAsyncUtils.waitFor(
                10, TimeUnit.SECONDS, () -> fx(() -> dialog.viewModel().plans().size() == 2));
        assertThat(fx(() ->
                        robot.lookup("#removal-summary").queryAs(Label.class).getText()))
                .isEqualTo("Nothing would be lost in any of the 2 sandboxes.");
        robot.clickOn("#removal-strict");

        WaitForAsyncUtils.waitFor(
                20,
                TimeUnit.SECONDS,
                () -> fx(() -> robot.lookup("#removal-dialog").tryQuery().isEmpty()));
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> panel.row(a.id()).isEmpty() && panel.row(b.id()).isEmpty());
        assertThat(a.workspace().worktree()).doesNotExist();
        assertThat(b.workspace().worktree()).doesNotExist();
        assertThat(fx(() -> robot.lookup("#sandbox-action-status")
                        .queryAs(Label.class)
                        .getText()))
                .isEqualTo("Removed 2 sandboxes.");
    }

    private static List<String> treeTexts(FxRobot robot) throws Exception {
        @SuppressWarnings("unchecked")
        javafx.scene.control.TreeView<String> tree =
                robot.lookup("#removal-plan").queryAs(javafx.scene.control.TreeView.class);
        return fx(() -> {
            List<String> out = new java.util.ArrayList<>();
            java.util.ArrayDeque<javafx.scene.control.TreeItem<String>> todo =
                    new java.util.ArrayDeque<>(tree.getRoot().getChildren());
            while (!todo.isEmpty()) {
                javafx.scene.control.TreeItem<String> i = todo.poll();
                out.add(i.getValue());
                todo.addAll(i.getChildren());
            }
            return out;
        });
    }

    @Test
    void theSelectionSurvivesRefreshesThatReplaceItsRow(FxRobot robot) throws Exception {
        // It ends when the test says so (a fixed sleep ended before the panel showed it running on a loaded machine).
        java.nio.file.Path release = panel.repo.dir().getParent().resolve("release-change-state");
        SandboxRecord s =
                panel.create("Change state soon", "while [ ! -e '" + release + "' ]; do sleep 0.1; done;" + " exit 0");
        panel.show();
        panel.waitForState(s.id(), "running", 20);
        select(robot, s.id());
        RepositoryStatus.Sandbox running = panel.row(s.id()).orElseThrow();
        java.nio.file.Files.writeString(release, "go\n");

        panel.waitForState(s.id(), "done", 20);
        WaitForAsyncUtils.waitForFxEvents();
        TableView<?> table = robot.lookup("#sandbox-table").queryAs(TableView.class);
        assertThat(fx(() -> table.getSelectionModel().getSelectedItem()))
                .isNotEqualTo(running)
                .isEqualTo(panel.row(s.id()).orElseThrow());
        assertThat(fx(() -> panel.vm
                        .dashboard()
                        .sandboxPanel()
                        .details()
                        .sandboxProperty()
                        .get()
                        .state()))
                .isEqualTo("done");
    }

    @Test
    void openTerminalStartsTheFirstTerminalInTheWorktreeOrSaysNoneIsInstalled(FxRobot robot) throws Exception {
        SandboxRecord s = panel.create("Look around", "exit 0");
        Path bin = java.nio.file.Files.createDirectories(temp.resolve("bin"));
        Path record = temp.resolve("terminal-cwd.txt");
        RepositoryStatus.Sandbox row = new RepositoryStatus.Sandbox(
                s.id(),
                s.spec().task(),
                "worktree",
                "done",
                s.workspace().branch(),
                s.workspace().worktreePath(),
                s.createdAt(),
                null,
                null,
                null,
                0,
                0,
                null);
        javafx.collections.ObservableList<RepositoryStatus.Sandbox> rows =
                javafx.collections.FXCollections.observableArrayList(row);
        SandboxesViewModel vm = new SandboxesViewModel(
                rows,
                dev.paddock.ui.common.UiExecutor.io(),
                new dev.paddock.ui.common.DesktopOpener(false, bin.toString()));
        robot.interact(() -> {
            javafx.scene.Scene scene = new javafx.scene.Scene(
                    new SandboxesView(vm, new javafx.beans.property.SimpleObjectProperty<>(java.time.Instant.now())),
                    1000,
                    600);
            dev.paddock.ui.theme.Theme.LIGHT.apply(scene);
            stage.setScene(scene);
            stage.show();
        });
        select(robot, vm, s.id());

        robot.clickOn("#sandbox-open-terminal");
        Node box = robot.lookup("#sandbox-action-error").query();
        Label message = node(robot, "#sandbox-action-error .pd-error-message", Label.class);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> fx(box::isVisible));
        assertThat(fx(message::getText)).startsWith("Cannot open a terminal: No terminal found");

        java.nio.file.Path xterm = bin.resolve("xterm");
        java.nio.file.Files.writeString(xterm, "#!/bin/sh\npwd > '" + record + "'\n");
        xterm.toFile().setExecutable(true);
        robot.press(KeyCode.CONTROL, KeyCode.T).release(KeyCode.T, KeyCode.CONTROL);
        WaitForAsyncUtils.waitFor(
                10, TimeUnit.SECONDS, () -> java.nio.file.Files.exists(record) && java.nio.file.Files.size(record) > 0);
        assertThat(java.nio.file.Files.readString(record).strip())
                .isEqualTo(s.workspace().worktreePath());
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> fx(() -> !box.isVisible()));
        assertThat(fx(() -> robot.lookup("#sandbox-action-status")
                        .queryAs(Label.class)
                        .getText()))
                .isEqualTo("Opened xterm in " + s.workspace().worktreePath() + ".");
    }

    private void select(FxRobot robot, SandboxesViewModel vm, String id) throws Exception {
        robot.clickOn(Panel.tableRow(robot, id));
        WaitForAsyncUtils.waitFor(
                5, TimeUnit.SECONDS, () -> fx(() -> vm.selectedIds().equals(List.of(id))));
    }
}
