package dev.paddock.ui.sandboxes;

import static dev.paddock.ui.sandboxes.Panel.fx;
import static dev.paddock.ui.sandboxes.Panel.node;
import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.compare.MemberResult;
import dev.paddock.sandbox.AgentCounts;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.SandboxGroup;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.Tier;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.input.KeyCode;
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
 * The Compare view in the real panel: a fan-out of two agents whose branches the merge queue tests (one passes and is
 * merged, one fails); Ctrl+G on one of them opens the table of both, read off the FX thread, and a double click on the
 * other closes it and selects that one with its details pane on its Changes. A sandbox made on its own offers no Compare.
 */
@ExtendWith(ApplicationExtension.class)
class CompareViewTest {
    /** The first sandbox commits twice (3 lines in one file), the second once (2 files, one of them "bad"). */
    private static final String WORK = "case \"$PADDOCK_SANDBOX_ID\" in"
            + " *-1) printf 'good\\nlines\\n' > a.txt && git add a.txt && git commit -qm one"
            + " && echo more >> a.txt && git commit -qam two ;;"
            + " *) printf 'bad\\n' > b.txt && printf 'x\\n' > c.txt && git add b.txt c.txt && git commit -qm bad ;;"
            + " esac";

    @TempDir
    Path temp;

    private Stage stage;
    private Panel panel;

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @AfterEach
    void closePanel() throws Exception {
        if (panel != null) {
            panel.close();
        }
    }

    @Test
    void ctrlGShowsTheGroupSideBySideAndADoubleClickOpensAMember(FxRobot robot) throws Exception {
        panel = Panel.start(temp, stage);
        panel.host
                .wiring()
                .merges()
                .configure(panel.repo.dir(), null, "! grep -rq bad --include='*.txt' .", 60_000L, 1, null, "auto");
        SandboxGroup g = panel.host
                .wiring()
                .sandboxService()
                .createGroup(
                        NewSandbox.custom(panel.repo.dir(), "Write things", WORK)
                                .tier(Tier.WORKTREE)
                                .maxRetries(0)
                                .build(),
                        AgentCounts.parse("custom:2"));
        SandboxRecord alone = panel.create("Alone", "true");
        String one = g.sandboxes().get(0).id();
        String two = g.sandboxes().get(1).id();
        panel.show(1366, 768);
        panel.waitForState(one, "merged", 120);
        panel.waitForState(two, "awaiting_human", 120);

        panel.select(robot, alone.id());
        Button compare = node(robot, "#sandbox-compare", Button.class);
        assertThat(fx(compare::isVisible)).as("no group, no Compare").isFalse();

        panel.select(robot, one);
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> fx(compare::isVisible));
        robot.press(KeyCode.CONTROL, KeyCode.G).release(KeyCode.G, KeyCode.CONTROL);
        Node pane = node(robot, "#compare-dialog", Node.class);
        CompareDialog dialog = fx(() -> (CompareDialog) pane.getUserData());
        TableView<MemberResult> table = dialog.table();
        WaitForAsyncUtils.waitFor(
                30,
                TimeUnit.SECONDS,
                () -> fx(() -> table.getItems().size() == 2
                        && table.getItems().stream().allMatch(m -> m.testVerdict() != null)));

        assertThat(fx(() -> table.getItems().stream().map(MemberResult::id).toList()))
                .containsExactly(one, two);
        assertThat(cellTexts(robot, table, 0)).contains("custom-1", "custom", "2", "1", "+3 −0", "passed", "merged");
        assertThat(cellTexts(robot, table, 1)).contains("custom-2", "1", "2", "+2 −0", "failed");
        assertThat(fx(() -> ((javafx.scene.control.Label)
                                robot.lookup("#compare-summary").query())
                        .getText()))
                .startsWith("2 sandboxes from main at ")
                .endsWith("· Write things");
        robot.sleep(300);
        shoot("compare-view");

        robot.doubleClickOn(row(robot, table, 1));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> fx(() -> !dialog.isShowing()));
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(() -> panel.vm.dashboard().sandboxPanel().selectedIds().equals(List.of(two))
                        && panel.vm
                                .dashboard()
                                .sandboxPanel()
                                .details()
                                .shownProperty()
                                .get()));
        assertThat(fx(() -> ((javafx.scene.control.TabPane)
                                robot.lookup("#sandbox-details-tabs").query())
                        .getSelectionModel()
                        .getSelectedItem()
                        .getId()))
                .as("its diff")
                .isEqualTo("details-tab-changes");
    }

    private static List<String> cellTexts(FxRobot robot, TableView<MemberResult> table, int index) throws Exception {
        return fx(() ->
                robot
                        .from(row(robot, table, index))
                        .lookup((Node n) -> n instanceof TableCell<?, ?>)
                        .queryAll()
                        .stream()
                        .map(n -> ((TableCell<?, ?>) n).getText())
                        .filter(t -> t != null)
                        .toList());
    }

    private static TableRow<?> row(FxRobot robot, TableView<MemberResult> table, int index) throws Exception {
        return fx(() -> robot.from(table)
                .lookup((Node n) -> n instanceof TableRow<?> r && r.getIndex() == index && r.getItem() != null)
                .queryAs(TableRow.class));
    }

    /** A screenshot of the panel and its dialog when PADDOCK_SHOTS names a folder (for the README). */
    private void shoot(String name) throws Exception {
        String dir = System.getenv("PADDOCK_SHOTS");
        if (dir == null) {
            return;
        }
        if (!Boolean.getBoolean("testfx.headless") && System.getenv("DISPLAY") != null) {
            // On a real display (an Xvfb of the screen's size): the whole screen, the dialog over the panel.
            new ProcessBuilder(
                            "import",
                            "-window",
                            "root",
                            Path.of(dir).resolve(name + ".png").toString())
                    .inheritIO()
                    .start()
                    .waitFor();
            return;
        }
        for (javafx.stage.Window w : fx(() -> List.copyOf(javafx.stage.Window.getWindows()))) {
            javafx.scene.image.WritableImage img = fx(() -> w.getScene().snapshot(null));
            int width = (int) img.getWidth();
            int height = (int) img.getHeight();
            int[] argb = new int[width * height];
            img.getPixelReader()
                    .getPixels(
                            0, 0, width, height, javafx.scene.image.PixelFormat.getIntArgbInstance(), argb, 0, width);
            java.awt.image.BufferedImage b =
                    new java.awt.image.BufferedImage(width, height, java.awt.image.BufferedImage.TYPE_INT_ARGB);
            b.setRGB(0, 0, width, height, argb, 0, width);
            javax.imageio.ImageIO.write(
                    b,
                    "png",
                    Path.of(dir)
                            .resolve(name + (w == stage ? "-panel" : "-dialog") + ".png")
                            .toFile());
        }
    }
}
