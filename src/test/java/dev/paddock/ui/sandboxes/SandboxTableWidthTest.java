package dev.paddock.ui.sandboxes;

import static dev.paddock.ui.sandboxes.Panel.fx;
import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.sandbox.NewSandbox;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.text.Text;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The sandboxes table of a real panel at 1366×768 with long ids: the columns whose content is fixed (tier, state,
 * lease) keep only their measured minimum, so task and branch get the rest, and a cut branch keeps both its start
 * and its distinctive end (the ellipsis is in the middle).
 */
@ExtendWith(ApplicationExtension.class)
class SandboxTableWidthTest {
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

    @Test
    void fixedColumnsKeepTheirMinimumAndABranchKeepsItsEnds(FxRobot robot) throws Exception {
        panel = Panel.start(temp, stage);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ids.add(panel.host
                    .wiring()
                    .sandboxService()
                    .create(NewSandbox.builder()
                            .repository(panel.repo.dir())
                            .task("Rebuild the product search index incrementally, part " + i)
                            .agentCommand("sleep 300")
                            .maxRetries(0)
                            .build())
                    .id());
        }
        panel.show(1366, 768);
        panel.waitForState(ids.get(0), "running", 30);
        TableView<?> table = robot.lookup("#" + SandboxTable.ID).queryAs(TableView.class);
        // No container sandbox: CPU and memory are hidden, the usual case. (With them too, every column is at its
        // minimum at 1366 px and nothing is left to share.)
        WaitForAsyncUtils.waitForFxEvents();
        WaitForAsyncUtils.sleep(300, TimeUnit.MILLISECONDS);
        WaitForAsyncUtils.waitForFxEvents();

