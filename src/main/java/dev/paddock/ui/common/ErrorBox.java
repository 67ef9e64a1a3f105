package dev.paddock.ui.common;

import atlantafx.base.theme.Styles;
import dev.paddock.ui.theme.Style;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.value.ObservableValue;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.materialdesign2.MaterialDesignA;
import org.kordamp.ikonli.materialdesign2.MaterialDesignC;

/**
 * An inline error: an icon, the short message, a "Details" toggle that unfolds the technical detail
 * (read-only, selectable), and optionally a close button. Hidden (and not managed) while there is no
 * error.
 */
public final class ErrorBox extends VBox {
    /** Style class of the box. */
    public static final String STYLE = Style.ERROR_BOX;

    private final ObjectProperty<UiError> error = new SimpleObjectProperty<>();
    private final Label message = new Label();
    private final ToggleButton detailsToggle = new ToggleButton("Details");
    private final TextArea details = new TextArea();

    /**
     * @param onClose run by the close button; null for a box without one (it hides when the error clears)
     */
    public ErrorBox(Runnable onClose) {
        getStyleClass().add(STYLE);
        message.setGraphic(Icons.of(MaterialDesignA.ALERT_CIRCLE_OUTLINE));
        message.getStyleClass().add(Style.ERROR_MESSAGE);
        message.setWrapText(true);
        message.setMaxWidth(Double.MAX_VALUE);
        message.setMinWidth(0);
        message.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE);
        HBox.setHgrow(message, Priority.ALWAYS);
        detailsToggle.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        detailsToggle.getStyleClass().addAll(Styles.FLAT, Styles.SMALL);
        detailsToggle.setTooltip(new Tooltip("Show the causes and the stack trace (to copy into a bug report)"));
        HBox row = new HBox(8, message, detailsToggle);
        row.setAlignment(Pos.TOP_LEFT);
        if (onClose != null) {
            Button close = new Button(null, Icons.of(MaterialDesignC.CLOSE, 14));
            close.getStyleClass().addAll(Styles.FLAT, Styles.BUTTON_ICON, Styles.SMALL);
            close.setTooltip(new Tooltip("Dismiss"));
            close.setOnAction(e -> onClose.run());
            close.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
            row.getChildren().add(close);
        }
        details.setEditable(false);
        details.getStyleClass().add(Style.MONO);
        details.setPrefRowCount(6);
        details.setMinHeight(96); // a few lines even where space is short (the form above scrolls)
        details.setWrapText(true);
        details.visibleProperty().bind(detailsToggle.selectedProperty());
        details.managedProperty().bind(details.visibleProperty());
        getChildren().addAll(row, details);

        visibleProperty().bind(error.isNotNull());
        managedProperty().bind(visibleProperty());
        error.addListener((o, a, e) -> show(e));
        show(null);
    }

    /** The error shown, or null to hide the box. */
    public ObjectProperty<UiError> errorProperty() {
        return error;
    }

    /** Whether the details are unfolded. */
    public javafx.beans.property.BooleanProperty detailsShownProperty() {
        return detailsToggle.selectedProperty();
    }

    /** Shows whatever {@code source} holds, from now on. */
    public ErrorBox bindTo(ObservableValue<UiError> source) {
        error.bind(source);
        return this;
    }

    private void show(UiError e) {
        message.setText(e == null ? null : e.message());
        details.setText(e == null ? "" : e.details());
        detailsToggle.setSelected(false);
        detailsToggle.setVisible(
                e != null && e.details() != null && !e.details().isBlank());
    }
}
