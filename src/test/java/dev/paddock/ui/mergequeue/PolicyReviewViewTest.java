package dev.paddock.ui.mergequeue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.Host;
import dev.paddock.merge.MergeEntry;
import dev.paddock.merge.MergeService;
import dev.paddock.merge.MergeState;
import dev.paddock.settings.PaddockHome;
import dev.paddock.testing.TempRepo;
import dev.paddock.ui.shell.MainWindow;
import dev.paddock.ui.shell.ShellViewModel;
import dev.paddock.ui.theme.Theme;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableView;
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
 * The whole panel over a real Paddock (store, merge queue on its threads, git repository): a branch that changes
 * {@code .paddock/policy.json} shows in the merge queue tab as waiting for a review, with the diff of the policy file;
 * Approve stays disabled until the diff shows; Ctrl+Shift+A approves it and it is merged; a second one is rejected
 * from the keyboard alone (Tab to the Reject button, Space) and base keeps nothing of it.
 *
 * <p>With {@code -Dpaddock.screenshots=DIR} (under a real X display) it saves {@code import -window root} shots there.
 */
@ExtendWith(ApplicationExtension.class)
class PolicyReviewViewTest {
    private static final String STRICT =
            "{\"permissions\": {\"allow\": [\"Bash(git status)\"]}, \"unmatched\": \"deny\"}\n";

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
        repo.commitFile(".paddock/policy.json", STRICT, "Add the policy");
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

    private String branch(String name, String policy) {
        repo.git("branch", name, "main");
        Path wt = repo.addWorktreeOnBranch(temp.resolve("wt-" + name.replace('/', '-')), name);
        TempRepo.write(wt, ".paddock/policy.json", policy);
        String tip = TempRepo.commitAll(wt, "Change the policy");
        repo.removeWorktree(wt, true);
        return tip;
    }

    private MergeService merges() {
        return host.wiring().merges();
    }

    private void waitFor(String what, int seconds, Callable<Boolean> condition) throws Exception {
        try {
            WaitForAsyncUtils.waitFor(seconds, TimeUnit.SECONDS, condition);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError(
                    "timed out waiting until " + what + "; entries: " + merges().list(repo.dir(), 20), e);
        }
    }

    private static boolean disabled(FxRobot robot, String id) throws Exception {
        return fx(() -> robot.lookup("#" + id).queryAs(Button.class).isDisabled());
    }

    private static Node reviewRow(FxRobot robot, long id) throws Exception {
        return fx(() -> robot.lookup("#" + QueueTables.REVIEW_ID)
                .lookup((Node n) -> n instanceof TableCell<?, ?> c
                        && c.getTableColumn() != null
                        && "merge-col-id".equals(c.getTableColumn().getId())
                        && dev.paddock.testing.TableCells.shown(c)
                        && c.getTableRow().getItem() instanceof QueueRow r
                        && r.id() == id)
                .query());
    }

    @SuppressWarnings("unchecked")
    private static List<String> diffLines(FxRobot robot) throws Exception {
        return fx(() -> List.copyOf(
                robot.lookup("#" + ReviewPane.DIFF_ID).queryAs(ListView.class).getItems()));
    }

