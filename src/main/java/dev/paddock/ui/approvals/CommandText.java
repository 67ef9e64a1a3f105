package dev.paddock.ui.approvals;

import dev.paddock.ui.theme.Style;
import javafx.geometry.Insets;
import javafx.geometry.Orientation;
import javafx.scene.control.TextArea;
import javafx.scene.text.Text;

/**
 * A request's full command or path: monospace, wrapped, read-only but selectable (to copy a part), as
 * tall as its wrapped text up to {@link #MAX_LINES} lines (then it scrolls). Not a tab stop: the keys of
 * the queue act on the list, not here.
 */
final class CommandText extends TextArea {
    /** Style class, for tests and the theme. */
    static final String STYLE = Style.APPROVAL_COMMAND;

    static final int MAX_LINES = 10;
    private final Text measure = new Text();

    CommandText() {
        setEditable(false);
        setWrapText(true);
        setFocusTraversable(false);
        getStyleClass().addAll(Style.MONO, STYLE);
        setMinHeight(USE_PREF_SIZE);
        widthProperty().addListener((o, a, b) -> requestLayout());
        textProperty().addListener((o, a, b) -> requestLayout());
    }

    @Override
    public Orientation getContentBias() {
        return Orientation.HORIZONTAL;
    }

    @Override
    protected double computePrefHeight(double width) {
        double w = width > 0 ? width : getWidth() > 0 ? getWidth() : 280;
        Insets in = getInsets();
        // The skin's content area (the theme pads it) holds the text; leave room for a scroll bar too.
        Insets pad =
                lookup(".content") instanceof javafx.scene.layout.Region c ? c.getInsets() : new Insets(6, 8, 6, 8);
        double textWidth = Math.max(40, w - in.getLeft() - in.getRight() - pad.getLeft() - pad.getRight() - 14);
        measure.setFont(getFont());
        measure.setWrappingWidth(textWidth);
        measure.setText(getText() == null || getText().isEmpty() ? " " : getText());
        double lineHeight = measure.getFont().getSize() * 1.35;
        double h = Math.min(measure.getLayoutBounds().getHeight(), lineHeight * MAX_LINES);
        return Math.ceil(h + in.getTop() + in.getBottom() + pad.getTop() + pad.getBottom() + 4);
    }
}
