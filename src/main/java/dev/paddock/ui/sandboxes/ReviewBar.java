package dev.paddock.ui.sandboxes;

import dev.paddock.ui.common.ErrorBox;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * The details pane's bar for a sandbox ready for review: an optional comment, Approve, Request changes and Discard
 * ({@link ReviewActions}). Shown only in that state.
 */
final class ReviewBar extends VBox {
    ReviewBar(ReviewActions vm) {
        setId("sandbox-review-bar");
        TextField comment = new TextField();
        comment.setId("sandbox-review-comment");
        comment.setPromptText("Ready for review: a comment for the agent (optional), then decide");
        comment.textProperty().bindBidirectional(vm.commentProperty());
        HBox.setHgrow(comment, Priority.ALWAYS);
        Button approve =
                button("sandbox-review-approve", "Approve", "Its branch enters the merge queue.", vm.canActProperty());
        approve.setOnAction(e -> vm.approve());
        Button changes = button(
                "sandbox-review-changes",
                "Request changes",
                "Its review comments (paddock sandbox comment) and this text go to its agent, which runs again.",
                vm.canActProperty());
        changes.setOnAction(e -> vm.requestChanges());
        Button discard = button(
                "sandbox-review-discard",
                "Discard",
                "Removes the sandbox; nothing is merged. Leftover files are committed on its branch, which is kept.",
                vm.canActProperty());
        discard.setOnAction(e -> vm.discard());
        HBox row = new HBox(6, comment, approve, changes, discard);
        row.setAlignment(Pos.CENTER_LEFT);
        Label notice = new Label();
        notice.setId("sandbox-review-notice");
        notice.setWrapText(true);
        notice.textProperty().bind(vm.noticeProperty());
        notice.visibleProperty().bind(vm.noticeProperty().isNotEmpty());
        notice.managedProperty().bind(notice.visibleProperty());
        ErrorBox problem = new ErrorBox(null).bindTo(vm.problemProperty());
        problem.setId("sandbox-review-problem");
        problem.setPrefWidth(0);
        getChildren().setAll(row, notice, problem);
        setSpacing(3);
        visibleProperty().bind(vm.showsProperty().or(vm.noticeProperty().isNotEmpty()));
        managedProperty().bind(visibleProperty());
        row.visibleProperty().bind(vm.showsProperty());
        row.managedProperty().bind(row.visibleProperty());
    }

    private static Button button(String id, String text, String tip, javafx.beans.value.ObservableBooleanValue can) {
        Button b = new Button(text);
        b.setId(id);
        b.setTooltip(new Tooltip(tip));
        b.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        b.disableProperty().bind(javafx.beans.binding.Bindings.not(can));
        return b;
    }
}
