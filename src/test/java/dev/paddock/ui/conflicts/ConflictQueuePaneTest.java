package dev.paddock.ui.conflicts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.testing.ConflictScenarios;
import dev.paddock.testing.GitConflictBackend;
import dev.paddock.testing.TempRepo;
import dev.paddock.ui.dashboard.DashboardView;
import dev.paddock.ui.dashboard.DashboardViewModel;
import dev.paddock.ui.theme.Theme;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.input.KeyCode;
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
 * The conflict queue pane of the real dashboard, fed by a backend over a real conflicting merge: an
 * entry arriving unfolds the queues from their rail, shows in the list with its counts, the card's badge counts
 * it, a notification announces it, and Enter opens its three-way view in a window.
 */
@ExtendWith(ApplicationExtension.class)
class ConflictQueuePaneTest {
    @TempDir
    Path temp;

    private Stage stage;
    private final DashboardViewModel dashboard = new DashboardViewModel();
    private GitConflictBackend backend;

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @BeforeEach
    void show() throws Exception {
        TempRepo repo = ConflictScenarios.serviceAndNotes(temp.resolve("repo"));
        backend = new GitConflictBackend(repo);
        WaitForAsyncUtils.asyncFx(() -> {
                    Scene scene = new Scene(new DashboardView(dashboard), 1280, 800);
                    Theme.LIGHT.apply(scene);
                    stage.setScene(scene);
                    stage.show();
                    stage.toFront();
                })
                .get(60, TimeUnit.SECONDS);
    }

    @AfterEach
    void close() throws Exception {
        WaitForAsyncUtils.asyncFx(() -> List.copyOf(Window.getWindows()).forEach(Window::hide))
                .get(10, TimeUnit.SECONDS);
        dashboard.close();
    }

    @Test
    void anArrivingConflictIsCountedAnnouncedAndOpensItsThreeWayView(FxRobot robot) throws Exception {
        fx(() -> {
            dashboard.conflicts().connect(backend);
            return null;
        });
        Thread.sleep(300); // the first reload (empty) is read before the entry arrives
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(badgeVisible(robot)).isFalse();
        // With no conflict and no request, the queues are folded to the rail, which counts none.
        assertThat(fx(() -> robot.lookup("#conflicts-pane").tryQuery().isPresent()))
                .isFalse();
        assertThat(fx(() -> robot.lookup("#side-rail .pd-side-rail-count").queryAllAs(Label.class).stream()
                        .map(Label::getText)
                        .toList()))
                .containsExactly("0", "0");

        backend.enqueue(new ConflictQueueRow(
                7, "sb-42", "agent/b", 2, 2, 3, Instant.now().minus(Duration.ofMinutes(5))));

        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(() -> dashboard.conflicts().rows().size() == 1));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(badgeVisible(robot)).isTrue();
        assertThat(robot.lookup("#conflicts-pane .pd-badge")
                        .queryAs(Label.class)
                        .getText())
                .isEqualTo("1");
        Predicate<Node> notification = n -> n.getStyleClass().contains(ConflictNotifier.STYLE);
        WaitForAsyncUtils.waitFor(
                5, TimeUnit.SECONDS, () -> robot.lookup(notification).tryQuery().isPresent());
        Node cell = robot.lookup("#" + ConflictQueueView.LIST_ID + " .pd-conflict-cell")
                .match(n -> n.isVisible() && ((javafx.scene.control.ListCell<?>) n).getItem() != null)
                .query();
        assertThat(robot.from(cell).lookup(".label").queryAll())
                .extracting(n -> ((Label) n).getText())
                .contains("agent/b", "sb-42", "2 files", "3 human", "2 safe", "5 min ago");

        // No request waits: the approval card shrinks to its header and the conflict queue gets the height.
        assertThat(fx(() -> robot.lookup("#approvals-pane")
                                .query()
                                .getLayoutBounds()
                                .getHeight()
                        < robot.lookup("#conflicts-pane")
                                .query()
                                .getLayoutBounds()
                                .getHeight()))
                .as("the conflict queue is the taller")
                .isTrue();
        // A long branch and sandbox id lose their middle: the entry is never wider than the queue.
        backend.enqueue(new ConflictQueueRow(
                8,
                "describe-the-release-process-for-maintainers-20261206-001",
                "agent/describe-the-release-process-for-maintainers",
                1,
                1,
                0,
                Instant.now().minus(Duration.ofHours(1))));
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(() -> dashboard.conflicts().rows().size() == 2));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(() -> robot.lookup("#" + ConflictQueueView.LIST_ID + " .scroll-bar").queryAll().stream()
                        .filter(n -> n instanceof javafx.scene.control.ScrollBar b
                                && b.getOrientation() == javafx.geometry.Orientation.HORIZONTAL
                                && b.isVisible())
                        .count()))
                .as("a horizontal scroll bar in the conflict queue")
                .isZero();

        robot.clickOn(cell);
        robot.type(KeyCode.ENTER);
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(() -> Window.getWindows().stream()
                        .anyMatch(w -> w.getScene() != null && w.getScene().getRoot() instanceof ThreeWayView)));
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(() -> robot.lookup("#" + ThreeWayView.FILES_ID)
                                .queryAs(ListView.class)
                                .getItems()
                                .size()
                        == 2));
        assertThat(fx(() -> Window.getWindows().stream()
                        .filter(w -> w instanceof Stage s
                                && s.getTitle() != null
                                && s.getTitle().startsWith("Resolve conflicts: agent/b (sb-42)"))
                        .count()))
                .isEqualTo(1);
    }

    private static boolean badgeVisible(FxRobot robot) throws Exception {
        return fx(() -> robot.lookup("#conflicts-pane .pd-badge")
                .tryQuery()
                .map(Node::isVisible)
                .orElse(false));
    }

    private static <T> T fx(Callable<T> c) throws Exception {
        return WaitForAsyncUtils.asyncFx(c).get(30, TimeUnit.SECONDS);
    }
}
