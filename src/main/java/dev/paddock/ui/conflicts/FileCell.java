package dev.paddock.ui.conflicts;

import dev.paddock.ui.common.Icons;
import dev.paddock.ui.theme.Style;
import javafx.scene.control.ListCell;
import org.kordamp.ikonli.materialdesign2.MaterialDesignC;
import org.kordamp.ikonli.materialdesign2.MaterialDesignF;

/** A conflicted file in the three-way view's list: an icon for its state, its path, its kind and what is left. */
final class FileCell extends ListCell<FileRow> {
    @Override
    protected void updateItem(FileRow r, boolean empty) {
        super.updateItem(r, empty);
        getStyleClass().removeAll(Style.FILE_RESOLVED, Style.FILE_OPEN);
        if (empty || r == null) {
            setText(null);
            setGraphic(null);
            return;
        }
        String detail = r.resolved()
                ? "resolved"
                : !r.isText() ? r.kind().id().replace('_', '/') : r.unresolved() + " of " + r.hunks() + " unresolved";
        setText(r.path() + "\n" + detail);
        setGraphic(Icons.of(
                r.resolved()
                        ? MaterialDesignC.CHECK_CIRCLE_OUTLINE
                        : r.isText()
                                ? MaterialDesignF.FILE_DOCUMENT_EDIT_OUTLINE
                                : MaterialDesignF.FILE_ALERT_OUTLINE));
        getStyleClass().add(r.resolved() ? Style.FILE_RESOLVED : Style.FILE_OPEN);
    }
}
