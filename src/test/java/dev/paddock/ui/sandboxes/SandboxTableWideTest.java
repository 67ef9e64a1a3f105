package dev.paddock.ui.sandboxes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.status.RepositoryStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.text.Text;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * On a wide table the branch column is no wider than its longest branch, shown whole, and the task gets the rest:
 * a long task reads whole at 1900 px. Rows arrive after the table shows, as they do from the dashboard.
 */
@ExtendWith(ApplicationExtension.class)
class SandboxTableWideTest {
    private static final Instant NOW = Instant.parse("2026-12-06T05:00:00Z");
    private final ObservableList<RepositoryStatus.Sandbox> rows = FXCollections.observableArrayList();
    private SandboxTable table;

    @Start
    void start(Stage stage) {
        table = new SandboxTable(
                rows,
                new SimpleObjectProperty<>(NOW),
                new SimpleObjectProperty<>(java.util.Map.of()),
                new Label("none"));
        Scene scene = new Scene(table, 1900, 400);
        dev.paddock.ui.theme.Theme.LIGHT.apply(scene);
        stage.setScene(scene);
        // (The stage is shared with the tests run before: its size is set, not taken from the scene.)
        stage.setWidth(1900);
        stage.setHeight(400);
        stage.show();
    }

    @Test
    void theBranchIsAsWideAsItsLongestAndTheTaskGetsTheRest() throws Exception {
        WaitForAsyncUtils.sleep(300, TimeUnit.MILLISECONDS);
        fx(() -> rows.setAll(List.of(
                row(
                        "upgrade-logging-library-20261206-001",
                        "Upgrade the logging library to the current release and" + " fix deprecations",
                        "agent/upgrade-logging-library"),
                row(
                        "document-release-process-20261206-001",
                        "Document the release process",
                        "agent/document-release-process"),
                row(
                        "fix-flaky-checkout-20261206-001",
                        "Fix the flaky checkout test",
                        "agent/fix-flaky-checkout",
                        "container"))));
        WaitForAsyncUtils.waitForFxEvents();
        WaitForAsyncUtils.sleep(300, TimeUnit.MILLISECONDS);
        WaitForAsyncUtils.waitForFxEvents();

        List<String> problems = fx(() -> {
            List<String> out = new ArrayList<>();
            for (Node n : table.lookupAll(".table-cell")) {
                if (n instanceof TableCell<?, ?> c
                        && !c.isEmpty()
                        && c.getText() != null
                        && c.getTableColumn() != null
                        && List.of("Task", "Branch").contains(c.getTableColumn().getText())
                        && !drawn(c).equals(c.getText())) {
                    out.add(c.getTableColumn().getText() + " " + c.getText() + " reads " + drawn(c));
                }
            }
            return out;
        });
        assertThat(problems)
                .as(fx(() -> table.getVisibleLeafColumns().stream()
                        .map(c -> c.getText() + " " + c.getWidth() + "/" + c.getMaxWidth())
                        .toList()
                        .toString()))
                .isEmpty();
    }

    /** Narrowed (the queues open beside it at 1366 px), every column still fits: the branch gives way too. */
    @Test
    void narrowedEveryColumnStillFitsAndTheBranchGivesWay() throws Exception {
        theBranchIsAsWideAsItsLongestAndTheTaskGetsTheRest();
        fx(() -> {
            table.getScene().getWindow().setWidth(930);
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        WaitForAsyncUtils.sleep(300, TimeUnit.MILLISECONDS);
        WaitForAsyncUtils.waitForFxEvents();
        double columns = fx(() -> table.getVisibleLeafColumns().stream()
                .mapToDouble(c -> c.getWidth())
                .sum());
        assertThat(columns)
                .as(fx(() -> table.getVisibleLeafColumns().stream()
                        .map(c -> c.getText() + " " + c.getWidth())
                        .toList()
                        .toString()))
                .isLessThanOrEqualTo(930);
    }

    private static RepositoryStatus.Sandbox row(String id, String task, String branch) {
        return row(id, task, branch, "worktree");
    }

    /** A row; a container one shows the CPU and memory columns too. */
    private static RepositoryStatus.Sandbox row(String id, String task, String branch, String tier) {
        return new RepositoryStatus.Sandbox(
                id,
                task,
                tier,
                "running",
                branch,
                "/w/" + id,
                NOW,
                null,
                null,
                NOW.plusSeconds(600),
                0,
                null,
                null,
                false);
    }

    private static String drawn(TableCell<?, ?> c) {
        for (Node n : c.getChildrenUnmodifiable()) {
            if (n instanceof Text t) {
                return t.getText();
            }
        }
        return "";
    }

    private static <T> T fx(Callable<T> c) throws Exception {
        return WaitForAsyncUtils.asyncFx(c).get(30, TimeUnit.SECONDS);
    }
}
