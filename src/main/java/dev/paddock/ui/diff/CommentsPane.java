package dev.paddock.ui.diff;

import dev.paddock.diff.FileChange;
import dev.paddock.ui.theme.Style;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;

/** The comments on a change, oldest first; choosing one shows its file. A button comments on the whole change. */
final class CommentsPane extends BorderPane {
    static final String LIST_ID = "diff-comments";

    CommentsPane(DiffViewModel vm, Runnable commentOnChange) {
        getStyleClass().add(Style.DIFF_COMMENTS);
        Label title = new Label();
        title.getStyleClass().add(Style.CODE_CAPTION);
        Runnable count = () -> title.setText("Comments (" + vm.comments().size() + ")");
        vm.comments().addListener((javafx.collections.ListChangeListener<DiffBackend.Comment>) c -> count.run());
        count.run();
        Button general = new Button("Comment on the change…");
        general.setId("diff-comment-general");
        general.setOnAction(e -> commentOnChange.run());
        HBox head = new HBox(8, title, general);
        head.setAlignment(Pos.CENTER_LEFT);
        head.setPadding(new Insets(2, 6, 2, 0));
        ListView<DiffBackend.Comment> list = new ListView<>(vm.comments());
        list.setId(LIST_ID);
        list.setPlaceholder(new Label("No comments yet: double-click a line, or press C on it, to comment."));
        list.setCellFactory(l -> new ListCell<>() {
            @Override
            protected void updateItem(DiffBackend.Comment c, boolean empty) {
                super.updateItem(c, empty);
                setText(
                        empty || c == null
                                ? null
                                : where(c) + "  " + c.author() + ": " + c.body().replace('\n', ' ')
                                        + (c.sent() ? "  (sent)" : ""));
            }
        });
        list.getSelectionModel().selectedItemProperty().addListener((o, a, c) -> {
            if (c != null && c.path() != null) {
                for (FileChange f : vm.files()) {
                    if (f.path().equals(c.path())) {
                        vm.selectedProperty().set(f);
                    }
                }
            }
        });
        setTop(head);
        setCenter(list);
        setMinHeight(60);
    }

    private static String where(DiffBackend.Comment c) {
        return c.path() == null ? "(whole change)" : c.path() + ":" + c.line() + (c.oldSide() ? " (old)" : "");
    }
}
