package dev.paddock.ui.mergequeue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.Host;
import dev.paddock.merge.MergeEntry;
import dev.paddock.merge.MergeService;
import dev.paddock.merge.MergeState;
import dev.paddock.settings.PaddockHome;
import dev.paddock.testing.TableCells;
import dev.paddock.testing.TempRepo;
import dev.paddock.ui.shell.MainWindow;
import dev.paddock.ui.shell.ShellViewModel;
import dev.paddock.ui.theme.Theme;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableCell;
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

/**
 * The whole panel over a real Paddock (store, merge queue on its threads, git repository, test command): the merge
 * queue tab shows a branch in its testing step with times that tick, a second one queued at position 1, cancels the
 * first with its Cancel button (base keeps nothing of it), shows the second merged in the history with its commit,
 * and retries the first with Ctrl+Shift+R until it is merged too.
 */
@ExtendWith(ApplicationExtension.class)
class MergeQueueViewTest {
    private static final Pattern TOTAL = Pattern.compile("(\\d+):(\\d\\d) in all");

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
        repo = TempRepo.init(temp.resolve("project")).excludeWorktreesDir();
        repo.commitFile("README.md", "project\n", "Add README");
        host = Host.start(PaddockHome.resolve(temp.resolve("home"), Map.of()), "panel");
    }

    @AfterEach
    void close() throws Exception {
        WaitForAsyncUtils.asyncFx(stage::hide).get(60, TimeUnit.SECONDS);
        vm.close();
    }

    static <T> T fx(Callable<T> c) throws Exception {
        return WaitForAsyncUtils.asyncFx(c).get(30, TimeUnit.SECONDS);
    }

    /** A branch from main with one commit adding {@code file}. */
    private String branch(String name, String file) {
        repo.git("branch", name, "main");
        Path wt = repo.addWorktreeOnBranch(temp.resolve("wt-" + name.replace('/', '-')), name);
        TempRepo.write(wt, file, name + "\n");
        String tip = TempRepo.commitAll(wt, "Add " + file);
        repo.removeWorktree(wt, true);
        return tip;
    }

    private MergeService merges() {
        return host.wiring().merges();
    }

    private MergeEntry entry(long id) throws Exception {
        return merges().get(id);
    }

    void waitFor(String what, int seconds, Callable<Boolean> condition) throws Exception {
        try {
            WaitForAsyncUtils.waitFor(seconds, TimeUnit.SECONDS, condition);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError(
                    "timed out waiting until " + what + "; entries: " + merges().list(repo.dir(), 20), e);
        }
    }

    private static String text(FxRobot robot, String id) throws Exception {
        return fx(() -> robot.lookup("#" + id).queryAs(Label.class).getText());
    }

    /** The text of the cell in column {@code columnId} of entry {@code id}'s row in table {@code tableId}. */
    private static Optional<String> cell(FxRobot robot, String tableId, String columnId, long id) throws Exception {
        return fx(() -> robot.lookup("#" + tableId)
                .lookup((Node n) -> n instanceof TableCell<?, ?> c
                        && TableCells.shown(c)
                        && c.getTableColumn() != null
                        && columnId.equals(c.getTableColumn().getId())
                        && c.getTableRow().getItem() instanceof QueueRow r
                        && r.id() == id)
                .tryQuery()
                .map(n -> {
                    TableCell<?, ?> c = (TableCell<?, ?>) n;
                    return c.getGraphic() instanceof Label l
                            ? l.getText()
                            : "merge-col-branch".equals(columnId) ? QueueTables.branchOf(c) : c.getText();
                }));
    }

    private static int totalSeconds(String text) {
        Matcher m = TOTAL.matcher(text);
        assertThat(m.matches()).as(text).isTrue();
        return Integer.parseInt(m.group(1)) * 60 + Integer.parseInt(m.group(2));
    }

    @Test
    void showsTheRunningStepAndTheQueueCancelsMergesAndRetries(FxRobot robot) throws Exception {
        Path release = temp.resolve("release");
        String slowTip = branch("agent/slow", "slow.txt");
        branch("agent/next", "next.txt");
        // The slow branch's test waits until the file release exists; the other's passes at once.
        merges().configure(
                        repo.dir(),
                        null,
                        "while [ -e slow.txt ] && [ ! -e '" + release + "' ]; do sleep 0.2; done",
                        120_000L,
                        3);
        String before = repo.git("rev-parse", "main").strip();

        WaitForAsyncUtils.asyncFx(() -> {
                    MainWindow window = new MainWindow(vm, Theme.LIGHT);
                    Scene scene = new Scene(window, 1280, 800);
                    Theme.LIGHT.apply(scene);
                    window.installShortcuts(scene);
                    stage.setScene(scene);
                    // The stage is shared with the tests run before: its size is set, not left from theirs (a 600 px
                    // high
                    // one left the history table below the window, where no click could reach it).
                    stage.setWidth(1280);
                    stage.setHeight(800);
                    stage.show();
                })
                .get(60, TimeUnit.SECONDS); // generous: this machine's tests share two cores with other builds
        vm.start(CompletableFuture.completedFuture(host.panel()), repo.dir()).get(90, TimeUnit.SECONDS);

        robot.press(KeyCode.CONTROL, KeyCode.DIGIT4).release(KeyCode.DIGIT4, KeyCode.CONTROL);
        Tab tab = fx(() -> robot.lookup(".tab-pane")
                .queryAs(TabPane.class)
                .getSelectionModel()
                .getSelectedItem());
        assertThat(tab.getId()).as("Ctrl+4").isEqualTo("tab-merge-queue");
        waitFor(
                "the empty state shows",
                30,
                () -> fx(() ->
                        robot.lookup("#" + MergeQueueView.EMPTY_ID).query().isVisible()));
        assertThat(fx(tab::getText)).isEqualTo("Merge queue (0)");

        MergeEntry slow = merges().enqueueBranch(repo.dir(), "agent/slow", "tester");
        waitFor(
                "agent/slow shows in its testing step",
                60,
                () -> "testing".equals(text(robot, RunningCard.STEP_ID))
                        && fx(() ->
                                robot.lookup("#" + RunningCard.STEP_ID).query().isVisible()));
        assertThat(text(robot, RunningCard.BRANCH_ID)).isEqualTo("agent/slow");
        assertThat(text(robot, RunningCard.META_ID)).contains("#" + slow.id());
        assertThat(text(robot, RunningCard.ATTEMPT_ID)).contains("attempt 1 of 3");
        assertThat(fx(() -> robot.lookup("#" + MergeQueueView.EMPTY_ID).query().isVisible()))
                .isFalse();
        int first = totalSeconds(text(robot, RunningCard.TOTAL_TIME_ID));
        waitFor("the elapsed time ticks", 15, () -> totalSeconds(text(robot, RunningCard.TOTAL_TIME_ID)) >= first + 2);
        assertThat(text(robot, RunningCard.STEP_TIME_ID)).matches("\\d+:\\d\\d testing");
        waitFor(
                "its test log can be opened",
                10,
                () -> fx(() -> !robot.lookup("#" + RunningCard.LOG_ID)
                        .queryAs(Button.class)
                        .isDisabled()));

        MergeEntry next = merges().enqueueBranch(repo.dir(), "agent/next", "tester");
        waitFor(
                "agent/next is queued at position 1",
                30,
                () -> cell(robot, QueueTables.QUEUED_ID, "merge-col-position", next.id())
                        .filter("1"::equals)
                        .isPresent());
        assertThat(cell(robot, QueueTables.QUEUED_ID, "merge-col-branch", next.id()))
                .contains("agent/next");
        assertThat(fx(tab::getText)).isEqualTo("Merge queue (2)");

        robot.clickOn("#" + RunningCard.CANCEL_ID);
        waitFor(
                "agent/slow is cancelled in the store",
                60,
                () -> entry(slow.id()).state() == MergeState.CANCELLED);
        MergeEntry cancelled = entry(slow.id());
        assertThat(cancelled.attempt().mergeCommit()).isNull();
        assertThat(TempRepo.run(repo.dir(), "merge-base", "--is-ancestor", slowTip, "main")
                        .exitCode())
                .as("base has nothing of the cancelled branch")
                .isNotZero();

        waitFor("agent/next is merged", 60, () -> entry(next.id()).state() == MergeState.MERGED);
        MergeEntry merged = entry(next.id());
        assertThat(merged.attempt().baseBefore())
                .as("base was unchanged by the cancel")
                .isEqualTo(before);
        assertThat(repo.git("rev-parse", "main").strip())
                .isEqualTo(merged.attempt().mergeCommit());
        waitFor(
                "the history shows agent/next merged with its commit",
                30,
                () -> cell(robot, QueueTables.HISTORY_ID, "merge-col-commit", next.id())
                        .filter(merged.attempt().mergeCommit().substring(0, QueueText.SHORT_COMMIT)::equals)
                        .isPresent());
        assertThat(cell(robot, QueueTables.HISTORY_ID, "merge-col-state", next.id()))
                .contains("merged");
        assertThat(cell(robot, QueueTables.HISTORY_ID, "merge-col-state", slow.id()))
                .contains("cancelled");
        assertThat(fx(tab::getText)).isEqualTo("Merge queue (0)");
        assertThat(fx(() -> robot.lookup("#" + RunningCard.IDLE_ID).query().isVisible()))
                .as("nothing runs")
                .isTrue();
        assertThat(fx(() -> robot.lookup("#" + RunningCard.BRANCH_ID)
                        .query()
                        .getParent()
                        .getParent()
                        .isVisible()))
                .isFalse();

        Files.writeString(release, "go\n");
        // Clicked again (at most five times) while the retry button stays off, in case a reload of the history lands
        // with the click.
        for (int click = 0; click < 5; click++) {
            Node cancelledRow = fx(() -> robot.lookup("#" + QueueTables.HISTORY_ID)
                    .lookup((Node n) -> n instanceof TableCell<?, ?> c
                            && TableCells.shown(c)
                            && c.getTableColumn() != null
                            && "merge-col-branch".equals(c.getTableColumn().getId())
                            && c.getTableRow().getItem() instanceof QueueRow r
                            && r.id() == slow.id())
                    .query());
            robot.clickOn(cancelledRow);
            try {
                waitFor(
                        "the retry button is enabled",
                        2,
                        () -> fx(() -> !robot.lookup("#" + MergeQueueView.RETRY_ID)
                                .queryAs(Button.class)
                                .isDisabled()));
                break;
            } catch (AssertionError stillOff) {
                if (click == 4) {
                    throw stillOff;
                }
            }
        }
        robot.press(KeyCode.CONTROL, KeyCode.SHIFT, KeyCode.R).release(KeyCode.R, KeyCode.SHIFT, KeyCode.CONTROL);

        waitFor(
                "agent/slow is merged after the retry",
                90,
                () -> entry(slow.id()).state() == MergeState.MERGED);
        MergeEntry retried = entry(slow.id());
        assertThat(retried.attemptsMade()).isEqualTo(1);
        waitFor(
                "the history shows agent/slow merged",
                30,
                () -> cell(robot, QueueTables.HISTORY_ID, "merge-col-state", slow.id())
                        .filter("merged"::equals)
                        .isPresent());
        assertThat(cell(robot, QueueTables.HISTORY_ID, "merge-col-commit", slow.id()))
                .contains(retried.attempt().mergeCommit().substring(0, QueueText.SHORT_COMMIT));
        assertThat(TempRepo.run(repo.dir(), "merge-base", "--is-ancestor", slowTip, "main")
                        .exitCode())
                .isZero();
    }
}
