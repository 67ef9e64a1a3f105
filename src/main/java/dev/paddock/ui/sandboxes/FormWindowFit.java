package dev.paddock.ui.sandboxes;

import javafx.geometry.Rectangle2D;
import javafx.scene.Scene;
import javafx.scene.control.DialogPane;
import javafx.scene.control.ScrollPane;
import javafx.scene.layout.Region;
import javafx.stage.Screen;
import javafx.stage.Window;

/**
 * Sizes a dialog's window to a form that scrolls above a part that does not (an error, a progress line): as
 * tall as the form and that part need, measured at the width they have now (wrapped lines count), at most as
 * tall as the visual bounds of the window's screen (the form scrolls beyond that), and moved up when its bottom
 * would leave the screen. Use on the FX thread, once the window shows.
 */
final class FormWindowFit {
    private final DialogPane pane;
    private final ScrollPane form;
    private final Region bottom;

    /**
     * @param pane the dialog's pane, whose scene the window shows
     * @param form the scrolling form (its content is measured)
     * @param bottom the part under the form that never scrolls
     */
    FormWindowFit(DialogPane pane, ScrollPane form, Region bottom) {
        this.pane = pane;
        this.form = form;
        this.bottom = bottom;
    }

    /**
     * Resizes the window to what the form needs now.
     *
     * @param mayShrink false to only ever grow it (while the person types: no window that jumps as a message
     *     under a field changes length), true to also take back room the form no longer needs
     */
    void fit(boolean mayShrink) {
        Scene scene = pane.getScene();
        Window w = scene == null ? null : scene.getWindow();
        if (w == null || !w.isShowing() || form.getContent() == null) {
            return;
        }
        double formShort = form.getContent().prefHeight(form.getViewportBounds().getWidth())
                - form.getViewportBounds().getHeight();
        double bottomShort = Math.max(0, bottom.prefHeight(bottom.getWidth()) - bottom.getHeight());
        double need = scene.getHeight() + formShort + bottomShort;
        if (mayShrink ? Math.abs(need - scene.getHeight()) < 1 : need <= scene.getHeight() + 0.5) {
            return;
        }
        Rectangle2D screen = Screen.getScreensForRectangle(w.getX(), w.getY(), w.getWidth(), w.getHeight()).stream()
                .findFirst()
                .orElse(Screen.getPrimary())
                .getVisualBounds();
        double frame = w.getHeight() - scene.getHeight(); // title bar and borders, 0 without a window manager
        pane.setPrefHeight(Math.ceil(Math.min(need, screen.getHeight() - frame)));
        pane.setPrefWidth(scene.getWidth()); // as wide as it is (the person may have widened it)
        w.sizeToScene(); // one resize of both sides: GTK refuses a height alone without a window manager
        if (w.getY() + w.getHeight() > screen.getMaxY()) {
            w.setY(Math.max(screen.getMinY(), screen.getMaxY() - w.getHeight()));
        }
    }
}
