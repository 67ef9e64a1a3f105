package dev.paddock.ui.sandboxes;

import static dev.paddock.ui.sandboxes.Panel.fx;
import static dev.paddock.ui.sandboxes.Panel.node;
import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.sandbox.SandboxRecord;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
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
 * "Ready for review" in the real panel at 1366×768: the table's state chip, the dashboard's tile, and the details
 * pane's Approve, which sends the change through the merge queue into base.
 */
@ExtendWith(ApplicationExtension.class)
class ReviewPanelTest {
    private static final String COMMITS =
            "printf 'class App { int x; }\\n' > src/App.java && git add src/App.java && git commit -qm 'Add x'";

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
    void aFinishedChangeShowsReadyForReviewIsCountedAndApproveMergesIt(FxRobot robot) throws Exception {
        SandboxRecord s = panel.create("Add x", COMMITS);
        String base = panel.repo.head();
        panel.show(1366, 768);
        panel.waitForState(s.id(), "review", 30);

        // The table's rows are recycled: the row of the sandbox is looked up again on each try.
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, () -> {
            Node r = Panel.tableRow(robot, s.id());
            return fx(() -> robot.from(r).lookup(".pd-state-review").tryQuery().isPresent());
        });
        Node row = Panel.tableRow(robot, s.id());
        Label chip = fx(() -> robot.from(row).lookup(".pd-state-review").queryAs(Label.class));
        assertThat(fx(chip::getText)).isEqualTo("ready for review");
        Label tile = fx(() ->
                robot.lookup("#tile-ready-for-review").lookup(".pd-tile-value").queryAs(Label.class));
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, () -> fx(() -> "1".equals(tile.getText())));
        assertThat(panel.repo.git("rev-parse", "main").strip()).isEqualTo(base);

        panel.select(robot, s.id());
        Button approve = node(robot, "#sandbox-review-approve", Button.class);
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> fx(() -> approve.isVisible() && !approve.isDisabled()));
        assertThat(fx(() -> node(robot, "#sandbox-review-discard", Button.class).isVisible()))
                .isTrue();
        robot.clickOn(approve);

        panel.waitForState(s.id(), "merged", 30);
        assertThat(panel.repo.git("show", "main:src/App.java")).isEqualTo("class App { int x; }\n");
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> fx(() -> "0".equals(tile.getText())));
        Label notice = node(robot, "#sandbox-review-notice", Label.class);
        assertThat(fx(notice::getText)).startsWith("Approved: ");
    }

    @Test
    void discardWithACommentRemovesTheSandboxKeepsItsBranchAndMergesNothing(FxRobot robot) throws Exception {
        SandboxRecord s = panel.create("Add x", COMMITS);
        String base = panel.repo.head();
        panel.show(1366, 768);
        panel.waitForState(s.id(), "review", 30);
        String tip = panel.repo.git("rev-parse", s.workspace().branch()).strip();

        panel.select(robot, s.id());
        javafx.scene.control.TextField comment =
                node(robot, "#sandbox-review-comment", javafx.scene.control.TextField.class);
        robot.clickOn(comment).write("Not this way.");
        robot.clickOn(node(robot, "#sandbox-review-discard", Button.class));

        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> panel.row(s.id()).isEmpty());
        assertThat(panel.host.wiring().sandboxService().find(s.id()).state().id())
                .isEqualTo("closed");
        assertThat(panel.repo.git("rev-parse", s.workspace().branch()).strip())
                .as("its branch is kept")
                .isEqualTo(tip);
        assertThat(panel.repo.git("rev-parse", "main").strip()).isEqualTo(base);
        assertThat(panel.host.wiring().reviews().comments(s.id()))
                .extracting(dev.paddock.review.ReviewComment::body)
                .containsExactly("Not this way.");
    }
}
