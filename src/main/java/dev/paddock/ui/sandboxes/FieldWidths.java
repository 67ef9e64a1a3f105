package dev.paddock.ui.sandboxes;

import javafx.beans.binding.Bindings;
import javafx.beans.binding.DoubleBinding;
import javafx.scene.control.Spinner;
import javafx.scene.control.TextField;
import javafx.scene.layout.Region;
import javafx.scene.text.Text;

/**
 * Widths of short number fields measured from the text they must show, in their own font and padding, instead
 * of pixel counts that clip a value as soon as the font or the theme differs ("409(" for 4096).
 */
final class FieldWidths {
    /** Room beside a field's text for the caret after its last character, in px. */
    static final double CARET_ROOM = 4;

    private FieldWidths() {}

    /**
     * Makes a field exactly as wide as {@code widest} (the widest value a person is likely to type) measured in
     * the field's font, plus its padding and {@link #CARET_ROOM}; never narrower, so any such value shows whole.
     * The width follows the field's font and padding (CSS, theme changes).
     */
    static void fitText(TextField field, String widest) {
        Text probe = new Text(widest);
        DoubleBinding width = Bindings.createDoubleBinding(
                () -> {
                    probe.setFont(field.getFont());
                    return Math.ceil(probe.getLayoutBounds().getWidth())
                            + CARET_ROOM
                            + field.snappedLeftInset()
                            + field.snappedRightInset();
                },
                field.fontProperty(),
                field.insetsProperty());
        field.minWidthProperty().bind(width);
        field.prefWidthProperty().bind(width);
        field.maxWidthProperty().bind(width);
    }

    /**
     * Makes a spinner wide enough for {@code widest} in its editor ({@link #fitText}) with its arrows beside:
     * SpinnerSkin's preferred width is its editor's alone (JavaFX 21), though it lays the arrows out inside it.
     */
    static void fitSpinner(Spinner<?> spinner, String widest) {
        fitText(spinner.getEditor(), widest);
        spinner.skinProperty().addListener((o, a, skin) -> {
            if (spinner.lookup(".increment-arrow-button") instanceof Region arrow) {
                DoubleBinding need = Bindings.createDoubleBinding(
                        () -> spinner.snappedLeftInset()
                                + spinner.getEditor().prefWidth(-1)
                                + arrow.prefWidth(-1)
                                + spinner.snappedRightInset(),
                        arrow.widthProperty(),
                        spinner.getEditor().prefWidthProperty(),
                        spinner.insetsProperty());
                spinner.minWidthProperty().bind(need);
                spinner.prefWidthProperty().bind(need);
            }
        });
    }
}
