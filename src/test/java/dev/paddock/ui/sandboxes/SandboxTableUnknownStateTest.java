package dev.paddock.ui.sandboxes;

import static dev.paddock.ui.sandboxes.Panel.fx;
import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.status.RepositoryStatus;
import java.time.Instant;
import java.util.List;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/**
 * While the Docker engine does not answer, a running container sandbox shows the state "unknown" (with its last
 * known state in the tooltip), and a worktree sandbox beside it shows its own state.
 */
@ExtendWith(ApplicationExtension.class)
class SandboxTableUnknownStateTest {
    private static final Instant NOW = Instant.parse("2026-11-30T13:00:00Z");

    @Start
    void start(Stage stage) {
        List<RepositoryStatus.Sandbox> rows = List.of(
                new RepositoryStatus.Sandbox(
                        "boxed-20261130-001",
                        "In a box",
                        "container",
                        "running",
                        "agent/boxed",
                        "/w/boxed",
                        NOW,
                        null,
                        null,
                        NOW.plusSeconds(600),
                        0,
                        null,
                        null,
                        true),
                new RepositoryStatus.Sandbox(
                        "plain-20261130-001",
                        "On the host",
                        "worktree",
                        "running",
                        "agent/plain",
                        "/w/plain",
                        NOW,
                        null,
                        null,
                        NOW.plusSeconds(600),
                        0,
                        null,
                        null,
                        false));
        SandboxTable table = new SandboxTable(
                FXCollections.observableArrayList(rows),
                new SimpleObjectProperty<>(NOW),
                new SimpleObjectProperty<>(java.util.Map.of()),
                new Label("none"));
        Scene scene = new Scene(table, 1100, 300);
        dev.paddock.ui.theme.Theme.LIGHT.apply(scene);
        stage.setScene(scene);
        stage.show();
    }

    @Test
    void aContainerSandboxIsUnknownWhileTheEngineIsAwayAndOtherTiersShowTheirState(FxRobot robot) throws Exception {
        List<Label> chips = fx(() -> robot.lookup(".pd-chip").queryAllAs(Label.class).stream()
                .filter(l -> l.getStyleClass().stream().anyMatch(c -> c.startsWith("pd-state-")))
                .toList());

        assertThat(chips).extracting(Label::getText).containsExactly("unknown", "running");
        assertThat(chips.get(0).getStyleClass()).contains("pd-state-unknown");
        TableCell<?, ?> cell = (TableCell<?, ?>) chips.get(0).getParent();
        assertThat(fx(() -> cell.getTooltip().getText()))
                .startsWith("The Docker engine does not answer, so this"
                        + " container's state is unknown (last known: running). It is not failed or stopped");
    }
}
