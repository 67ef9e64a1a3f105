package dev.paddock.ui.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.status.RepositoryStatus.EventLine;
import dev.paddock.ui.theme.Theme;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The events list colours each event's kind chip by its severity (events.EventSeverity), not by the feature it
 * belongs to: a denied request or an unreachable engine is red, a merged branch green, a request waiting yellow.
 */
@ExtendWith(ApplicationExtension.class)
class EventListSeverityTest {
    private Stage stage;

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @AfterEach
    void close() throws Exception {
        WaitForAsyncUtils.asyncFx(() -> List.copyOf(Window.getWindows()).forEach(Window::hide))
                .get(10, TimeUnit.SECONDS);
    }

    @Test
    void eachKindChipIsStyledByItsSeverity(FxRobot robot) throws Exception {
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("approval.denied", "pd-severity-error");
        expected.put("sandbox.engine_unreachable", "pd-severity-error");
        expected.put("merge.failed", "pd-severity-error");
        expected.put("sandbox.timeout", "pd-severity-error");
        expected.put("approval.requested", "pd-severity-warning");
        expected.put("sandbox.awaiting_human", "pd-severity-warning");
        expected.put("merge.conflict", "pd-severity-warning");
        expected.put("merge.merged", "pd-severity-success");
        expected.put("sandbox.engine_back", "pd-severity-success");
        expected.put("approval.approved", "pd-severity-success");
        expected.put("worktree.added", "pd-severity-info");
        expected.put("sandbox.running", "pd-severity-info");
        Instant now = Instant.now();
        List<EventLine> lines = new java.util.ArrayList<>();
        long id = 1;
        for (String kind : expected.keySet()) {
            lines.add(new EventLine(id++, now, kind, "an event of kind " + kind, null));
        }
        WaitForAsyncUtils.asyncFx(() -> {
                    EventList list =
                            new EventList(FXCollections.observableArrayList(lines), new SimpleObjectProperty<>(now));
                    Scene scene = new Scene(list, 900, 600);
                    Theme.LIGHT.apply(scene);
                    stage.setScene(scene);
                    stage.show();
                })
                .get(10, TimeUnit.SECONDS);
        WaitForAsyncUtils.waitForFxEvents();

        Map<String, List<String>> styles = fx(() -> {
            Map<String, List<String>> out = new LinkedHashMap<>();
            for (Node n : robot.lookup(".list-cell").queryAll()) {
                if (n instanceof ListCell<?> c && c.getItem() instanceof EventLine e) {
                    Label chip = (Label) c.lookup(".pd-chip");
                    out.put(
                            e.kind(),
                            chip.getStyleClass().stream()
                                    .filter(s -> s.startsWith("pd-severity-") || s.startsWith("pd-kind-"))
                                    .toList());
                }
            }
            return out;
        });
        for (Map.Entry<String, String> e : expected.entrySet()) {
            assertThat(styles.get(e.getKey())).as(e.getKey()).containsExactly(e.getValue());
        }
    }

    private static <T> T fx(Callable<T> c) throws Exception {
        return WaitForAsyncUtils.asyncFx(c).get(10, TimeUnit.SECONDS);
    }
}
