package dev.paddock.ui.sandboxes;

import static dev.paddock.ui.sandboxes.Panel.fx;
import static dev.paddock.ui.sandboxes.Panel.node;
import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.Tier;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
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

/**
 * "Waiting for you" in the real panel at 1366×768: the table's flag, the details pane's line, the dashboard's tile,
 * and the follow-up field's Send, with real agents (a command that ends its turn as Claude Code's hook does, and the
 * real Gemini CLI for an agent that resumes its session).
 */
@ExtendWith(ApplicationExtension.class)
class WaitingForYouViewTest {
    private static final String STOP = "{\"session_id\":\"s-1\",\"hook_event_name\":\"Stop\","
            + "\"last_assistant_message\":\"All done: the notes are written.\"}";

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
    void aSandboxWhoseTurnEndedShowsWaitingForYouInTheTableTheDetailsAndTheTile(FxRobot robot) throws Exception {
        SandboxRecord s = panel.create(
                "Write the notes",
                "d=$(dirname \"$PADDOCK_HEARTBEAT_FILE\"); printf '%s\\n' '" + STOP + "' > \"$d/turn.json\"; exit 0");
        panel.show(1366, 768);

        WaitForAsyncUtils.waitFor(
                20,
                TimeUnit.SECONDS,
                () -> panel.row(s.id()).map(r -> r.waitingForYou()).orElse(false));
        // The row is found again on every look: the table may give the sandbox another row node as it refreshes.
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> {
            Node r = Panel.tableRow(robot, s.id());
            return fx(() -> robot.from(r).lookup(".pd-waiting").tryQuery().isPresent());
        });
        Node row = Panel.tableRow(robot, s.id());
        Label chip = fx(() -> robot.from(row).lookup(".pd-waiting").queryAs(Label.class));
        assertThat(fx(chip::getText)).isEqualTo("waiting for you");
        assertThat(fx(() -> chip.getWidth() >= chip.prefWidth(-1) - 0.5))
                .as("the chip shows whole")
                .isTrue();
        Label tile = fx(() ->
                robot.lookup("#tile-waiting-for-you").lookup(".pd-tile-value").queryAs(Label.class));
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> fx(() -> "1".equals(tile.getText())));

        robot.clickOn(row);
        Label flag = node(robot, "#sandbox-details-waiting", Label.class);
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> fx(flag::isVisible));
        assertThat(fx(flag::getText)).isEqualTo("waiting for you");
        assertThat(fx(() -> flag.getTooltip().getText()))
                .startsWith("Its agent's turn ended (state: done)")
                .contains("All done: the notes are written.");
        // A custom command cannot resume: no follow-up field for it.
        assertThat(fx(() -> robot.lookup("#sandbox-follow-up-bar").query().isVisible()))
                .isFalse();
    }

    @Test
    void sendIsOffWhileTheAgentRunsAndEnterSendsTheFollowUpOnceItsRunEnded(FxRobot robot) throws Exception {
        // The real Gemini CLI, with no key: it starts, refuses, and the sandbox waits for a person.
        SandboxRecord s = panel.host
                .wiring()
                .sandboxService()
                .create(NewSandbox.custom(panel.repo.dir(), "Look around", null)
                        .agent("gemini")
                        .tier(Tier.WORKTREE)
                        .maxRetries(0)
                        .build());
        panel.show(1366, 768);
        select(robot, s.id());
        TextField field = node(robot, "#sandbox-follow-up", TextField.class);
        Button send = node(robot, "#sandbox-follow-up-send", Button.class);
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> fx(field::isVisible));
        robot.clickOn(field).write("Try once more, with the key set.");
        if (List.of("pending", "running")
                .contains(panel.row(s.id()).orElseThrow().state())) {
            assertThat(fx(send::isDisabled))
                    .as("Send while the agent is at work")
                    .isTrue();
        }

        panel.waitForState(s.id(), "awaiting_human", 60);
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> fx(() -> !send.isDisabled()));
        robot.clickOn(field).type(KeyCode.ENTER);

        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> panel.host.wiring().sandboxService().followUp(s.id()).isPresent());
        assertThat(panel.host
                        .wiring()
                        .sandboxService()
                        .followUp(s.id())
                        .orElseThrow()
                        .text())
                .isEqualTo("Try once more, with the key set.");
        WaitForAsyncUtils.waitFor(
                5, TimeUnit.SECONDS, () -> fx(() -> field.getText().isEmpty()));
        assertThat(panel.host.wiring().sandboxService().history(s.id())).anySatisfy(e -> {
            assertThat(e.kind()).isEqualTo("sandbox.follow_up");
            assertThat(e.details()).contains("Try once more, with the key set.");
        });
    }

    /**
     * Clicks the sandbox's row until the table has it selected: its quick run (the CLI refuses at once) replaces the
     * rows while the click lands, and a click on a row being replaced can miss.
     */
    private static void select(FxRobot robot, String id) throws Exception {
        javafx.scene.control.TableView<?> table =
                robot.lookup("#" + SandboxTable.ID).queryAs(javafx.scene.control.TableView.class);
        for (int attempt = 0; attempt < 5; attempt++) {
            robot.clickOn(Panel.tableRow(robot, id));
            try {
                WaitForAsyncUtils.waitFor(
                        2,
                        TimeUnit.SECONDS,
                        () -> fx(() -> table.getSelectionModel().getSelectedItem()
                                        instanceof dev.paddock.status.RepositoryStatus.Sandbox r
                                && r.id().equals(id)));
                return;
            } catch (java.util.concurrent.TimeoutException missed) {
                // clicked while the rows were replaced: again
            }
        }
        throw new AssertionError("the row of " + id + " could not be selected");
    }
}
