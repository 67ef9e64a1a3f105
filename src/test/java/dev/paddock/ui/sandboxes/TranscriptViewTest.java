package dev.paddock.ui.sandboxes;

import static dev.paddock.ui.sandboxes.Panel.fx;
import static dev.paddock.ui.sandboxes.Panel.node;
import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.approval.ApprovalRequest;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.testing.ClaudeStreamLog;
import dev.paddock.ui.sandboxes.TranscriptRow.Kind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.TabPane;
import javafx.scene.input.KeyCode;
import javafx.scene.input.ScrollEvent;
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
 * The Transcript tab in the real panel at 1366×768: a Claude Code sandbox (the real CLI, which stops at once without
 * a login) whose log the test grows with 2,000 stream-json events in the CLI's shape, and two of whose tool calls
 * Paddock's broker decides. Nodes are looked up on the FX thread while the test waits.
 */
@ExtendWith(ApplicationExtension.class)
class TranscriptViewTest {
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
        Files.createDirectories(panel.repo.dir().resolve(".paddock"));
        Files.writeString(panel.repo.dir().resolve(".paddock/policy.json"), dev.paddock.testing.BrokerRig.POLICY);
    }

    @AfterEach
    void closePanel() throws Exception {
        panel.close();
    }

    @Test
    void theTranscriptOpensAtItsEndFollowsItAndShowsDecisionsResultsAndErrors(FxRobot robot) throws Exception {
        SandboxRecord s = SandboxDetailsViewModelTest.endedClaudeSandbox(panel.host, panel.repo);
        Path log = panel.host.wiring().sandboxService().logFile(s.id());
        ClaudeStreamLog agent = ClaudeStreamLog.newSession();
        List<String> lines = new ArrayList<>(agent.conversation(s.workspace().worktreePath(), 2_000, 5));
        lines.addAll(List.of(
                agent.text("Cleaning the build, then checking the tree."),
                agent.bash("toolu_clean", "rm -rf build"),
                agent.toolResult("toolu_clean", "PreToolUse:Bash hook error: Paddock: rm -rf is denied", true),
                agent.bash("toolu_status", "git status"),
                agent.toolResult("toolu_status", "On branch main\nnothing to commit, working tree clean", false)));
        SandboxDetailsViewModelTest.append(log, lines);
        panel.host
                .wiring()
                .approvals()
                .decide(new ApprovalRequest(
                        s.id(), "Bash", "rm -rf build", s.workspace().worktree(), agent.session(), "toolu_clean"));
        panel.host
                .wiring()
                .approvals()
                .decide(new ApprovalRequest(
                        s.id(), "Bash", "git status", s.workspace().worktree(), agent.session(), "toolu_status"));
        panel.show(1366, 768);
        panel.select(robot, s.id());

        // An agent preset: the Transcript tab comes first and shows.
        TabPane tabs = node(robot, "#sandbox-details-tabs", TabPane.class);
        WaitForAsyncUtils.waitFor(
                5,
                TimeUnit.SECONDS,
                () -> fx(() -> tabs.getTabs().get(0).getId().equals("details-tab-transcript")
                        && tabs.getSelectionModel().getSelectedIndex() == 0));
        @SuppressWarnings("unchecked")
        ListView<TranscriptRow> list = node(robot, "#" + TranscriptPane.LIST_ID, ListView.class);
        TranscriptPane pane = fx(() -> (TranscriptPane) list.getParent().getParent());
        WaitForAsyncUtils.waitFor(
                20,
                TimeUnit.SECONDS,
                () -> fx(() -> list.getItems().size() > 2_000
                        && list.getItems()
                                .get(list.getItems().size() - 1)
                                .text()
                                .startsWith("On branch main")));
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> fx(pane::lastRowShows));
        assertThat(fx(() -> robot.lookup("#sandbox-transcript-latest")
                        .queryAs(Button.class)
                        .isVisible()))
                .isFalse();

        // The policy's decisions, on the calls they decided (read about once a second).
        int denied = fx(() -> indexOf(list, "rm -rf build"));
        int allowed = fx(() -> indexOf(list, "git status"));
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(() -> list.getItems().get(denied).decision() != null
                        && list.getItems().get(allowed).decision() != null));
        ListCell<?> deniedCell = visibleCell(robot, list, denied);
        assertThat(fx(() -> robot.from(deniedCell)
                        .lookup(".pd-transcript-decision")
                        .queryAs(Label.class)
                        .getText()))
                .isEqualTo("denied");
        Label reason =
                fx(() -> robot.from(deniedCell).lookup(".pd-transcript-reason").queryAs(Label.class));
        assertThat(fx(reason::isVisible)).isTrue();
        assertThat(fx(reason::getText)).contains("rm -rf");
        ListCell<?> allowedCell = visibleCell(robot, list, allowed);
        assertThat(fx(() -> robot.from(allowedCell)
                        .lookup(".pd-transcript-decision")
                        .queryAs(Label.class)
                        .getText()))
                .isEqualTo("allowed");
        ListCell<?> failed = visibleCell(robot, list, denied + 1);
        assertThat(fx(() -> failed.getStyleClass().contains("pd-transcript-error")))
                .as("the failed result is marked")
                .isTrue();
        Label summary = node(robot, "#sandbox-transcript-summary", Label.class);
        assertThat(fx(summary::getText))
                .contains(" calls (1 denied) · ")
                .contains(" errors · ")
                .contains(" tokens · $");
        assertThat(fx(() -> summary.getTooltip().getText())).contains(" runs: ").contains(" tokens in, ");

        // Enter shows the last result whole, and hides it again.
        int last = fx(() -> list.getItems().size() - 1);
        visibleCell(robot, list, last);
        robot.interact(() -> {
            list.requestFocus();
            list.getSelectionModel().clearAndSelect(last);
            list.getFocusModel().focus(last);
        });
        robot.type(KeyCode.ENTER);
        WaitForAsyncUtils.waitFor(
                5, TimeUnit.SECONDS, () -> fx(() -> list.getItems().get(last).expanded()));
        assertThat(fx(() -> texts(robot, list))).contains("On branch main\nnothing to commit, working tree clean");
        robot.type(KeyCode.ENTER);
        WaitForAsyncUtils.waitFor(
                5, TimeUnit.SECONDS, () -> fx(() -> !list.getItems().get(last).expanded()));

        // A click on a result shows it too.
        ListCell<?> lastCell = visibleCell(robot, list, last);
        robot.clickOn(
                fx(() -> robot.from(lastCell).lookup(".pd-transcript-kind").queryAs(Label.class)));
        WaitForAsyncUtils.waitFor(
                5, TimeUnit.SECONDS, () -> fx(() -> list.getItems().get(last).expanded()));

        // Scrolled up, the list stays put while rows arrive, and says how many came.
        wheelUp(robot, list, 30);
        assertThat(fx(pane::lastRowShows)).isFalse();
        Button latest = robot.lookup("#sandbox-transcript-latest").queryAs(Button.class);
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> fx(latest::isVisible));
        SandboxDetailsViewModelTest.append(
                log, agent.conversation(s.workspace().worktreePath(), 30, 9).subList(1, 30));
        WaitForAsyncUtils.waitFor(
                10, TimeUnit.SECONDS, () -> fx(latest::getText).startsWith("29 new"));
        assertThat(fx(pane::lastRowShows)).as("stays where the person is").isFalse();
        // In the summary line beside the tabs' names: whole, and over no row of the list.
        assertThat(fx(() -> inside(
                        latest, robot.lookup("#sandbox-transcript-summary-bar").query())))
                .as("the button shows whole in the summary line")
                .isTrue();
        assertThat(fx(() -> overlaps(latest, list)))
                .as("the button at " + latest.localToScene(latest.getBoundsInLocal()) + " covers no row of the list at "
                        + list.localToScene(list.getBoundsInLocal()))
                .isFalse();

        // Ctrl+End: the latest row, followed again.
        robot.interact(list::requestFocus);
        robot.press(KeyCode.CONTROL, KeyCode.END).release(KeyCode.END, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(pane::lastRowShows)).isTrue();
        assertThat(fx(latest::isVisible)).isFalse();
        SandboxDetailsViewModelTest.append(log, List.of(agent.text("One more thing, at the very end.")));
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(() -> list.getItems()
                        .get(list.getItems().size() - 1)
                        .text()
                        .equals("One more thing, at the very end.")));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(pane::lastRowShows)).as("follows the new row").isTrue();

        // Page Down goes by a screen, also past a result shown whole that is taller than the list.
        int tall = fx(() -> {
            for (int i = list.getItems().size() / 2; i < list.getItems().size(); i++) {
                TranscriptRow r = list.getItems().get(i);
                if (r.kind() == Kind.TOOL_RESULT
                        && r.detail() != null
                        && r.detail().lines().count() > 30) {
                    return i;
                }
            }
            throw new AssertionError("no long result");
        });
        visibleCell(robot, list, tall);
        robot.interact(() -> {
            list.requestFocus();
            list.getSelectionModel().clearAndSelect(tall);
            list.getFocusModel().focus(tall);
        });
        robot.type(KeyCode.ENTER);
        WaitForAsyncUtils.waitFor(
                5, TimeUnit.SECONDS, () -> fx(() -> list.getItems().get(tall).expanded()));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(() -> robot.from(list)
                        .lookup((ListCell<?> c) -> c.getIndex() == tall)
                        .queryAs(ListCell.class)
                        .getHeight()))
                .as("taller than the list")
                .isGreaterThan(fx(list::getHeight));
        for (int i = 0; i < 8; i++) {
            robot.type(KeyCode.PAGE_DOWN);
        }
        WaitForAsyncUtils.waitFor(
                5, TimeUnit.SECONDS, () -> fx(() -> list.getFocusModel().getFocusedIndex() > tall));

        // Another sandbox and back: the transcript is read again and opens at its end again.
        SandboxRecord other = panel.create("Say hi", "echo hi; exit 0");
        panel.waitForState(other.id(), "done", 20);
        for (int round = 0; round < 3; round++) {
            panel.select(robot, other.id());
            WaitForAsyncUtils.waitFor(
                    10, TimeUnit.SECONDS, () -> fx(() -> list.getItems().size() < 100));
            panel.select(robot, s.id());
            WaitForAsyncUtils.waitFor(
                    20,
                    TimeUnit.SECONDS,
                    () -> fx(() -> list.getItems().size() > 2_000
                            && list.getItems()
                                    .get(list.getItems().size() - 1)
                                    .text()
                                    .equals("One more thing, at the very end.")));
            WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> fx(pane::lastRowShows));
        }

        // At 1366×768 the tabs and the summary line show whole.
        for (String id : List.of(
                "#details-tab-transcript",
                "#details-tab-log",
                "#details-tab-history",
                "#details-tab-changes",
                "#details-tab-checkpoints")) {
            Node header = fx(() -> tabs.lookupAll(".tab").stream()
                    .filter(t -> id.equals("#" + t.getId()))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no tab header " + id)));
            assertThat(fx(() -> inside(header, tabs))).as(id + " shows whole").isTrue();
        }
        assertThat(fx(() -> summary.getWidth() >= summary.prefWidth(-1) - 0.5))
                .as("the summary fits")
                .isTrue();
        Node lastTab = fx(() -> tabs.lookupAll(".tab").stream()
                .filter(t -> "details-tab-checkpoints".equals(t.getId()))
                .findFirst()
                .orElseThrow());
        assertThat(fx(() -> summary.localToScene(summary.getBoundsInLocal()).getMinX()
                        > lastTab.localToScene(lastTab.getBoundsInLocal()).getMaxX()))
                .as("beside the tabs' names")
                .isTrue();
        assertThat(fx(() -> summary.localToScene(summary.getBoundsInLocal()).getMaxY()
                        <= list.localToScene(list.getBoundsInLocal()).getMinY()))
                .as("above the list")
                .isTrue();
        assertThat(fx(() -> list.getHeight())).as("rows to read").isGreaterThan(80);
    }

    @Test
    void goingFromOneShortTranscriptToAnotherOpensEachAtItsEnd(FxRobot robot) throws Exception {
        List<SandboxRecord> both = new ArrayList<>();
        for (long seed : new long[] {21, 22}) {
            SandboxRecord s = SandboxDetailsViewModelTest.endedClaudeSandbox(panel.host, panel.repo);
            ClaudeStreamLog agent = ClaudeStreamLog.newSession();
            List<String> lines =
                    new ArrayList<>(agent.conversation(s.workspace().worktreePath(), 30, seed));
            lines.add(agent.text("The last words of " + s.id() + ": the tests pass, and the fix is committed on this"
                    + " branch for review. Nothing else was changed; the build folder is ignored by git."));
            SandboxDetailsViewModelTest.append(
                    panel.host.wiring().sandboxService().logFile(s.id()), lines);
            both.add(s);
        }
        panel.show(1366, 768);
        panel.select(robot, both.get(0).id());
        @SuppressWarnings("unchecked")
        ListView<TranscriptRow> list = node(robot, "#" + TranscriptPane.LIST_ID, ListView.class);
        TranscriptPane pane = fx(() -> (TranscriptPane) list.getParent().getParent());
        for (int round = 0; round < 6; round++) {
            SandboxRecord s = both.get(round % 2);
            panel.select(robot, s.id());
            WaitForAsyncUtils.waitFor(
                    10,
                    TimeUnit.SECONDS,
                    () -> fx(() -> !list.getItems().isEmpty()
                            && list.getItems()
                                    .get(list.getItems().size() - 1)
                                    .text()
                                    .startsWith("The last words of " + s.id())));
            try {
                WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> fx(pane::lastRowShowsWhole));
            } catch (java.util.concurrent.TimeoutException e) {
                throw new AssertionError("round " + round + ": the last row of " + s.id() + " does not show whole", e);
            }
        }
    }

    @Test
    void aCustomCommandsSandboxOpensOnItsLogFirst(FxRobot robot) throws Exception {
        SandboxRecord s = panel.create("Say hi", "echo 'hi from the custom command'; sleep 300");
        panel.show(1366, 768);
        panel.waitForState(s.id(), "running", 20);
        panel.select(robot, s.id());

        TabPane tabs = node(robot, "#sandbox-details-tabs", TabPane.class);
        WaitForAsyncUtils.waitFor(
                5,
                TimeUnit.SECONDS,
                () -> fx(() -> tabs.getTabs().get(0).getId().equals("details-tab-log")
                        && tabs.getSelectionModel().getSelectedIndex() == 0));
        assertThat(fx(() -> tabs.getTabs().get(1).getId())).isEqualTo("details-tab-transcript");

        robot.clickOn("Transcript");
        @SuppressWarnings("unchecked")
        ListView<TranscriptRow> list = node(robot, "#" + TranscriptPane.LIST_ID, ListView.class);
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(() -> list.getItems().stream()
                        .anyMatch(r -> r.kind() == Kind.OUTPUT && r.text().equals("hi from the custom command"))));
    }

    /** Clicks the sandbox's row until the table has it selected (a click on a row being replaced can miss). */
    private static int indexOf(ListView<TranscriptRow> list, String callText) {
        for (int i = list.getItems().size() - 1; i >= 0; i--) {
            TranscriptRow r = list.getItems().get(i);
            if (r.kind() == Kind.TOOL_CALL && r.text().equals(callText)) {
                return i;
            }
        }
        throw new AssertionError("no call " + callText);
    }

    /** The texts of the rows on screen (their labels), one string. */
    private static String texts(FxRobot robot, ListView<TranscriptRow> list) {
        StringBuilder b = new StringBuilder();
        robot.from(list).lookup(".label").queryAllAs(Label.class).stream()
                .filter(Node::isVisible)
                .forEach(l -> b.append(l.getText()).append('\n'));
        return b.toString();
    }

    /** The cell showing row {@code index}, once it is on screen whole (moved there as a person would scroll). */
    private static ListCell<?> visibleCell(FxRobot robot, ListView<TranscriptRow> list, int index) throws Exception {
        javafx.scene.control.skin.VirtualFlow<?> flow =
                fx(() -> (javafx.scene.control.skin.VirtualFlow<?>) list.lookup(".virtual-flow"));
        // A turn of the wheel first: the person takes the list over (it stops pulling itself to its end).
        wheelUp(robot, list, 1);
        robot.interact(() -> flow.scrollTo(index));
        for (int attempt = 0; attempt < 10; attempt++) {
            WaitForAsyncUtils.waitForFxEvents();
            ListCell<?> cell = fx(() -> robot.from(list)
                    .lookup((ListCell<?> c) -> c.getIndex() == index && c.isVisible())
                    .tryQuery()
                    .map(ListCell.class::cast)
                    .orElse(null));
            if (cell == null) {
                robot.interact(() -> flow.scrollTo(index));
                continue;
            }
            double below = fx(() -> cell.localToScene(cell.getBoundsInLocal()).getMaxY()
                    - flow.localToScene(flow.getBoundsInLocal()).getMaxY());
            double above = fx(() -> flow.localToScene(flow.getBoundsInLocal()).getMinY()
                    - cell.localToScene(cell.getBoundsInLocal()).getMinY());
            if (below <= 0.5 && above <= 0.5) {
                return cell;
            }
            robot.interact(() -> flow.scrollPixels(below > 0.5 ? below : -above));
        }
        throw new AssertionError("row " + index + " could not be brought on screen whole");
    }

    /**
     * Turns the mouse wheel up over the list, {@code notches} times. Monocle's headless robot makes no wheel events,
     * so this fires the ones the wheel would (at the list's centre, as the person's pointer would be).
     */
    private static void wheelUp(FxRobot robot, ListView<TranscriptRow> list, int notches) throws Exception {
        Node flow = fx(() -> list.lookup(".virtual-flow"));
        for (int i = 0; i < notches; i++) {
            robot.interact(() -> {
                Bounds b = flow.localToScene(flow.getBoundsInLocal());
                double x = b.getCenterX();
                double y = b.getCenterY();
                javafx.geometry.Point2D screen = flow.localToScreen(
                        flow.getLayoutBounds().getWidth() / 2,
                        flow.getLayoutBounds().getHeight() / 2);
                javafx.event.Event.fireEvent(
                        flow,
                        new ScrollEvent(
                                ScrollEvent.SCROLL,
                                x,
                                y,
                                screen.getX(),
                                screen.getY(),
                                false,
                                false,
                                false,
                                false,
                                false,
                                false,
                                0,
                                40,
                                0,
                                40,
                                ScrollEvent.HorizontalTextScrollUnits.NONE,
                                0,
                                ScrollEvent.VerticalTextScrollUnits.NONE,
                                0,
                                0,
                                null));
            });
        }
        WaitForAsyncUtils.waitForFxEvents();
    }

    /** Whether the two nodes share more than an edge on screen. */
    private static boolean overlaps(Node n, Node other) {
        Bounds a = n.localToScene(n.getBoundsInLocal());
        Bounds b = other.localToScene(other.getBoundsInLocal());
        double w = Math.min(a.getMaxX(), b.getMaxX()) - Math.max(a.getMinX(), b.getMinX());
        double h = Math.min(a.getMaxY(), b.getMaxY()) - Math.max(a.getMinY(), b.getMinY());
        return w > 0.5 && h > 0.5;
    }

    private static boolean inside(Node n, Node container) {
        Bounds b = n.localToScene(n.getBoundsInLocal());
        Bounds c = container.localToScene(container.getBoundsInLocal());
        return b.getWidth() > 0
                && c.contains(b.getMinX() + 0.5, b.getMinY() + 0.5)
                && c.contains(b.getMaxX() - 0.5, b.getMaxY() - 0.5);
    }
}