        List<String> problems = fx(() -> {
            List<String> out = new ArrayList<>();
            for (TableColumn<?, ?> c : table.getVisibleLeafColumns()) {
                // (On a wide table these get a little air: 12 px at most.)
                if (List.of("Tier", "State", "CPU", "Memory", "Lease").contains(c.getText())
                        && c.getWidth() > c.getMinWidth() + 12.5) {
                    out.add(c.getText() + " is " + c.getWidth() + " px wide, its content needs " + c.getMinWidth());
                }
            }
            for (Node n : table.lookupAll(".table-cell")) {
                if (n instanceof TableCell<?, ?> c
                        && !c.isEmpty()
                        && c.getTableColumn() != null
                        && "Branch".equals(c.getTableColumn().getText())
                        && c.getText() != null) {
                    String branch = c.getText();
                    String drawn = drawn(c);
                    if (!drawn.equals(branch)
                            && !(drawn.startsWith(branch.substring(0, 6))
                                    && drawn.endsWith(branch.substring(branch.length() - 8)))) {
                        out.add("branch " + branch + " reads " + drawn);
                    }
                }
            }
            return out;
        });
        assertThat(problems)
                .as(fx(() -> table.getVisibleLeafColumns().stream()
                        .map(c -> c.getText() + " " + c.getWidth())
                        .toList()
                        .toString()))
                .isEmpty();
    }

    /**
     * With container sandboxes (CPU and memory shown too) at 1366×768 and nothing waiting, the approval and conflict
     * queues are folded to a rail: a task reads at least its first 30 characters, a branch its first and last ten,
     * the tier shows as an icon named in its tooltip; Ctrl+B opens the queues.
     */
    @Test
    void withContainerSandboxesTheQueuesFoldAndTaskAndBranchRead(FxRobot robot) throws Exception {
        // (Beside the open queues, the CPU and memory columns give way to the task: see the end.)
        dev.paddock.testing.DockerTests.requireEngineWithGitImage();
        panel = Panel.start(temp, stage);
        try {
            panel.host
                    .wiring()
                    .repoService()
                    .setContainerImage(panel.repo.dir(), dev.paddock.testing.DockerTests.GIT_IMAGE);
            List<String> tasks = List.of(
                    "Upgrade the logging library to the current release",
                    "Rebuild the product search index in the worker",
                    "Fix the flaky checkout test");
            List<String> ids = new ArrayList<>();
            for (String task : tasks) {
                ids.add(panel.host
                        .wiring()
                        .sandboxService()
                        .create(NewSandbox.builder()
                                .repository(panel.repo.dir())
                                .task(task)
                                .agentCommand("sleep 300")
                                .tier(dev.paddock.sandbox.Tier.CONTAINER)
                                .maxRetries(0)
                                .build())
                        .id());
            }
            panel.show(1366, 768);
            for (String id : ids) {
                panel.waitForState(id, "running", 60);
            }
            TableView<?> table = robot.lookup("#" + SandboxTable.ID).queryAs(TableView.class);
            WaitForAsyncUtils.waitForFxEvents();
            WaitForAsyncUtils.sleep(300, TimeUnit.MILLISECONDS);
            WaitForAsyncUtils.waitForFxEvents();

            assertThat(fx(() -> robot.lookup("#side-rail")
                            .tryQuery()
                            .map(Node::isVisible)
                            .orElse(false)))
                    .as("the queues are folded")
                    .isTrue();
            // The columns settle once the rows' ids and branches are measured (later on a loaded machine).
            java.util.concurrent.Callable<List<String>> check = () -> {
                List<String> out = new ArrayList<>();
                for (Node n : table.lookupAll(".table-cell")) {
                    if (!(n instanceof TableCell<?, ?> c) || c.isEmpty() || c.getTableColumn() == null) {
                        continue;
                    }
                    String column = c.getTableColumn().getText();
                    String drawn = drawn(c);
                    if ("Task".equals(column)
                            && c.getText() != null
                            && !drawn.equals(c.getText())
                            && !(drawn.length() > 30 && c.getText().startsWith(drawn.substring(0, 30)))) {
                        out.add("task " + c.getText() + " reads " + drawn);
                    }
                    // A long branch may lose its middle; its start and its distinctive end stay.
                    if ("Branch".equals(column)
                            && c.getText() != null
                            && !drawn.equals(c.getText())
                            && !(drawn.startsWith(c.getText().substring(0, 10))
                                    && drawn.endsWith(
                                            c.getText().substring(c.getText().length() - 10)))) {
                        out.add("branch " + c.getText() + " reads " + drawn);
                    }
                    if ("Tier".equals(column)
                            && (c.getGraphic() == null
                                    || c.getTooltip() == null
                                    || !c.getTooltip().getText().startsWith("container: "))) {
                        out.add("tier cell " + c.getText() + " has no icon or no tooltip");
                    }
                }
                for (String title : List.of("CPU", "Memory")) {
                    if (table.getVisibleLeafColumns().stream().noneMatch(col -> title.equals(col.getText()))) {
                        out.add(title + " is not shown");
                    }
                }
                return out;
            };
            try {
                WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> fx(check).isEmpty());
            } catch (java.util.concurrent.TimeoutException settledNot) {
                // the assertion below says what is still cut
            }
            List<String> problems = fx(check);
            assertThat(problems)
                    .as(fx(() -> table.getVisibleLeafColumns().stream()
                            .map(c -> c.getText() + " " + c.getWidth())
                            .toList()
                            .toString()))
                    .isEmpty();

            robot.clickOn(table);
            robot.press(javafx.scene.input.KeyCode.CONTROL, javafx.scene.input.KeyCode.B)
                    .release(javafx.scene.input.KeyCode.B, javafx.scene.input.KeyCode.CONTROL);
            WaitForAsyncUtils.waitForFxEvents();
            assertThat(fx(() -> robot.lookup("#approvals-pane")
                            .tryQuery()
                            .map(Node::isVisible)
                            .orElse(false)))
                    .as("Ctrl+B opens the queues")
                    .isTrue();
            // Beside the open queues the table is narrower than CONTAINER_COLUMNS_FROM: CPU and memory give way
            // (the Containers tab has them), and the task reads its first 20 characters.
            WaitForAsyncUtils.waitFor(
                    5,
                    TimeUnit.SECONDS,
                    () -> fx(() -> table.getVisibleLeafColumns().stream()
                            .noneMatch(col -> "CPU".equals(col.getText()) || "Memory".equals(col.getText()))));
            WaitForAsyncUtils.waitForFxEvents();
            List<String> tasksRead = fx(() -> table.lookupAll(".table-cell").stream()
                    .filter(n -> n instanceof TableCell<?, ?> c
                            && !c.isEmpty()
                            && c.getTableColumn() != null
                            && "Task".equals(c.getTableColumn().getText())
                            && c.getText() != null)
                    .map(n -> drawn((TableCell<?, ?>) n))
                    .toList());
            assertThat(tasksRead)
                    .isNotEmpty()
                    .allSatisfy(
                            t -> assertThat(t.length()).as("task drawn as " + t).isGreaterThanOrEqualTo(20));
        } finally {
            dev.paddock.testing.DockerTests.removeAll("paddock.repo=" + panel.repo.dir());
        }
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
