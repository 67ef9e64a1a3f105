package dev.paddock.ui.common;

import dev.paddock.ui.theme.Theme;
import javafx.scene.Scene;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;

/**
 * A question whose safe answer is the default: "keep editing" when edits would be lost, "cancel" before something
 * that cannot be undone. The safe button is the default (Enter) and has the focus, Escape answers it too, and the
 * other button is never the default, whatever its kind: a person who presses Enter out of habit loses nothing.
 */
public final class SafeQuestion {
    private SafeQuestion() {}

    /**
     * Asks, over the window of {@code from}, and waits for the answer.
     *
     * @param id    the dialog pane's id (tests, styling)
     * @param risky the answer that drops or destroys something
     * @param safe  the answer that keeps everything as it is (its button data should be CANCEL_CLOSE: Escape)
     * @return whether {@code risky} was chosen
     */
    public static boolean ask(
            Scene from, String id, String title, String header, String text, ButtonType risky, ButtonType safe) {
        Alert ask = new Alert(Alert.AlertType.CONFIRMATION, text, risky, safe);
        if (from != null && from.getWindow() != null) {
            ask.initOwner(from.getWindow());
            Theme.adopt(ask.getDialogPane(), from);
        }
        ask.setTitle(title);
        ask.setHeaderText(header);
        ask.getDialogPane().setId(id);
        Button riskyButton = (Button) ask.getDialogPane().lookupButton(risky);
        Button safeButton = (Button) ask.getDialogPane().lookupButton(safe);
        riskyButton.setDefaultButton(false);
        safeButton.setDefaultButton(true);
        ask.setOnShown(e -> safeButton.requestFocus());
        return ask.showAndWait().filter(risky::equals).isPresent();
    }
}
