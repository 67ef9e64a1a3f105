package dev.paddock.ui.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javafx.geometry.Bounds;
import javafx.geometry.Point2D;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.layout.StackPane;
import javafx.scene.text.Text;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.kordamp.ikonli.materialdesign2.MaterialDesignS;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * A toast whose title holds a long sandbox id wraps between words, or after one of the id's hyphens: never inside a
 * part of the id ("2026120" / "6-001").
 */
@ExtendWith(ApplicationExtension.class)
class ToastStackWrapTest {
    private static final String ID = "describe-release-process-20261206-001-claude-3";
    private Stage stage;

    @Start
    void start(Stage stage) {
        this.stage = stage;
        Scene scene = new Scene(new StackPane(), 1366, 768);
        dev.paddock.ui.theme.Theme.LIGHT.apply(scene);
        stage.setScene(scene);
        stage.setWidth(1366);
        stage.setHeight(768);
        stage.show();
    }

    @AfterEach
    void close() throws Exception {
        WaitForAsyncUtils.asyncFx(() -> List.copyOf(Window.getWindows()).forEach(Window::hide))
                .get(10, TimeUnit.SECONDS);
    }

    @Test
    void aLongIdInATitleBreaksOnlyBetweenItsParts(FxRobot robot) throws Exception {
        robot.interact(() -> ToastStack.of(stage)
                .show(
                        "k",
                        "test-toast",
                        MaterialDesignS.SHIELD_ALERT_OUTLINE,
                        ID + " asks for approval",
                        "git push origin HEAD",
                        () -> {}));
        WaitForAsyncUtils.waitFor(
                5,
                TimeUnit.SECONDS,
                () -> fx(() -> robot.lookup(".pd-toast-title").tryQuery().isPresent()));
        WaitForAsyncUtils.waitForFxEvents();
        Label title = fx(() -> robot.lookup(".pd-toast-title").queryAs(Label.class));
        List<String> lines = fx(() -> lines(title));
        assertThat(lines).as("the title's lines").hasSizeGreaterThan(1);
        assertThat(String.join("", lines).replace("\u200A", "")).isEqualTo(ID + " asks for approval");
        for (String line : lines.subList(0, lines.size() - 1)) {
            String bare = line.replace("\u200A", "");
            assertThat(bare).as("a line of " + lines).matches(".*[- ]");
        }
        assertThat(fx(title::getAccessibleText)).isEqualTo(ID + " asks for approval");
    }

    /** The lines JavaFX drew the label's text in (a hit test at the middle of each line's height). */
    private static List<String> lines(Label label) {
        Text text = null;
        for (Node n : label.getChildrenUnmodifiable()) {
            if (n instanceof Text t) {
                text = t;
            }
        }
        String s = text.getText();
        Bounds b = text.getLayoutBounds();
        double lineHeight = b.getHeight()
                / Math.max(1, Math.round(b.getHeight() / (text.getFont().getSize() * 1.2)));
        List<Integer> starts = new ArrayList<>();
        for (double y = b.getMinY() + lineHeight / 2; y < b.getMaxY(); y += lineHeight) {
            int i = text.hitTest(new Point2D(b.getMinX() + 0.5, y)).getCharIndex();
            if (starts.isEmpty() || i > starts.get(starts.size() - 1)) {
                starts.add(i);
            }
        }
        List<String> out = new ArrayList<>();
        for (int k = 0; k < starts.size(); k++) {
            out.add(s.substring(starts.get(k), k + 1 < starts.size() ? starts.get(k + 1) : s.length()));
        }
        return out;
    }

    private static <T> T fx(Callable<T> c) throws Exception {
        return WaitForAsyncUtils.asyncFx(c).get(10, TimeUnit.SECONDS);
    }
}
