package dev.paddock.ui.sandboxes;

import static dev.paddock.ui.sandboxes.Panel.fx;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.input.MouseButton;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The divider between the sandboxes table and the details pane of the real panel at 1366×768: with four sandboxes the
 * table keeps three rows and the details pane gets the rest; dragged up, the divider gives the details pane
 * a good part of the height (the table still shows two whole rows), and the place is kept when another sandbox is
 * selected.
 */
@ExtendWith(ApplicationExtension.class)
class SandboxDetailsSplitTest {
    @TempDir
    Path temp;

    private Stage stage;
    private Panel panel;

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @AfterEach
    void close() throws Exception {
        if (panel != null) {
            panel.close();
        }
    }

    @Test
    void theDividerGivesTheDetailsPaneMostOfTheHeightAndIsKept(FxRobot robot) throws Exception {
        panel = Panel.start(temp, stage);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            ids.add(panel.create("Describe the release process, part " + i, "sleep 300")
                    .id());
        }
        panel.show(1366, 768);
        panel.waitForState(ids.get(3), "running", 30);
        panel.select(robot, ids.get(1));
        javafx.scene.layout.Region details =
                Panel.node(robot, "#" + SandboxDetailsView.ID, javafx.scene.layout.Region.class);
        settle();
        TableView<?> table = robot.lookup("#" + SandboxTable.ID).queryAs(TableView.class);
        SplitPane split = fx(() -> (SplitPane) robot.lookup(".pd-sandbox-split").query());
        double splitHeight = fx(split::getHeight);
        // Four rows: the table keeps three of them whole (the selected one in view) and gives the rest away.
        assertThat(wholeRows(table)).isEqualTo(SandboxesView.TABLE_FIRST_ROWS);
        double first = fx(details::getHeight);
        assertThat(first)
                .as("the details pane of a split " + splitHeight + " px high")
                .isGreaterThan(SandboxesView.DETAILS_MIN_HEIGHT + 40);

        // Dragged up as far as it goes: most of the height is the details pane's, two rows of the table show.
        // The split's own divider: the details pane holds split panes of its own (the checkpoint timeline's).
        Node divider = fx(() -> split.lookupAll(".split-pane-divider").stream()
                .filter(n -> n.getParent() == split)
                .findFirst()
                .orElseThrow());
        robot.drag(divider, MouseButton.PRIMARY).moveBy(0, -300).release(MouseButton.PRIMARY);
        settle();
        double dragged = fx(details::getHeight);
        assertThat(dragged)
                .as("the details pane of a split " + splitHeight + " px high, dragged up")
                .isGreaterThan(SandboxesView.DETAILS_MIN_HEIGHT + 60)
                .isGreaterThan(splitHeight * 0.7);
        assertThat(wholeRows(table)).isGreaterThanOrEqualTo(2);

        // Kept: another sandbox selected, and the details pane closed and opened again.
        // (Selected through the view model: with two rows showing, the row may be out of view.)
        robot.interact(() -> panel.vm.dashboard().sandboxPanel().select(List.of(ids.get(2))));
        robot.interact(() ->
                panel.vm.dashboard().sandboxPanel().details().shownProperty().set(false));
        robot.interact(() ->
                panel.vm.dashboard().sandboxPanel().details().shownProperty().set(true));
        settle();
        assertThat(fx(details::getHeight)).isCloseTo(dragged, org.assertj.core.data.Offset.offset(4.0));
    }

    private static void settle() {
        WaitForAsyncUtils.waitForFxEvents();
        WaitForAsyncUtils.sleep(300, TimeUnit.MILLISECONDS);
        WaitForAsyncUtils.waitForFxEvents();
    }

    /** Rows with a sandbox whose whole height shows in the table's visible area. */
    private static int wholeRows(TableView<?> table) throws Exception {
        return fx(() -> {
            Node flow = table.lookup(".virtual-flow");
            Node clip = table.lookup(".clipped-container");
            Bounds view = clip.localToScene(clip.getLayoutBounds());
            int n = 0;
            for (Node r : flow.lookupAll(".table-row-cell")) {
                if (r instanceof TableRow<?> row && row.getItem() != null && row.isVisible()) {
                    Bounds b = row.localToScene(row.getLayoutBounds());
                    if (b.getMinY() >= view.getMinY() - 0.5 && b.getMaxY() <= view.getMaxY() + 0.5) {
                        n++;
                    }
                }
            }
            return n;
        });
    }
}
