package dev.paddock.ui.dashboard;

import dev.paddock.events.EventSeverity;
import dev.paddock.status.RepositoryStatus.EventLine;
import dev.paddock.ui.common.EmptyState;
import dev.paddock.ui.common.Formats;
import dev.paddock.ui.theme.Style;
import java.time.Instant;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.collections.ObservableList;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import org.kordamp.ikonli.materialdesign2.MaterialDesignH;

/**
 * Recent events, newest first: time, a kind chip coloured by its severity ({@link EventSeverity}: info, success,
 * warning, error), and the message.
 */
final class EventList extends ListView<EventLine> {
    /** Node id, for tests and styling. */
    static final String ID = "event-list";
    /** Style class prefix of a kind chip's severity (Style.SEVERITY_ERROR). */
    static final String SEVERITY = Style.SEVERITY_PREFIX;

    EventList(ObservableList<EventLine> rows, ReadOnlyObjectProperty<Instant> now) {
        super(rows);
        setId(ID);
        getStyleClass().addAll(Style.EVENTS, "dense");
        setPlaceholder(new EmptyState(
                MaterialDesignH.HISTORY,
                "No events yet",
                "Everything that happens is recorded here, newest first: worktrees added or removed, commits,"
                        + " sandbox state changes, approvals and merges."));
        setCellFactory(v -> new ListCell<>() {
            private final Label time = new Label();
            private final Label kind = new Label();
            private final Label message = new Label();
            private final HBox box = new HBox(10, time, kind, message);

            {
                time.getStyleClass().add(Style.EVENT_TIME);
                kind.getStyleClass().add(Style.CHIP);
                message.getStyleClass().add(Style.EVENT_MESSAGE);
                HBox.setHgrow(message, Priority.ALWAYS);
                message.setMaxWidth(Double.MAX_VALUE);
                box.setAlignment(Pos.CENTER_LEFT);
                // Cells take the list's width and cut long messages with an ellipsis (the tooltip has
                // them whole) instead of growing a horizontal scroll bar.
                setPrefWidth(0);
                kind.setMinWidth(Region.USE_PREF_SIZE);
                time.setMinWidth(Region.USE_PREF_SIZE);
            }

            @Override
            protected void updateItem(EventLine e, boolean empty) {
                super.updateItem(e, empty);
                if (empty || e == null) {
                    setGraphic(null);
                    setTooltip(null);
                    return;
                }
                time.setText(Formats.clock(e.at(), now.get()));
                kind.setText(e.kind());
                kind.getStyleClass().removeIf(s -> s.startsWith(SEVERITY));
                kind.getStyleClass().add(SEVERITY + EventSeverity.of(e.kind()).id());
                message.setText(e.message());
                setTooltip(new Tooltip(e.at() + "\n" + e.message()));
                setGraphic(box);
            }
        });
    }
}
