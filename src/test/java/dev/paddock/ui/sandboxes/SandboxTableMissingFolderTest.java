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
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/** A sandbox whose worktree folder is gone says so beside its state (a merged one stays "merged"). */
@ExtendWith(ApplicationExtension.class)
class SandboxTableMissingFolderTest {
    private static final Instant NOW = Instant.parse("2026-11-30T13:00:00Z");

    @Start
    void start(Stage stage) {
        List<RepositoryStatus.Sandbox> rows = List.of(
                new RepositoryStatus.Sandbox(
                        "gone-20261130-001",
                        "Merged, folder deleted",
                        "worktree",
                        "merged",
                        "agent/gone",
                        "/w/gone",
                        NOW,
                        null,
                        null,
                        null,
                        0,
                        0,
                        null,
                        false,
                        true),
                new RepositoryStatus.Sandbox(
                        "here-20261130-001",
                        "Merged, folder there",
                        "worktree",
                        "merged",
                        "agent/here",
                        "/w/here",
                        NOW,
                        null,
                        null,
                        null,
                        0,
                        0,
                        null,
                        false,
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
    void theStateCellOfASandboxWhoseWorktreeIsGoneSaysFolderMissing(FxRobot robot) throws Exception {
        List<String> chips = fx(() -> robot.lookup(".pd-chip").queryAllAs(Label.class).stream()
                .map(Label::getText)
                .toList());
        Label missing = fx(() -> robot.lookup(".pd-chip-danger").queryAs(Label.class));

        assertThat(chips).containsExactly("merged", "folder missing", "merged");
        assertThat(fx(() -> missing.getTooltip().getText())).isEqualTo("The worktree /w/gone is not on disk");
    }
}
