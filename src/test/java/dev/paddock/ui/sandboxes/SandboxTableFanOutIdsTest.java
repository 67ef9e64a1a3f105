package dev.paddock.ui.sandboxes;

import static dev.paddock.ui.sandboxes.Panel.fx;
import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.status.RepositoryStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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
 * A fan-out's long ids and branches ({@code describe-release-process-20261206-001-claude-2},
 * {@code agent/describe-release-process-claude-2}) beside its marks: whole on a wide table; on a narrow one an id keeps
 * its distinguishing end ({@code 01-claude-2}) and a branch its number, their middle giving way, and the tooltip has
 * them whole.
 */
@ExtendWith(ApplicationExtension.class)
class SandboxTableFanOutIdsTest {
    private static final Instant NOW = Instant.parse("2026-12-06T11:00:00Z");
    private static final String G = "describe-release-process-20261206-001";

    private final ObservableList<RepositoryStatus.Sandbox> rows = FXCollections.observableArrayList();
    private SandboxTable table;

    private static RepositoryStatus.Sandbox row(int n) {
        String id = G + "-claude-" + n;
        return new RepositoryStatus.Sandbox(
                id,
                "Describe the release process",
                "worktree",
                "running",
                "agent/describe-release-process-claude-" + n,
                "/w/" + id,
                NOW,
                NOW,
                "Bash: git status",
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
                G);
    }

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
        stage.setWidth(1900);
        stage.setHeight(400);
        stage.show();
    }

    @Test
    void idsAndBranchesShowWholeWhenWideAndKeepTheirEndsWhenNarrow() throws Exception {
        WaitForAsyncUtils.sleep(300, TimeUnit.MILLISECONDS);
        fx(() -> rows.setAll(List.of(row(1), row(2), row(3))));
        settle();
        assertThat(cut(false)).as(widths()).isEmpty();

        // Narrowed (the approval queue open beside it at 1366 px): the ends that tell the rows apart still show.
        fx(() -> {
            table.getScene().getWindow().setWidth(930);
            return null;
        });
        settle();
        assertThat(cut(true)).as(widths()).isEmpty();
        assertThat(fx(() -> table.lookupAll(".table-cell").stream()
                        .filter(n -> n instanceof TableCell<?, ?> c
                                && !c.isEmpty()
                                && c.getTableColumn() != null
                                && "Sandbox".equals(c.getTableColumn().getText()))
                        .map(n -> ((TableCell<?, ?>) n).getTooltip().getText())
                        .toList()))
                .allSatisfy(t -> assertThat(t).startsWith(G + "-claude-"));
    }

    private void settle() throws Exception {
        WaitForAsyncUtils.waitForFxEvents();
        WaitForAsyncUtils.sleep(300, TimeUnit.MILLISECONDS);
        WaitForAsyncUtils.waitForFxEvents();
    }

    /** Id and branch cells drawn cut; with {@code endsKept}, only those that lost more than their middle. */
    private List<String> cut(boolean endsKept) throws Exception {
        return fx(() -> {
            List<String> out = new ArrayList<>();
            for (Node n : table.lookupAll(".table-cell")) {
                if (n instanceof TableCell<?, ?> c
                        && !c.isEmpty()
                        && c.getText() != null
                        && c.getTableColumn() != null
                        && List.of("Sandbox", "Branch")
                                .contains(c.getTableColumn().getText())) {
                    String t = c.getText();
                    String d = drawn(c);
                    // An id keeps more (its column's minimum is 24 characters besides the mark); a branch at least
                    // its number.
                    int end = "Sandbox".equals(c.getTableColumn().getText()) ? 8 : 3;
                    boolean ok = endsKept
                            ? d.endsWith(t.substring(t.length() - end)) && d.startsWith(t.substring(0, 3))
                            : d.equals(t);
                    if (!ok) {
                        out.add(c.getTableColumn().getText() + " " + t + " reads " + d);
                    }
                }
            }
            return out;
        });
    }

    private String widths() throws Exception {
        return fx(() -> table.getVisibleLeafColumns().stream()
                .map(c -> c.getText() + " " + c.getWidth())
                .toList()
                .toString());
    }

    private static String drawn(TableCell<?, ?> c) {
        for (Node n : c.getChildrenUnmodifiable()) {
            if (n instanceof Text t) {
                return t.getText();
            }
        }
        return "";
    }
}
