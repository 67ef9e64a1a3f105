package dev.paddock.ui.dashboard;

import dev.paddock.ui.common.Icons;
import dev.paddock.ui.theme.Style;
import javafx.beans.property.ReadOnlyLongProperty;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.Ikon;

/** One header tile: a big number with its label and icon. The variant colours it (accent, danger, ...). */
final class TileView extends HBox {
    TileView(Ikon icon, String label, String variant, ReadOnlyLongProperty value, String help) {
        super(12);
        getStyleClass().addAll(Style.TILE, Style.TILE_PREFIX + variant);
        setAlignment(Pos.CENTER_LEFT);
        Label number = new Label();
        number.getStyleClass().add(Style.TILE_VALUE);
        number.textProperty().bind(value.asString());
        Label caption = new Label(label);
        caption.getStyleClass().add(Style.TILE_LABEL);
        VBox text = new VBox(0, number, caption);
        var glyph = Icons.of(icon, 22);
        glyph.getStyleClass().add(Style.TILE_ICON);
        getChildren().addAll(glyph, text);
        setId("tile-" + label.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9]+", "-"));
        Tooltip.install(this, new Tooltip(help));
    }
}
