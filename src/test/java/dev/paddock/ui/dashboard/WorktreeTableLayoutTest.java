package dev.paddock.ui.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.status.RepositoryStatus.Worktree;
import dev.paddock.ui.theme.Theme;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.layout.StackPane;
import javafx.scene.text.Text;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The worktree table as wide as it is in a 1366×768 window (the approvals pane beside it): the chips of the State
 * column (changes, "folder missing", "locked", "prunable") show whole and inside their cell, also when a row has
 * two or three of them, when such a row arrives after the table is shown, and with the column at its narrowest.
 * "Whole" is what JavaFX drew: a cut label draws fewer characters, or none beside its icon.
 */
@ExtendWith(ApplicationExtension.class)
class WorktreeTableLayoutTest {
    private static final double TABLE_WIDTH = 935;
    /** Fewer rows than it holds fit: it has a vertical scroll bar, as it had in the trial. */
    private static final double TABLE_HEIGHT = 440;

    private final ObservableList<Worktree> rows = FXCollections.observableArrayList();
    private WorktreeTable table;

    @Start
    void start(Stage stage) {
        rows.add(worktree("gson", "main", true, false, 0, false, false, false));
        for (int i = 1; i <= 14; i++) {
            rows.add(worktree("push-attempt-" + i, "agent/push-attempt-" + i, false, false, 0, false, false, false));
        }
        table = new WorktreeTable(rows);
        StackPane root = new StackPane(table);
        Scene scene = new Scene(root, TABLE_WIDTH, TABLE_HEIGHT);
        stage.setScene(scene);
        Theme.LIGHT.apply(scene);
        stage.show();
    }

    @Test
    void aLockedWorktreeWhoseFolderIsMissingShowsBothChipsWhole() throws Exception {
        fx(() -> {
            rows.add(1, worktree("manual", "lockme", false, false, 0, true, true, false));
            rows.add(2, worktree("leftover", "agent/leftover", false, true, 12, true, false, true));
            return null;
        });

        assertThat(cutChips()).isEmpty();
        // At its narrowest (the other columns given the room, by the resize policy or by hand) they still do.
        fx(() -> {
            var state = table.getColumns().stream()
                    .filter(c -> c.getText().equals("State"))
                    .findFirst()
                    .orElseThrow();
            table.resizeColumn(state, -state.getWidth());
            return null;
        });
        assertThat(cutChips()).isEmpty();
    }

    private List<String> cutChips() throws Exception {
        WaitForAsyncUtils.waitForFxEvents();
        fx(() -> {
            table.applyCss();
            table.layout();
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        return fx(() -> {
            List<String> out = new ArrayList<>();
            int chips = 0;

            for (Node n : table.lookupAll(".pd-chip")) {
                if (n instanceof Label l && l.isVisible() && l.getScene() != null) {
                    chips++;
                    String drawn = drawn(l);
                    if (!l.getText().equals(drawn)) {
                        out.add(l.getText() + " reads \"" + drawn + "\" (" + l.getWidth() + " px of " + l.prefWidth(-1)
                                + ")");
                    }
                    Node cell = l.getParent();
                    while (cell != null && !(cell instanceof javafx.scene.control.TableCell<?, ?>)) {
                        cell = cell.getParent();
                    }
                    double right = l.localToScene(l.getLayoutBounds()).getMaxX();
                    double cellRight = cell.localToScene(cell.getLayoutBounds()).getMaxX();
                    if (right > cellRight + 0.5) {
                        out.add(l.getText() + " runs " + (right - cellRight) + " px past its cell");
                    }
                }
            }
            assertThat(chips).as("chips drawn").isGreaterThanOrEqualTo(8);
            assertThat(table.lookupAll(".pd-chip").stream().map(c -> ((Label) c).getText()))
                    .contains("folder missing", "locked", "prunable", "12 changes");
            return out;
        });
    }

    private static String drawn(Label l) {
        for (Node n : l.getChildrenUnmodifiable()) {
            if (n instanceof Text t && t.isVisible() && t.getStyleClass().contains("text")) { // not the icon
                return t.getText();
            }
        }
        return "";
    }

    private static Worktree worktree(
            String name,
            String branch,
            boolean main,
            boolean dirty,
            int changed,
            boolean locked,
            boolean missing,
            boolean prunable) {
        return new Worktree(
                "/tmp/gson/.worktrees/" + name,
                name,
                branch,
                false,
                main,
                "cf473527aa",
                "Merge branch '" + branch + "' through the Paddock merge queue",
                dirty,
                changed,
                locked,
                locked ? "kept by hand" : null,
                prunable,
                prunable ? "gitdir file points to non-existent location" : null,
                null,
                missing);
    }

    private static <T> T fx(Callable<T> call) throws Exception {
        return WaitForAsyncUtils.asyncFx(call).get(10, TimeUnit.SECONDS);
    }
}
