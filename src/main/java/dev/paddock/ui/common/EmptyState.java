package dev.paddock.ui.common;

import dev.paddock.ui.theme.Style;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.Ikon;

/** The placeholder of an empty list: an icon, a title and one or two sentences saying what will appear. */
public final class EmptyState extends VBox {
    /** Style class of the whole placeholder. */
    public static final String STYLE = Style.EMPTY;

    public EmptyState(Ikon icon, String title, String text) {
        super(6);
        getStyleClass().add(STYLE);
        setAlignment(Pos.CENTER);
        // Children take the placeholder's width (up to their maximum), so a wrapped text gets the height
        // it needs at that width instead of being cut with an ellipsis in a narrow card.
        setFillWidth(true);
        Label t = new Label(title);
        t.getStyleClass().add(Style.EMPTY_TITLE);
        Label body = new Label(text);
        body.getStyleClass().add(Style.EMPTY_TEXT);
        body.setWrapText(true);
        body.setMaxWidth(420);
        body.setTextAlignment(javafx.scene.text.TextAlignment.CENTER);
        getChildren().addAll(Icons.of(icon, 28), t, body);
    }
}
