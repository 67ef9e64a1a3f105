package dev.paddock.ui.diff;

import java.util.function.Consumer;
import javafx.scene.Node;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.layout.VBox;

/** Asks for a comment's text: what it is about (a quoted line), then a text area; Ctrl+Enter stores it. */
final class CommentDialog {
    static final String TEXT_ID = "diff-comment-text";

    private CommentDialog() {}

    /** Shows the dialog over {@code owner}; {@code onText} gets the text when the person stores it. */
    static void ask(Node owner, String about, Consumer<String> onText) {
        Dialog<String> d = new Dialog<>();
        d.setTitle("Comment");
        if (owner.getScene() != null) {
            d.initOwner(owner.getScene().getWindow());
            d.getDialogPane().getStylesheets().setAll(owner.getScene().getStylesheets());
        }
        Label what = new Label(about);
        what.setWrapText(true);
        what.setMaxWidth(560);
        what.setStyle("-fx-font-family: monospace;");
        TextArea text = new TextArea();
        text.setId(TEXT_ID);
        text.setPromptText("What should the agent change here?");
        text.setPrefRowCount(5);
        text.setWrapText(true);
        text.setPrefWidth(560);
        ButtonType store = new ButtonType("Comment", ButtonBar.ButtonData.OK_DONE);
        d.getDialogPane().getButtonTypes().setAll(store, ButtonType.CANCEL);
        VBox content = new VBox(8, what, text);
        content.setPadding(new javafx.geometry.Insets(12, 12, 0, 12));
        d.getDialogPane().setContent(content);
        Node ok = d.getDialogPane().lookupButton(store);
        ok.disableProperty().bind(text.textProperty().isEmpty());
        text.setOnKeyPressed(e -> {
            if (e.isShortcutDown()
                    && e.getCode() == javafx.scene.input.KeyCode.ENTER
                    && !text.getText().isBlank()) {
                d.setResult(text.getText());
                d.close();
            }
        });
        d.setResultConverter(b -> b == store ? text.getText() : null);
        d.setOnShown(e -> text.requestFocus());
        d.resultProperty().addListener((o, a, r) -> {
            if (r != null && !r.isBlank()) {
                onText.accept(r);
            }
        });
        d.show();
    }
}
