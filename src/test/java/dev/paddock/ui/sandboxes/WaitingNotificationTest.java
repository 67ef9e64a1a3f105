package dev.paddock.ui.sandboxes;

import static dev.paddock.ui.sandboxes.Panel.fx;
import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.settings.SettingsStore;
import dev.paddock.ui.notify.DesktopNotifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.TableView;
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
 * The desktop notification of a sandbox that starts waiting for you, in the real panel: a {@code notify-send} that
 * records its arguments is first on the PATH the notifier looks on, and real agent commands end their turn as Claude
 * Code's turn hook does.
 */
@ExtendWith(ApplicationExtension.class)
class WaitingNotificationTest {
    private static final String STOP = "{\"session_id\":\"s-1\",\"hook_event_name\":\"Stop\","
            + "\"last_assistant_message\":\"All done: the notes are written.\\nAnd a second line.\"}";
    /** Ends the agent's turn through the turn file, as Claude Code's turn hook does. */
    private static final String ENDS_TURN =
            "d=$(dirname \"$PADDOCK_HEARTBEAT_FILE\"); printf '%s\\n' '" + STOP + "' > \"$d/turn.json\"; exit 0";

    @TempDir
    Path temp;

    private Stage stage;
    private Panel panel;
    private Path calls;

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @BeforeEach
    void startPaddock() throws Exception {
        panel = Panel.start(temp, stage);
        Path bin = Files.createDirectories(temp.resolve("bin"));
        calls = temp.resolve("notify-calls");
        Files.createDirectories(calls);
        // One file per call, its arguments one to a line.
        Path script = bin.resolve("notify-send");
        Files.writeString(
                script,
                "#!/bin/sh\nf=\"" + calls + "/$(date +%s%N)-$$\"\nprintf '%s\\n' \"$@\" > \"$f.tmp\""
                        + " && mv \"$f.tmp\" \"$f\"\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        String path = bin + ":" + System.getenv("PATH");
        WaitForAsyncUtils.asyncFx(() -> panel.vm.useDesktopNotifier(new DesktopNotifier(() -> path)))
                .get(10, TimeUnit.SECONDS);
        panel.show(1366, 768);
    }

    @AfterEach
    void closePanel() throws Exception {
        panel.close();
    }

    /** The calls of notify-send so far, oldest first, each its arguments. */
    private List<List<String>> calls() throws Exception {
        try (var files = Files.list(calls)) {
            return files.filter(f -> !f.getFileName().toString().endsWith(".tmp"))
                    .sorted()
                    .map(f -> {
                        try {
                            return Files.readAllLines(f);
                        } catch (java.io.IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    })
                    .toList();
        }
    }

    private void waitUntilWaiting(String id) throws Exception {
        WaitForAsyncUtils.waitFor(
                30,
                TimeUnit.SECONDS,
                () -> panel.row(id).map(r -> r.waitingForYou()).orElse(false));
    }

    @Test
    void aSandboxWhoseTurnEndsIsAnnouncedOnceWithTheFirstLineOfWhatItsAgentSaid() throws Exception {
        SandboxRecord s = panel.create("Write the notes", "sleep 1; " + ENDS_TURN);

        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> !calls().isEmpty());

        assertThat(calls())
                .containsExactly(List.of(
                        "--app-name=Paddock",
                        "--",
                        s.id() + " is waiting for you",
                        "All done: the notes are written."));
        // Later refreshes of the same wait announce nothing more.
        panel.vm.refresh();
        Thread.sleep(1500);
        assertThat(calls()).hasSize(1);
    }

    @Test
    void theSettingTurnsThemOffAndOnAgain() throws Exception {
        panel.host.wiring().settings().set(SettingsStore.UI_NOTIFICATIONS_DESKTOP.name(), "0", "test");
        SandboxRecord quiet = panel.create("Write the notes", "sleep 1; " + ENDS_TURN);
        waitUntilWaiting(quiet.id());
        Thread.sleep(1000); // the notifier's thread has asked the setting by now

        panel.host.wiring().settings().set(SettingsStore.UI_NOTIFICATIONS_DESKTOP.name(), "1", "test");
        SandboxRecord loud = panel.create("Write the docs", "sleep 1; " + ENDS_TURN);
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> !calls().isEmpty());

        // Notifications go out in order: the first wait's turn came and went unannounced.
        assertThat(calls()).extracting(c -> c.get(2)).containsExactly(loud.id() + " is waiting for you");
    }

    @Test
    void theSandboxSelectedInTheFocusedWindowIsNotAnnouncedButAnotherIs(FxRobot robot) throws Exception {
        SandboxRecord seen = panel.create("Write the notes", "sleep 8; " + ENDS_TURN);
        TableView<?> table = Panel.node(robot, "#sandbox-table", TableView.class);
        // A click on a row being replaced (the sandbox starts) can miss: again until it is selected.
        for (int attempt = 0;
                attempt < 5
                        && !fx(() -> table.getSelectionModel().getSelectedItem()
                                        instanceof dev.paddock.status.RepositoryStatus.Sandbox r
                                && r.id().equals(seen.id()));
                attempt++) {
            robot.clickOn(Panel.tableRow(robot, seen.id()));
            WaitForAsyncUtils.waitForFxEvents();
        }
        assertThat(fx(() -> table.getSelectionModel().getSelectedItem()
                                instanceof dev.paddock.status.RepositoryStatus.Sandbox r
                        && r.id().equals(seen.id())))
                .as("selected")
                .isTrue();
        assertThat(panel.row(seen.id()).orElseThrow().waitingForYou())
                .as("still at work when selected")
                .isFalse();
        assertThat(fx(stage::isFocused)).as("the panel's window has the focus").isTrue();
        waitUntilWaiting(seen.id());

        SandboxRecord other = panel.create("Write the docs", "sleep 1; " + ENDS_TURN);
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> !calls().isEmpty());

        assertThat(calls()).extracting(c -> c.get(2)).containsExactly(other.id() + " is waiting for you");
        assertThat(fx(() -> table.getSelectionModel().getSelectedItem()
                                instanceof dev.paddock.status.RepositoryStatus.Sandbox r
                        && r.id().equals(seen.id())))
                .isTrue();
    }
}
