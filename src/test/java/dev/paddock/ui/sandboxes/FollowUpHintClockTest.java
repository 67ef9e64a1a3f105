package dev.paddock.ui.sandboxes;

import static dev.paddock.ui.sandboxes.Panel.fx;
import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.status.RepositoryStatus;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import javafx.scene.Scene;
import javafx.scene.control.TextField;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The follow-up field's line of a sandbox waiting for a person ("Its turn ended 7 s ago: …") counts on while it shows,
 * instead of staying at the age it had when the sandbox was selected.
 */
@ExtendWith(ApplicationExtension.class)
class FollowUpHintClockTest {
    private final SandboxDetailsViewModel vm = new SandboxDetailsViewModel();

    @Start
    void start(Stage stage) {
        Scene scene = new Scene(new SandboxDetailsView(vm), 1000, 400);
        dev.paddock.ui.theme.Theme.LIGHT.apply(scene);
        stage.setScene(scene);
        stage.show();
    }

    @AfterEach
    void close() {
        vm.close();
    }

    @Test
    void theTurnsAgeTicksWhileTheSandboxShows(FxRobot robot) throws Exception {
        Instant ended = Instant.now().minusSeconds(7);
        RepositoryStatus.Sandbox waiting = new RepositoryStatus.Sandbox(
                "notes-20261206-001",
                "Write the notes",
                "worktree",
                "done",
                "agent/notes",
                "/w/notes",
                ended.minusSeconds(60),
                ended,
                null,
                null,
                0,
                0,
                null,
                false,
                false,
                "claude",
                null,
                true,
                ended,
                "All done: the notes are written.",
                null);
        robot.interact(() -> vm.show(waiting));
        TextField field = robot.lookup("#sandbox-follow-up").queryAs(TextField.class);
        String first = fx(field::getPromptText);
        assertThat(first)
                .startsWith("Answer here (Enter sends). Its turn ended 7 s ago")
                .endsWith("\u201cAll done: the notes are written.\u201d");

        WaitForAsyncUtils.waitFor(
                4, TimeUnit.SECONDS, () -> fx(() -> !field.getPromptText().equals(first)));
        assertThat(fx(field::getPromptText))
                .matches("Answer here \\(Enter sends\\)\\. Its turn ended (8|9|10) s ago: .*");
    }
}
