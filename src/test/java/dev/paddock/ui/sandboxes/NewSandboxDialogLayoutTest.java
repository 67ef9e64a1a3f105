package dev.paddock.ui.sandboxes;

import static dev.paddock.ui.sandboxes.Panel.fx;
import static dev.paddock.ui.sandboxes.Panel.node;
import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.sandbox.Tier;
import dev.paddock.testing.DockerTests;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import javafx.geometry.Bounds;
import javafx.geometry.Rectangle2D;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import javafx.scene.text.Text;
import javafx.stage.Screen;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The New Sandbox dialog's container part, laid out in the real panel: every limit field wide enough for its
 * value, the line saying what is wrong with the image wrapped whole, and the window grown to show the form.
 * The container tier is chosen through the form's ViewModel so the layout is checked whether or not a Docker
 * engine answers here (its creation is covered by {@link NewContainerSandboxDialogTest}).
 */
@ExtendWith(ApplicationExtension.class)
class NewSandboxDialogLayoutTest {
    @TempDir
    Path temp;

    private Stage stage;
    private Panel panel;

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @BeforeEach
    void openPanel() throws Exception {
        panel = Panel.start(temp, stage);
        panel.show();
    }

    @AfterEach
    void closePanel() throws Exception {
        if (panel != null) {
            panel.close();
        }
    }

    /** Opens the dialog with Ctrl+N, waits for its choices and shows the container part. */
    private NewSandboxViewModel openOnContainerTier(FxRobot robot) throws Exception {
        NewSandboxViewModel vm = Panel.openNewSandboxDialog(robot);
        robot.interact(() -> vm.tierProperty().set(Tier.CONTAINER));
        WaitForAsyncUtils.waitForFxEvents();
        return vm;
    }

    /** Width the field's text needs in the field's font, in px. */
    private static double textWidth(TextField f) {
        Text t = new Text(f.getText());
        t.setFont(f.getFont());
        return t.getLayoutBounds().getWidth();
    }

    /** Width the field gives its text (inside its padding), in px. */
    private static double room(TextField f) {
        return f.getWidth() - f.snappedLeftInset() - f.snappedRightInset();
    }

    @Test
    void everyLimitFieldShowsItsWholeValue(FxRobot robot) throws Exception {
        NewSandboxViewModel vm = openOnContainerTier(robot);
        // The defaults (2 CPUs, 4096 MiB, 512 processes) and larger values a person may well type.
        for (String[] values : new String[][] {{"2", "4096", "512"}, {"0.25", "131072", "32768"}}) {
            robot.interact(() -> {
                vm.container().cpusProperty().set(values[0]);
                vm.container().memoryMibProperty().set(values[1]);
                vm.container().pidsProperty().set(values[2]);
            });
            WaitForAsyncUtils.waitForFxEvents();
            for (String id : new String[] {"#new-sandbox-cpus", "#new-sandbox-memory", "#new-sandbox-pids"}) {
                TextField f = robot.lookup(id).queryAs(TextField.class);
                assertThat(fx(f::isVisible)).as(id).isTrue();
                double need = fx(() -> textWidth(f));
                assertThat(fx(() -> room(f)))
                        .as("%s showing \"%s\"", id, fx(f::getText))
                        .isGreaterThanOrEqualTo(need);
            }
        }
        // The lease and retries spinners at their largest values (24 h, 20 retries).
        robot.interact(() -> {
            vm.leaseMinutesProperty().set(24 * 60);
            vm.retriesProperty().set(20);
        });
        WaitForAsyncUtils.waitForFxEvents();
        for (String id : new String[] {"#new-sandbox-lease", "#new-sandbox-retries"}) {
            TextField f = fx(() ->
                    robot.lookup(id).queryAs(javafx.scene.control.Spinner.class).getEditor());
            assertThat(fx(() -> room(f)))
                    .as("%s showing \"%s\"", id, fx(f::getText))
                    .isGreaterThanOrEqualTo(fx(() -> textWidth(f)));
        }
    }

    @Test
    void inANarrowedWindowTheLimitsWrapWholeAndTheImageProblemWrapsInside(FxRobot robot) throws Exception {
        NewSandboxViewModel vm = openOnContainerTier(robot);
        robot.interact(() -> vm.container().imageProperty().set(" "));
        Label problem = robot.lookup("#new-sandbox-container-check").queryAs(Label.class);
        Window w = fx(() -> problem.getScene().getWindow());
        double opened = fx(w::getWidth);
        for (double width : new double[] {opened, 520}) {
            robot.interact(() -> w.setWidth(width)); // the person narrows the window
            WaitForAsyncUtils.waitForFxEvents();
            assertThat(fx(problem::isVisible)).isTrue();
            assertThat(fx(problem::getText)).startsWith("Give an image:");
            // Not cut to "...": the label's text node holds the whole sentence, and the label is as tall as it
            // needs at the width it got, inside the form's right edge.
            Text shown = fx(() -> (Text) problem.lookup(".text"));
            assertThat(fx(shown::getText)).as("window %s px wide", width).isEqualTo(fx(problem::getText));
            assertThat(fx(problem::getHeight))
                    .as("window %s px wide", width)
                    .isGreaterThanOrEqualTo(fx(() -> problem.prefHeight(problem.getWidth())) - 0.5);
            Node form = fx(() -> problem.getScene().lookup(".pd-dialog-form"));
            Bounds f = fx(() -> form.localToScene(form.getLayoutBounds()));
            assertThat(f.getMaxX())
                    .as("the form, window %s px wide", width)
                    .isLessThanOrEqualTo(fx(() -> problem.getScene().getWidth()));
            for (String id : new String[] {
                "#new-sandbox-container-check", "#new-sandbox-cpus", "#new-sandbox-memory", "#new-sandbox-pids"
            }) {
                Node n = robot.lookup(id).query();
                assertThat(fx(() -> n.localToScene(n.getLayoutBounds()).getMaxX()))
                        .as("%s, window %s px wide", id, width)
                        .isLessThanOrEqualTo(f.getMaxX());
            }
            for (String id : new String[] {"#new-sandbox-cpus", "#new-sandbox-memory", "#new-sandbox-pids"}) {
                TextField t = robot.lookup(id).queryAs(TextField.class);
                assertThat(fx(() -> room(t)))
                        .as("%s, window %s px wide", id, width)
                        .isGreaterThanOrEqualTo(fx(() -> textWidth(t)));
            }
        }
    }

