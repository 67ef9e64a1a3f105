package dev.paddock.ui.sandboxes;

import static dev.paddock.ui.sandboxes.Panel.fx;
import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.status.RepositoryStatus;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * A fan-out's sandboxes in the table: next to each other (in the place of the group's newest), each marked with its
 * number in the group, the marks drawn again when the group loses a sandbox.
 */
@ExtendWith(ApplicationExtension.class)
class SandboxTableGroupTest {
    private static final Instant NOW = Instant.parse("2026-12-07T13:00:00Z");
    private static final String G = "fix-login-20261207-001";

    private ObservableList<RepositoryStatus.Sandbox> rows;

    private static RepositoryStatus.Sandbox row(String id, String group, int minutesAgo) {
        return new RepositoryStatus.Sandbox(
                id,
                "Fix login",
                "worktree",
                "running",
                "agent/" + id,
                "/w/" + id,
                NOW.minusSeconds(60L * minutesAgo),
                null,
                null,
                NOW.plusSeconds(600),
                0,
                null,
                null,
                false,
                false,
                "claude",
                null,
                false,
                null,
                null,
                group);
    }

    @Start
    void start(Stage stage) {
        // Newest first, as the status lists them; another sandbox was made while the group was.
        List<RepositoryStatus.Sandbox> status = List.of(
                row(G + "-codex-1", G, 1),
                row("alone-20261207-001", null, 2),
                row(G + "-claude-2", G, 3),
                row(G + "-claude-1", G, 4),
                row("older-20261207-001", null, 9));
        rows = FXCollections.observableArrayList(GroupRows.ordered(status));
        SandboxTable table = new SandboxTable(
                rows,
                new SimpleObjectProperty<>(NOW),
                new SimpleObjectProperty<>(java.util.Map.of()),
                new Label("none"));
        Scene scene = new Scene(table, 1100, 300);
        dev.paddock.ui.theme.Theme.LIGHT.apply(scene);
        stage.setScene(scene);
        stage.show();
    }

    private List<String> marks(FxRobot robot) throws Exception {
        return fx(() -> robot.lookup(".pd-group-mark").queryAllAs(Label.class).stream()
                .map(l -> ((TableCell<?, ?>) l.getParent()).getText() + " " + l.getText())
                .sorted()
                .toList());
    }

    @Test
    void aGroupsSandboxesAreSideBySideAndEachIsMarkedWithItsNumber(FxRobot robot) throws Exception {
        assertThat(fx(() -> rows.stream().map(RepositoryStatus.Sandbox::id).toList()))
                .containsExactly(
                        G + "-claude-1", G + "-claude-2", G + "-codex-1", "alone-20261207-001", "older-20261207-001");
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> marks(robot).size() == 3);
        assertThat(marks(robot)).containsExactly(G + "-claude-1 1/3", G + "-claude-2 2/3", G + "-codex-1 3/3");
        Label mark = fx(() -> robot.lookup(".pd-group-mark").queryAs(Label.class));
        assertThat(fx(() -> ((TableCell<?, ?>) mark.getParent()).getTooltip().getText()))
                .contains("One of the sandboxes of the fan-out " + G);

        robot.interact(() -> rows.remove(1));

        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> marks(robot).size() == 2);
        assertThat(marks(robot)).containsExactly(G + "-claude-1 1/2", G + "-codex-1 2/2");
    }
}
