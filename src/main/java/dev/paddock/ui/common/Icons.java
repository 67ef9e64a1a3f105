package dev.paddock.ui.common;

import dev.paddock.ui.theme.Style;
import org.kordamp.ikonli.Ikon;
import org.kordamp.ikonli.javafx.FontIcon;

/** Ikonli icons, sized in pixels, with a style class for theming. */
public final class Icons {
    private Icons() {}

    /** An icon of {@code size} pixels. */
    public static FontIcon of(Ikon ikon, int size) {
        FontIcon icon = new FontIcon(ikon);
        icon.setIconSize(size);
        // Also as a style class (see paddock.css): the theme's own icon rules would shrink it otherwise.
        icon.getStyleClass().add(Style.ICON_PREFIX + size);
        icon.getStyleClass().add(Style.ICON);
        return icon;
    }

    /** An icon of 16 pixels. */
    public static FontIcon of(Ikon ikon) {
        return of(ikon, 16);
    }
}
