package dev.paddock.ui.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.ui.common.LayoutMemory;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javafx.beans.binding.Bindings;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.SplitPane;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The approval and conflict queues fold to a rail while both are empty, open when a request or a conflict arrives,
 * and fold again when they empty, unless a person opened them by hand (remembered for the next run).
 */
@ExtendWith(ApplicationExtension.class)
class SideFoldTest {
    private final ObservableList<String> requests = FXCollections.observableArrayList();
    private final ObservableList<String> conflicts = FXCollections.observableArrayList();
    private final LayoutMemory memory = LayoutMemory.inMemory();
    private final javafx.beans.property.BooleanProperty note = new javafx.beans.property.SimpleBooleanProperty();
    private Label main;
    private VBox side;
    private Stage stage;
    private SideFold fold;

    @Start
    void start(Stage stage) {
        this.stage = stage;
        main = new Label("tables");
        main.setMaxWidth(Double.MAX_VALUE);
        side = new VBox(new Label("queues"));
    }

    private void show() throws Exception {
        fx(() -> {
            fold = new SideFold(main, side, Bindings.size(requests), Bindings.size(conflicts), note, memory);
            stage.setScene(new Scene(fold, 1366, 600));
            // (The stage is shared with the tests run before: its size is set, not left from theirs.)
            stage.setWidth(1366);
            stage.setHeight(600);
            stage.show();
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
    }

    @Test
    void foldedWhileEmptyOpenWhenARequestArrivesAndFoldedAgainWhenItIsDecided(FxRobot robot) throws Exception {
        show();
        assertThat(shown()).isEqualTo("rail");
        assertThat(railCounts(robot)).containsExactly("0", "0");
        assertThat(fx(() -> main.getWidth()))
                .as("the tables get all but the rail")
                .isGreaterThan(1366 - 60);

        run(() -> requests.add("git push"));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(shown()).isEqualTo("side");
        assertThat(fx(() -> side.getWidth()))
                .as("the side's first width")
                .isBetween(DashboardView.SIDE_MIN_WIDTH, 561.0);

        run(() -> conflicts.add("agent/b"));
        run(() -> requests.clear());
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(shown()).as("a conflict still waits").isEqualTo("side");

        run(() -> conflicts.clear());
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(shown()).as("a moment later").isEqualTo("side");
        waitForRail();
    }

    @Test
    void theNoteAboutADecisionIsReadBeforeTheQueuesFold(FxRobot robot) throws Exception {
        show();
        run(() -> requests.add("git push"));
        // Approved: the request leaves and the note tells what was decided.
        run(() -> {
            requests.clear();
            note.set(true);
        });
        Thread.sleep((long) SideFold.FOLD_DELAY.toMillis() + 500);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(shown()).isEqualTo("side");

        run(() -> note.set(false));
        waitForRail();
    }

    private void waitForRail() throws Exception {
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> shown().equals("rail"));
    }

    @Test
    void openedByHandItStaysOpenAndTheChoiceIsRemembered(FxRobot robot) throws Exception {
        show();
        robot.clickOn("#side-unfold");
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(shown()).isEqualTo("side");
        assertThat(memory.get(SideFold.PINNED, -1)).isEqualTo(1.0);

        run(() -> requests.add("git push"));
        run(() -> requests.clear());
        Thread.sleep((long) SideFold.FOLD_DELAY.toMillis() + 500);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(shown()).as("a person opened it").isEqualTo("side");

        // The next run starts open too, and folding it by hand is remembered as well.
        fx(() -> {
            stage.setScene(null);
            return null;
        });
        show();
        assertThat(shown()).isEqualTo("side");
        fx(() -> {
            fold.toggle();
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(shown()).isEqualTo("rail");
        assertThat(memory.get(SideFold.PINNED, -1)).isEqualTo(0.0);
    }

    @Test
    void foldedByHandWhileRequestsWaitTheRailCountsThem(FxRobot robot) throws Exception {
        fx(() -> requests.addAll("git push", "rm -rf build"));
        show();
        assertThat(shown()).isEqualTo("side");
        fx(() -> {
            fold.fold();
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(shown()).isEqualTo("rail");
        assertThat(railCounts(robot)).containsExactly("2", "0");
        assertThat(fx(() -> robot.lookup("#" + SideRail.ID + " .pd-side-rail-count").queryAllAs(Label.class).stream()
                        .map(l -> l.getStyleClass().contains(SideRail.WAITING))
                        .toList()))
                .as("what waits stands out")
                .containsExactly(true, false);
        assertThat(fx(() -> robot.lookup("#side-rail-approvals")
                        .queryButton()
                        .getTooltip()
                        .getText()))
                .isEqualTo("2 requests waiting for a decision (Ctrl+B shows them)");

        run(() -> conflicts.add("agent/b"));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(shown()).as("only a queue leaving zero opens it").isEqualTo("rail");
        assertThat(railCounts(robot)).containsExactly("2", "1");
    }

    /** "rail" or "side": what shows beside the tables. */
    private String shown() throws Exception {
        return fx(() -> {
            if (fold.getRight() instanceof SideRail && fold.getCenter() == main) {
                return "rail";
            }
            if (fold.getCenter() instanceof SplitPane s
                    && s.getItems().equals(java.util.List.of(main, side))
                    && fold.getRight() == null) {
                return "side";
            }
            return "neither: " + fold.getCenter() + " / " + fold.getRight();
        });
    }

    private java.util.List<String> railCounts(FxRobot robot) throws Exception {
        return fx(() -> robot.lookup("#" + SideRail.ID + " .pd-side-rail-count").queryAllAs(Label.class).stream()
                .map(Label::getText)
                .toList());
    }

    private static void run(Runnable r) throws Exception {
        WaitForAsyncUtils.asyncFx(r).get(30, TimeUnit.SECONDS);
    }

    private static <T> T fx(Callable<T> c) throws Exception {
        return WaitForAsyncUtils.asyncFx(c).get(30, TimeUnit.SECONDS);
    }
}
