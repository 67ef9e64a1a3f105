package dev.paddock.ui.theme;

import atlantafx.base.theme.PrimerDark;
import atlantafx.base.theme.PrimerLight;
import javafx.application.Application;
import javafx.scene.Scene;

/**
 * Light and dark looks: AtlantaFX's Primer themes as the user-agent stylesheet, plus Paddock's own
 * {@code paddock.css} (with a {@code .dark} root class for the few colours Paddock sets itself).
 */
public enum Theme {
    LIGHT,
    DARK;

    private static final String PADDOCK_CSS =
            Theme.class.getResource("/dev/paddock/ui/theme/paddock.css").toExternalForm();

    /**
     * Makes this theme the application's user-agent stylesheet. Call it before any control class is first used
     * off the FX thread: {@code Control}'s static initialiser installs Modena when no stylesheet is set yet, and from
     * another thread it does so through {@code runLater}, which could land after this theme and win.
     */
    public void useAsUserAgentStylesheet() {
        // The binary stylesheet: parsing the 170 KB CSS text costs ~300 ms before the first frame.
        Application.setUserAgentStylesheet(
                this == DARK
                        ? new PrimerDark().getUserAgentStylesheetBSS()
                        : new PrimerLight().getUserAgentStylesheetBSS());
    }

    /** Applies this theme to the application and to {@code scene}. Call on the FX thread. */
    public void apply(Scene scene) {
        useAsUserAgentStylesheet();
        if (!scene.getStylesheets().contains(PADDOCK_CSS)) {
            scene.getStylesheets().add(PADDOCK_CSS);
        }
        scene.getRoot().getStyleClass().remove("dark");
        if (this == DARK) {
            scene.getRoot().getStyleClass().add("dark");
        }
    }

    /**
     * Gives a dialog or another window the look of the window it belongs to: Paddock's stylesheet and,
     * when {@code owner} is dark, the dark root class. Call on the FX thread.
     */
    public static void adopt(javafx.scene.Parent root, Scene owner) {
        if (!root.getStylesheets().contains(PADDOCK_CSS)) {
            root.getStylesheets().add(PADDOCK_CSS);
        }
        root.getStyleClass().remove("dark");
        if (owner != null
                && owner.getRoot() != null
                && owner.getRoot().getStyleClass().contains("dark")) {
            root.getStyleClass().add("dark");
        }
    }

    /** The other one. */
    public Theme toggled() {
        return this == DARK ? LIGHT : DARK;
    }
}