    private void screenshot(String name) throws Exception {
        String dir = System.getProperty("paddock.screenshots");
        if (dir != null) {
            WaitForAsyncUtils.sleep(800, TimeUnit.MILLISECONDS);
            new ProcessBuilder("import", "-window", "root", Path.of(dir, name).toString())
                    .inheritIO()
                    .start()
                    .waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void aPolicyChangeWaitsInTheTabWithItsDiffAndIsApprovedOrRejectedFromTheKeyboard(FxRobot robot) throws Exception {
        String openTip = branch("agent/open", "{\"permissions\": {\"allow\": [\"Bash\"]}}\n");
        branch(
                "agent/wider",
                "{\"permissions\": {\"allow\": [\"Bash(git status)\", \"Bash(curl:*)\"]},"
                        + " \"unmatched\": \"deny\"}\n");
        String before = repo.git("rev-parse", "main").strip();
        WaitForAsyncUtils.asyncFx(() -> {
                    MainWindow window = new MainWindow(vm, Theme.LIGHT);
                    // Monocle's headless screen is 1280x800; a real display for screenshots is the 1366x768 of small
                    // laptops.
                    boolean shots = System.getProperty("paddock.screenshots") != null;
                    Scene scene = new Scene(window, shots ? 1366 : 1280, shots ? 768 : 800);
                    Theme.LIGHT.apply(scene);
                    window.installShortcuts(scene);
                    stage.setScene(scene);
                    stage.setWidth(
                            scene.getWidth()); // the stage is shared: its size is set, not left from the test before
                    stage.setHeight(scene.getHeight());
                    stage.show();
                })
                .get(60, TimeUnit.SECONDS);
        vm.start(CompletableFuture.completedFuture(host.panel()), repo.dir()).get(90, TimeUnit.SECONDS);
        robot.press(KeyCode.CONTROL, KeyCode.DIGIT4).release(KeyCode.DIGIT4, KeyCode.CONTROL);

        MergeEntry open = merges().enqueueBranch(repo.dir(), "agent/open", "tester");
        waitFor(
                "the review pane shows agent/open",
                60,
                () -> fx(() -> robot.lookup("#" + ReviewPane.ID).query().isVisible())
                        && merges().get(open.id()).state() == MergeState.POLICY_REVIEW);
        MergeEntry wider = merges().enqueueBranch(repo.dir(), "agent/wider", "tester");
        waitFor(
                "both wait for a review",
                60,
                () -> fx(() -> robot.lookup("#" + QueueTables.REVIEW_ID)
                                .queryAs(TableView.class)
                                .getItems()
                                .size())
                        == 2);
        assertThat(fx(() -> robot.lookup("#" + ReviewPane.TITLE_ID)
                        .queryAs(Label.class)
                        .getText()))
                .startsWith("Waiting for your review (2)");
        assertThat(fx(() -> robot.lookup(".tab-pane")
                        .queryAs(javafx.scene.control.TabPane.class)
                        .getSelectionModel()
                        .getSelectedItem()
                        .getText()))
                .isEqualTo("Merge queue (2)");
        assertThat(disabled(robot, ReviewPane.APPROVE_ID))
                .as("nothing selected, no diff")
                .isTrue();

        robot.clickOn(reviewRow(robot, open.id()));
        waitFor(
                "the diff of agent/open shows",
                30,
                () -> diffLines(robot).contains("+{\"permissions\": {\"allow\": [\"Bash\"]}}"));
        assertThat(diffLines(robot)).contains("-" + STRICT.strip(), "+++ b/.paddock/policy.json");
        assertThat(fx(() -> robot.lookup("#" + ReviewPane.FILES_ID)
                        .queryAs(Label.class)
                        .getText()))
                .contains(".paddock/policy.json", "agent/open at " + openTip.substring(0, QueueText.SHORT_COMMIT));
        waitFor("approve is enabled", 10, () -> !disabled(robot, ReviewPane.APPROVE_ID));
        assertThat(repo.git("rev-parse", "main").strip()).isEqualTo(before);
        screenshot("merge-queue-policy-review.png");

        robot.press(KeyCode.CONTROL, KeyCode.SHIFT, KeyCode.A).release(KeyCode.A, KeyCode.SHIFT, KeyCode.CONTROL);
        waitFor("agent/open is merged", 60, () -> merges().get(open.id()).state() == MergeState.MERGED);
        assertThat(merges().review(open.id()).approvedCommit()).isEqualTo(openTip);
        assertThat(Files.readString(repo.dir().resolve(".paddock/policy.json"))).contains("[\"Bash\"]");

        robot.clickOn(reviewRow(robot, wider.id()));
        waitFor(
                "the diff of agent/wider shows",
                30,
                () -> diffLines(robot).stream().anyMatch(l -> l.startsWith("+") && l.contains("curl")));
        String merged = repo.git("rev-parse", "main").strip();
        waitFor("reject is enabled", 10, () -> !disabled(robot, ReviewPane.REJECT_ID));
        Node reject = fx(() -> robot.lookup("#" + ReviewPane.REJECT_ID).query());
        for (int i = 0; i < 12 && !fx(reject::isFocused); i++) {
            robot.press(KeyCode.TAB).release(KeyCode.TAB);
        }
        assertThat(fx(reject::isFocused)).as("Tab reaches Reject").isTrue();
        robot.press(KeyCode.SPACE).release(KeyCode.SPACE);

        waitFor("agent/wider is cancelled", 30, () -> merges().get(wider.id()).state() == MergeState.CANCELLED);
        assertThat(merges().get(wider.id()).attempt().result()).contains("rejected by");
        assertThat(repo.git("rev-parse", "main").strip())
                .as("base keeps nothing of it")
                .isEqualTo(merged);
        waitFor(
                "the review pane is gone",
                30,
                () -> !fx(() -> robot.lookup("#" + ReviewPane.ID).query().isVisible()));
        screenshot("merge-queue-after-review.png");
    }
}
