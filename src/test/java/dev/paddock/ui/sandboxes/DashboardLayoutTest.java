package dev.paddock.ui.sandboxes;

import static dev.paddock.ui.sandboxes.Panel.fx;
import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.sandbox.NewSandbox;
import dev.paddock.testing.TempRepo;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.control.Labeled;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.text.Text;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The dashboard of a real panel at the sizes of common laptop screens, with sandboxes in several states and a merge
 * history: every column header and every value a person needs (id, tier, state, lease, attempts, a merge's
 * details...) shows whole, no
 * column runs past the table's edge (an id longer than 24 characters may lose its middle, never its ends), and with
 * the details pane open the table keeps its first rows whole.
 * "Shows whole" is what JavaFX drew: a cut label draws its text with an ellipsis.
 */
@ExtendWith(ApplicationExtension.class)
class DashboardLayoutTest {
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
        WaitForAsyncUtils.asyncFx(() -> List.copyOf(Window.getWindows()).forEach(Window::hide))
                .get(10, TimeUnit.SECONDS);
        if (panel != null) {
            panel.close();
        }
    }

    @ParameterizedTest(name = "{0} x {1}")
    @CsvSource({"1366, 768", "1440, 900"})
    void headersAndKeyValuesShowWholeAndTheTableKeepsRowsWithTheDetailsOpen(int width, int height, FxRobot robot)
            throws Exception {
        panel = Panel.start(temp, stage);
        TempRepo repo = panel.repo;
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            ids.add(panel.host
                    .wiring()
                    .sandboxService()
                    .create(NewSandbox.builder()
                            .repository(repo.dir())
                            .task("Rebuild the product search index incrementally, part " + i)
                            .agentCommand(i < 5 ? "sleep 300" : "exit 3")
                            .id(i == 0 ? "login-rate-limit" : null)
                            .maxRetries(0)
                            .build())
                    .id());
        }
        // Merge history: three branches with a commit each, merged by the queue (no test command).
        for (String b : List.of("agent/fix-typos-readme", "agent/round-checkout-totals", "agent/cache-headers")) {
            repo.git("branch", b, "main");
            Path wt = repo.addWorktreeOnBranch(repo.dir().resolve(".worktrees").resolve(b.replace('/', '-')), b);
            TempRepo.write(wt, b.replace('/', '-') + ".txt", b + "\n");
            TempRepo.commitAll(wt, "Work on " + b);
            panel.host.wiring().merges().enqueueBranch(repo.dir(), b, "tester");
        }
        panel.show(width, height);
        panel.waitForState(ids.get(0), "running", 30);
        panel.waitForState(ids.get(6), "awaiting_human", 30);

        TableView<?> table = robot.lookup("#" + SandboxTable.ID).queryAs(TableView.class);
        // CPU and memory show only for container sandboxes: the widest case has them too.
        fx(() -> {
            table.getColumns().forEach(c -> c.setVisible(true));
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        WaitForAsyncUtils.sleep(300, TimeUnit.MILLISECONDS);
        WaitForAsyncUtils.waitForFxEvents();
        List<String> problems = new ArrayList<>(cut(table, List.of("Sandbox", "Tier", "State", "Lease")));

        // The details pane of a selected sandbox: the table keeps its first rows whole (the details pane gets the
        // rest of the height; the divider gives the table more).
        robot.clickOn(Panel.tableRow(robot, ids.get(1)));
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(() -> panel.vm.dashboard().sandboxPanel().selectedIds().equals(List.of(ids.get(1)))));
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(() -> robot.lookup("#" + SandboxDetailsView.ID)
                        .tryQuery()
                        .map(n -> n.isVisible() && n.getScene() != null)
                        .orElse(false)));
        WaitForAsyncUtils.sleep(300, TimeUnit.MILLISECONDS);
        WaitForAsyncUtils.waitForFxEvents();
        int rows = wholeRows(table);
        if (rows < SandboxesView.TABLE_FIRST_ROWS) {
            problems.add("with the details pane open the table shows " + rows + " whole rows");
        }

        // The merge queue tab: the history's headers and its result, attempts and finished values.
        robot.press(javafx.scene.input.KeyCode.CONTROL, javafx.scene.input.KeyCode.DIGIT4)
                .release(javafx.scene.input.KeyCode.DIGIT4, javafx.scene.input.KeyCode.CONTROL);
        WaitForAsyncUtils.waitFor(
                30,
                TimeUnit.SECONDS,
                () -> fx(() -> robot.lookup("#merge-history-table")
                        .tryQuery()
                        .map(n -> ((TableView<?>) n).getItems().size() == 3)
                        .orElse(false)));
        WaitForAsyncUtils.sleep(300, TimeUnit.MILLISECONDS);
        WaitForAsyncUtils.waitForFxEvents();
        TableView<?> history = robot.lookup("#merge-history-table").queryAs(TableView.class);
        // Details: "merged into main as 0123456789ab", whole (on two lines when narrow).
        problems.addAll(
                cut(history, List.of("Result", "Entry", "Details", "Commit", "Finished", "Duration", "Attempts")));
        assertThat(problems).as("at " + width + " x " + height).isEmpty();
    }

    /** What is cut in {@code table}: headers, columns past its edge, cells of {@code columns}. */
    private static List<String> cut(TableView<?> table, List<String> columns) throws Exception {
        return fx(() -> {
            List<String> out = new ArrayList<>();
            for (Node n : table.lookupAll(".column-header .label")) {
                if (n instanceof Labeled l && l.isVisible() && cut(l)) {
                    out.add("header " + l.getText() + " reads " + drawn(l));
                }
            }
            double sum = table.getVisibleLeafColumns().stream()
                    .mapToDouble(TableColumn::getWidth)
                    .sum();
            if (sum > table.getWidth()) {
                out.add("the columns take " + sum + " px of a table " + table.getWidth() + " px wide: "
                        + table.getVisibleLeafColumns().stream()
                                .map(c -> c.getText() + " " + c.getWidth() + " (min " + c.getMinWidth() + ")")
                                .toList());
            }
            for (Node n : table.lookupAll(".table-cell")) {
                if (n instanceof javafx.scene.control.TableCell<?, ?> c
                        && !c.isEmpty()
                        && c.getItem() != null
                        && c.getTableColumn() != null
                        && columns.contains(c.getTableColumn().getText())) {
                    for (Labeled l : labelsIn(c)) {
                        if (cut(l) && !(c.getTableColumn().getText().equals("Sandbox") && keepsEnds(l))) {
                            out.add(c.getTableColumn().getText() + " value " + l.getText() + " reads " + drawn(l));
                        }
                    }
                }
            }
            return out.stream().map(p -> table.getId() + ": " + p).toList();
        });
    }

    private static List<Labeled> labelsIn(javafx.scene.control.TableCell<?, ?> c) {
        List<Labeled> out = new ArrayList<>();
        if (c.getText() != null && !c.getText().isEmpty()) {
            out.add(c);
        }
        for (Node n : c.lookupAll(".label")) {
            if (n instanceof Labeled l
                    && l != c
                    && l.getText() != null
                    && !l.getText().isEmpty()) {
                out.add(l);
            }
        }
        return out;
    }

    /**
     * Whether a long id drawn cut keeps its first 10 and last 8 characters (the task's first words; the date's day
     * and the number that tell ids apart, "1205-001") and only its middle gave way.
     */
    private static boolean keepsEnds(Labeled l) {
        String t = l.getText();
        String d = drawn(l);
        return t.length() > 24 && d.startsWith(t.substring(0, 10)) && d.endsWith(t.substring(t.length() - 8));
    }

    /** Whether JavaFX drew {@code l}'s text cut (with an ellipsis instead of its end, start or middle). */
    private static boolean cut(Labeled l) {
        String drawn = drawn(l);
        return drawn != null && l.getText() != null && !drawn.equals(l.getText());
    }

    /**
     * The text JavaFX drew for {@code l}, after its pending layout pass: a live value (a lease's minutes left) can
     * change between two pulses, and its text node follows only at the next layout.
     */
    private static String drawn(Labeled l) {
        l.applyCss();
        l.layout();
        for (Node n : l.getChildrenUnmodifiable()) {
            if (n instanceof Text t) {
                return t.getText();
            }
        }
        return null;
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
