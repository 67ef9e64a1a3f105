package dev.paddock.ui.sandboxes;

import static dev.paddock.ui.sandboxes.Panel.fx;
import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.status.RepositoryStatus.Sandbox;
import dev.paddock.ui.common.KeyedListSync;
import java.time.Instant;
import java.util.List;
import java.util.Map;
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
 * A heartbeat moves nothing but a row's heartbeat, progress and lease: the row stays (its cells are not rebuilt) and
 * the heartbeat and lease cells show the newest snapshot's figures; any other change replaces the row.
 */
@ExtendWith(ApplicationExtension.class)
class SandboxTableHeartbeatTest {
    private static final Instant NOW = Instant.parse("2026-12-06T18:00:00Z");

    private final ObservableList<Sandbox> rows = FXCollections.observableArrayList();
    private final SimpleObjectProperty<Map<String, Sandbox>> latest = new SimpleObjectProperty<>(Map.of());
    private final SimpleObjectProperty<Instant> now = new SimpleObjectProperty<>(NOW);

    @Start
    void start(Stage stage) {
        Sandbox first = row("running", NOW.minusSeconds(33), "step 1");
        rows.setAll(first);
        latest.set(LiveRows.byId(List.of(first)));
        SandboxTable table = new SandboxTable(
                rows,
                latest,
                now,
                new SimpleObjectProperty<>(Map.of()),
                new SimpleObjectProperty<>(Map.of()),
                new Label("none"));
        Scene scene = new Scene(table, 1100, 300);
        dev.paddock.ui.theme.Theme.LIGHT.apply(scene);
        stage.setScene(scene);
        stage.show();
    }

    @Test
    void aHeartbeatKeepsTheRowAndShowsTheNewestProgress(FxRobot robot) throws Exception {
        assertThat(heartbeatText(robot)).isEqualTo("30 s ago · step 1");
        Sandbox kept = rows.get(0);

        Sandbox beat = row("running", NOW.minusSeconds(12), "step 2");
        boolean changed = fx(() -> {
            latest.set(LiveRows.byId(List.of(beat)));
            return KeyedListSync.sync(rows, List.of(beat), Sandbox::id, LiveRows::sameBesidesHeartbeat);
        });
        WaitForAsyncUtils.waitForFxEvents();

        assertThat(changed).isFalse();
        assertThat(rows.get(0)).isSameAs(kept);
        assertThat(heartbeatText(robot)).isEqualTo("10 s ago · step 2");

        Sandbox failed = row("failed", NOW.minusSeconds(1), "step 2");
        boolean replaced = fx(() -> {
            latest.set(LiveRows.byId(List.of(failed)));
            return KeyedListSync.sync(rows, List.of(failed), Sandbox::id, LiveRows::sameBesidesHeartbeat);
        });
        assertThat(replaced).isTrue();
        assertThat(rows.get(0)).isSameAs(failed);
    }

    private static String heartbeatText(FxRobot robot) throws Exception {
        return fx(() -> robot.lookup(".table-cell").queryAllAs(TableCell.class).stream()
                .map(TableCell::getText)
                .filter(t -> t != null && t.contains(" ago"))
                .findFirst()
                .orElse(null));
    }

    private static Sandbox row(String state, Instant beatAt, String progress) {
        return new Sandbox(
                "beating-20261206-001",
                "Beat",
                "worktree",
                state,
                "agent/beating",
                "/w/beating",
                NOW.minusSeconds(60),
                beatAt,
                progress,
                NOW.plusSeconds(600),
                0,
                null,
                null,
                false);
    }
}
