package dev.paddock.ui.approvals;

import atlantafx.base.theme.Styles;
import dev.paddock.ui.common.Icons;
import dev.paddock.ui.theme.Style;
import java.util.function.Consumer;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import org.controlsfx.control.PopOver;
import org.kordamp.ikonli.materialdesign2.MaterialDesignC;

/**
 * Asks for the reason of a deny (optional; the agent reads it): a text field and a Deny button. Enter
 * denies, Escape closes without denying.
 */
final class DenyReasonPopOver extends PopOver {
    /** Node ids, for tests. */
    static final String FIELD_ID = "approval-deny-reason";

    static final String CONFIRM_ID = "approval-deny-confirm";

    /**
     * @param defaultReason shown as the prompt: what the agent reads when the field stays empty
     * @param deny called with the text typed (maybe blank) when the person confirms
     */
    DenyReasonPopOver(String defaultReason, Consumer<String> deny) {
        TextField reason = new TextField();
        reason.setId(FIELD_ID);
        reason.setPromptText(defaultReason);
        reason.setPrefColumnCount(28);
        HBox.setHgrow(reason, Priority.ALWAYS);
        Button confirm = new Button("Deny", Icons.of(MaterialDesignC.CLOSE_CIRCLE_OUTLINE, 14));
        confirm.setId(CONFIRM_ID);
        confirm.getStyleClass().add(Styles.DANGER);
        confirm.setDefaultButton(true);
        Runnable send = () -> {
            hide();
            deny.accept(reason.getText());
        };
        confirm.setOnAction(e -> send.run());
        reason.setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.ENTER) {
                e.consume();
                send.run();
            } else if (e.getCode() == KeyCode.ESCAPE) {
                e.consume();
                hide();
            }
        });
        Label title = new Label("Why? The agent reads this (optional).");
        title.getStyleClass().add(Style.MUTED);
        HBox row = new HBox(8, reason, confirm);
        row.setAlignment(Pos.CENTER_LEFT);
        VBox box = new VBox(6, title, row);
        box.setPadding(new Insets(10));
        box.getStyleClass().add(Style.DENY_REASON);
        setContentNode(box);
        setArrowLocation(ArrowLocation.TOP_CENTER);
        setDetachable(false);
        setAutoHide(true);
        setOnShown(e -> reason.requestFocus());
    }

    /** Room the pop-over takes around its content: its arrow, corners and shadow. */
    private static final double FRAME = 40;

    /**
     * Shows the pop-over at {@code anchor} (below it, or above it where the room below is too short), with its arrow
     * where the pop-over stays inside the window and the screen: at its right end beside the window's right edge
     * (the approval queue's side), at its left end beside the left edge, else in its middle.
     */
    void showAt(javafx.scene.Node anchor) {
        javafx.stage.Window w =
                anchor.getScene() == null ? null : anchor.getScene().getWindow();
        javafx.geometry.Bounds a = anchor.localToScreen(anchor.getBoundsInLocal());
        if (w == null || a == null) {
            show(anchor);
            return;
        }
        javafx.geometry.Rectangle2D room = room(w, a);
        javafx.scene.Node content = getContentNode();
        double width = content.prefWidth(-1) + FRAME;
        double height = content.prefHeight(width) + FRAME;
        boolean below = a.getMaxY() + height <= room.getMaxY() || a.getMinY() - height < room.getMinY();
        double x = a.getCenterX();
        boolean right = x + width / 2 > room.getMaxX();
        boolean left = !right && x - width / 2 < room.getMinX();
        setArrowLocation(
                below
                        ? (right ? ArrowLocation.TOP_RIGHT : left ? ArrowLocation.TOP_LEFT : ArrowLocation.TOP_CENTER)
                        : (right
                                ? ArrowLocation.BOTTOM_RIGHT
                                : left ? ArrowLocation.BOTTOM_LEFT : ArrowLocation.BOTTOM_CENTER));
        show(anchor);
        // Whatever its arrow, nothing of it past the window's or the screen's edge.
        if (getX() + getWidth() > room.getMaxX()) {
            setX(Math.max(room.getMinX(), room.getMaxX() - getWidth()));
        }
        if (getX() < room.getMinX()) {
            setX(room.getMinX());
        }
    }

    /** The part of the screen the pop-over may take: the window's, within the screen's bounds where the anchor is. */
    private static javafx.geometry.Rectangle2D room(javafx.stage.Window w, javafx.geometry.Bounds a) {
        javafx.geometry.Rectangle2D window =
                new javafx.geometry.Rectangle2D(w.getX(), w.getY(), w.getWidth(), w.getHeight());
        var screens = javafx.stage.Screen.getScreensForRectangle(a.getMinX(), a.getMinY(), a.getWidth(), a.getHeight());
        javafx.geometry.Rectangle2D screen =
                screens.isEmpty() ? window : screens.get(0).getVisualBounds();
        double minX = Math.max(window.getMinX(), screen.getMinX());
        double minY = Math.max(window.getMinY(), screen.getMinY());
        double maxX = Math.min(window.getMaxX(), screen.getMaxX());
        double maxY = Math.min(window.getMaxY(), screen.getMaxY());
        return maxX > minX && maxY > minY
                ? new javafx.geometry.Rectangle2D(minX, minY, maxX - minX, maxY - minY)
                : window;
    }
}
