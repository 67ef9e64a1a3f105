package dev.paddock.ui.approvals;

import dev.paddock.ui.common.Icons;
import java.util.function.Consumer;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import org.controlsfx.control.PopOver;
import org.kordamp.ikonli.materialdesign2.MaterialDesignC;

/**
 * Asks for the reason of a deny (optional; the agent reads it): a text field and a Deny button. Enter
 * denies, Escape closes without denying.
 */
final class DenyReasonPopOver extends PopOver {
    /** Node ids, for tests. */
    static final String FIELD_ID = "approval-deny-reason";
    static final String CONFIRM_ID = "approval-deny-confirm";

    /**
     * @param defaultReason shown as the prompt: what the agent reads when the field stays empty
     * @param deny called with the text typed (maybe blank) when the person confirms
     */
    DenyReasonPopOver(String defaultReason, Consumer<String> deny) {
        TextField reason = new TextField();
        reason.setId(FIELD_ID);
        reason.setPromptText(defaultReason);
        reason.setPrefColumnCount(28);
        HBox.setHgrow(reason, Priority.ALWAYS);
        Button confirm = new Button("Deny", Icons.of(MaterialDesignC.CLOSE_CIRCLE_OUTLINE, 14));
        confirm.setId(CONFIRM_ID);
        confirm.getStyleClass().add("danger");
        confirm.setDefaultButton(true);
        Runnable send = () -> {
            hide();
            deny.accept(reason.getText());
        };
        confirm.setOnAction(e -> send.run());
        reason.setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.ENTER) {
                e.consume();
                send.run();
            } else if (e.getCode() == KeyCode.ESCAPE) {
                e.consume();
                hide();
            }
        });
        Label title = new Label("Why? The agent reads this (optional).");
        title.getStyleClass().add("pd-muted");
        HBox row = new HBox(8, reason, confirm);
        row.setAlignment(Pos.CENTER_LEFT);
        VBox box = new VBox(6, title, row);
        box.setPadding(new Insets(10));
        box.getStyleClass().add("pd-deny-reason");
        setContentNode(box);
        setArrowLocation(ArrowLocation.TOP_CENTER);
        setDetachable(false);
        setAutoHide(true);
        setOnShown(e -> reason.requestFocus());
    }
}
