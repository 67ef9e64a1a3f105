package dev.paddock.ui.common;

import dev.paddock.ui.theme.Style;
import javafx.beans.value.ObservableValue;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.Ikon;

/** A titled panel of the dashboard: header (icon, title, optional count badge, actions) and body. */
public final class Card extends VBox {
    private final HBox header;

    public Card(Ikon icon, String title, Node body) {
        getStyleClass().add(Style.CARD);
        Label t = new Label(title, Icons.of(icon, 16));
        t.getStyleClass().add(Style.CARD_TITLE);
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        header = new HBox(8, t, spacer);
        header.setAlignment(Pos.CENTER_LEFT);
        header.getStyleClass().add(Style.CARD_HEADER);
        VBox.setVgrow(body, Priority.ALWAYS);
        getChildren().addAll(header, body);
    }

    /** Adds a count badge after the title, hidden while the count is zero. */
    public Card withBadge(ObservableValue<? extends Number> count) {
        Label badge = new Label();
        badge.getStyleClass().add(Style.BADGE);
        badge.textProperty().bind(count.map(n -> Long.toString(n.longValue())).orElse("0"));
        badge.visibleProperty().bind(count.map(n -> n.longValue() > 0).orElse(false));
        badge.managedProperty().bind(badge.visibleProperty());
        header.getChildren().add(1, badge);
        return this;
    }

    /** Adds nodes (buttons, labels) at the right end of the header. */
    public Card withActions(Node... actions) {
        header.getChildren().addAll(actions);
        return this;
    }
}
