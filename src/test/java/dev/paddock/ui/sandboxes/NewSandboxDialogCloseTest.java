package dev.paddock.ui.sandboxes;

import static dev.paddock.ui.sandboxes.Panel.fx;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import javafx.application.Platform;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import javafx.stage.Window;
import javafx.stage.WindowEvent;
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
 * Closing the New Sandbox dialog in the real panel: with something typed, Escape, Cancel and the window's
 * close box ask "Discard this new sandbox?" first (Keep editing keeps every character); an untouched form
 * closes at once.
 */
@ExtendWith(ApplicationExtension.class)
class NewSandboxDialogCloseTest {
    private static final String DISCARD_QUESTION = "#" + NewSandboxDialog.DISCARD_ID;

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

    private static boolean present(FxRobot robot, String query) {
        return robot.lookup(query).tryQuery().isPresent();
    }

    private static void waitFor(FxRobot robot, String query, boolean shown) throws Exception {
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> present(robot, query) == shown);
        WaitForAsyncUtils.waitForFxEvents(); // shown and laid out, ready for a click
    }

    @Test
    void escapeWithATypedTaskAsksAndKeepEditingKeepsEveryCharacter(FxRobot robot) throws Exception {
        int sandboxesBefore =
                panel.host.wiring().sandboxService().list(panel.repo.dir()).size();
        openDialog(robot);
        robot.clickOn("#new-sandbox-task").write("Fix the flaky login test");

        robot.type(KeyCode.ESCAPE);
        waitFor(robot, DISCARD_QUESTION, true);
        Button keep = fx(() -> (Button) robot.lookup(DISCARD_QUESTION)
                .queryAs(javafx.scene.control.DialogPane.class)
                .lookupButton(NewSandboxDialog.KEEP_EDITING));
        assertThat(fx(keep::isDefaultButton)).isTrue();
        assertThat(fx(() -> robot.lookup(DISCARD_QUESTION)
                        .queryAs(javafx.scene.control.DialogPane.class)
                        .getHeaderText()))
                .isEqualTo("Discard this new sandbox?");
        robot.type(KeyCode.ENTER); // the default answer
        waitFor(robot, DISCARD_QUESTION, false);
        assertThat(present(robot, "#new-sandbox-dialog")).isTrue();
        assertThat(fx(() -> robot.lookup("#new-sandbox-task")
                        .queryAs(TextArea.class)
                        .getText()))
                .isEqualTo("Fix the flaky login test");

        robot.type(KeyCode.ESCAPE);
        waitFor(robot, DISCARD_QUESTION, true);
        robot.type(KeyCode.ESCAPE); // Escape answers the question with Keep editing too
        waitFor(robot, DISCARD_QUESTION, false);
        assertThat(present(robot, "#new-sandbox-dialog")).isTrue();

        robot.type(KeyCode.ESCAPE);
        waitFor(robot, DISCARD_QUESTION, true);
        robot.clickOn(NewSandboxDialog.DISCARD.getText());
        waitFor(robot, "#new-sandbox-dialog", false);
        assertThat(panel.host.wiring().sandboxService().list(panel.repo.dir())).hasSize(sandboxesBefore);
    }

    @Test
    void escapeOnAnUntouchedFormClosesAtOnce(FxRobot robot) throws Exception {
        openDialog(robot);
        robot.type(KeyCode.ESCAPE);
        waitFor(robot, "#new-sandbox-dialog", false);
        assertThat(present(robot, DISCARD_QUESTION)).isFalse();
    }

    @Test
    void cancelWithATypedCommandAsksFirst(FxRobot robot) throws Exception {
        openDialog(robot);
        TextField command = robot.lookup("#new-sandbox-command").queryAs(TextField.class);
        robot.interact(() -> command.setText("./scripts/agent.sh --long"));

        robot.clickOn("#new-sandbox-cancel");
        waitFor(robot, DISCARD_QUESTION, true);
        robot.clickOn(NewSandboxDialog.KEEP_EDITING.getText());
        waitFor(robot, DISCARD_QUESTION, false);
        assertThat(fx(() -> command.getText())).isEqualTo("./scripts/agent.sh --long");

        robot.clickOn("#new-sandbox-cancel");
        waitFor(robot, DISCARD_QUESTION, true);
        robot.clickOn(NewSandboxDialog.DISCARD.getText());
        waitFor(robot, "#new-sandbox-dialog", false);
    }

    @Test
    void theCloseBoxWithAChangedLimitAsksFirst(FxRobot robot) throws Exception {
        openDialog(robot);
        Node pane = robot.lookup("#new-sandbox-dialog").query();
        NewSandboxViewModel vm = fx(() -> ((NewSandboxDialog) pane.getUserData()).viewModel());
        robot.interact(() -> vm.container().memoryMibProperty().set("8192"));
        Window window = fx(() -> pane.getScene().getWindow());

        // As the window manager does for the close box; not through interact(): the question waits for an answer.
        Platform.runLater(() -> window.fireEvent(new WindowEvent(window, WindowEvent.WINDOW_CLOSE_REQUEST)));
        waitFor(robot, DISCARD_QUESTION, true);
        robot.clickOn(NewSandboxDialog.KEEP_EDITING.getText());
        waitFor(robot, DISCARD_QUESTION, false);
        assertThat(present(robot, "#new-sandbox-dialog")).isTrue();
        assertThat(fx(() -> vm.container().memoryMibProperty().get())).isEqualTo("8192");
    }
}