    @Test
    void theWindowGrowsToShowTheWholeContainerFormOnTheScreen(FxRobot robot) throws Exception {
        openOnContainerTier(robot);
        ScrollPane scroll = robot.lookup(".pd-dialog-scroll").queryAs(ScrollPane.class);
        Window w = fx(() -> scroll.getScene().getWindow());
        // The grown size is applied on a later pulse.
        WaitForAsyncUtils.waitFor(
                5,
                TimeUnit.SECONDS,
                () -> fx(() -> scroll.getViewportBounds().getHeight() + 0.5
                        >= scroll.getContent().getLayoutBounds().getHeight()));
        Rectangle2D screen =
                fx(() -> Screen.getScreensForRectangle(w.getX(), w.getY(), w.getWidth(), w.getHeight()).stream()
                        .findFirst()
                        .orElse(Screen.getPrimary())
                        .getVisualBounds());
        assertThat(fx(w::getY)).isGreaterThanOrEqualTo(screen.getMinY());
        assertThat(fx(() -> w.getY() + w.getHeight())).isLessThanOrEqualTo(screen.getMaxY());
        assertThat(fx(() -> w.getX() + w.getWidth())).isLessThanOrEqualTo(screen.getMaxX());
    }

    /** The bottom of a node in scene coordinates, in px. */
    private static double bottom(Node n) throws Exception {
        return fx(() -> n.localToScene(n.getLayoutBounds()).getMaxY());
    }

    @Test
    void anImageTheEngineLacksIsSaidWholeAboveTheButtonsEvenWithItsDetails(FxRobot robot) throws Exception {
        DockerTests.requireEngineWithGitImage();
        String absent = "paddock-test:absent-" + Long.toHexString(System.nanoTime());
        panel.host.wiring().repoService().setContainerImage(panel.repo.dir(), absent);
        robot.press(KeyCode.CONTROL, KeyCode.N).release(KeyCode.N, KeyCode.CONTROL);
        Node pane = node(robot, "#new-sandbox-dialog", Node.class);
        NewSandboxViewModel vm = fx(() -> ((NewSandboxDialog) pane.getUserData()).viewModel());
        javafx.scene.control.RadioButton container =
                robot.lookup("#tier-container").queryAs(javafx.scene.control.RadioButton.class);
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, () -> fx(() -> !container.isDisabled()));
        robot.clickOn(container);
        robot.interact(() -> {
            vm.taskProperty().set("Count the files in a box");
            vm.commandProperty().set("ls | wc -l");
        });
        javafx.scene.control.Button create =
                robot.lookup("#new-sandbox-create").queryAs(javafx.scene.control.Button.class);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> fx(() -> !create.isDisabled()));
        robot.clickOn(create);
        Label message = robot.lookup("#new-sandbox-error .pd-error-message").queryAs(Label.class);
        WaitForAsyncUtils.waitFor(
                30, TimeUnit.SECONDS, () -> fx(() -> message.isVisible() && message.getText() != null));
        assertThat(fx(message::getText)).contains(absent);
        Node buttons = fx(() -> pane.lookup(".button-bar"));
        for (boolean details : new boolean[] {false, true}) {
            if (details) {
                robot.clickOn("Details");
            }
            // The size grown to is applied on a later pulse.
            WaitForAsyncUtils.waitFor(
                    5,
                    TimeUnit.SECONDS,
                    () -> fx(() -> message.getHeight() + 0.5 >= message.prefHeight(message.getWidth())));
            Text shown = fx(() -> (Text) message.lookup(".text"));
            assertThat(fx(shown::getText)).as("details unfolded: %s", details).isEqualTo(fx(message::getText));
            assertThat(bottom(message))
                    .as("details unfolded: %s", details)
                    .isLessThanOrEqualTo(fx(() ->
                            buttons.localToScene(buttons.getLayoutBounds()).getMinY()));
        }
        Node detailsArea = fx(() -> pane.lookup("#new-sandbox-error .text-area"));
        assertThat(bottom(detailsArea))
                .isLessThanOrEqualTo(
                        fx(() -> buttons.localToScene(buttons.getLayoutBounds()).getMinY()));
    }
}
