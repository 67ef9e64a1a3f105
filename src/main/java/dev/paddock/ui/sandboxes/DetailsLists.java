package dev.paddock.ui.sandboxes;

import dev.paddock.checkpoint.Checkpoint;
import dev.paddock.events.Event;
import dev.paddock.ui.common.Formats;
import dev.paddock.ui.theme.Style;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;

/**
 * The lists of the details pane's History and Checkpoints tabs, each fed by the {@link SandboxDetailsViewModel}: the
 * sandbox's events newest first, and its checkpoints as a timeline with the diff of the ones chosen and a rollback
 * ({@link CheckpointTimeline}; the Changes tab is a {@link ChangesPane}).
 */
final class DetailsLists {
    private final SandboxDetailsViewModel vm;

    DetailsLists(SandboxDetailsViewModel vm) {
        this.vm = vm;
    }

    // History -------------------------------------------------------------------------------------

    ListView<Event> history() {
        // Newest first, like the dashboard's recent events.
        ListView<Event> list = new ListView<>(new javafx.collections.transformation.SortedList<>(
                vm.history(), java.util.Comparator.comparingLong(Event::id).reversed()));
        list.setId("sandbox-history");
        list.getStyleClass().addAll(Style.EVENTS, "dense");
        list.setPlaceholder(new Label("No events yet."));
        list.setCellFactory(v -> new ListCell<>() {
            private final Label time = new Label();
            private final Label kind = new Label();
            private final Label message = new Label();
            private final HBox box = new HBox(10, time, kind, message);

            {
                time.getStyleClass().add(Style.EVENT_TIME);
                time.setMinWidth(Region.USE_PREF_SIZE);
                kind.getStyleClass().add(Style.CHIP);
                kind.setMinWidth(Region.USE_PREF_SIZE);
                message.setMaxWidth(Double.MAX_VALUE);
                HBox.setHgrow(message, Priority.ALWAYS);
                box.setAlignment(Pos.CENTER_LEFT);
                setPrefWidth(0);
            }

            @Override
            protected void updateItem(Event e, boolean empty) {
                super.updateItem(e, empty);
                if (empty || e == null) {
                    setGraphic(null);
                    setTooltip(null);
                    return;
                }
                time.setText(Formats.clock(e.at(), Instant.now()));
                String k = e.kind().startsWith("sandbox.") ? e.kind().substring("sandbox.".length()) : e.kind();
                kind.setText(k.replace('_', ' '));
                kind.getStyleClass().removeIf(c -> c.startsWith(Style.SEVERITY_PREFIX));
                kind.getStyleClass()
                        .add(Style.SEVERITY_PREFIX
                                + dev.paddock.events.EventSeverity.of(e.kind()).id());
                message.setText(e.message());
                setTooltip(new Tooltip(e.at() + "\n" + e.message() + (e.details() == null ? "" : "\n" + e.details())));
                setGraphic(box);
            }
        });
        return list;
    }

    // Checkpoints ---------------------------------------------------------------------------------

    /** The Checkpoints tab: the timeline, its diff and its rollback. */
    CheckpointTimeline checkpoints() {
        return new CheckpointTimeline(vm);
    }

    /** "#3  14:02  turn ended (turn 4)  ·  1 added · 2 modified · 0 deleted". */
    static String describe(Checkpoint c, Instant now) {
        return "#" + c.number() + "  " + (c.createdAt() == null ? "" : Formats.clock(c.createdAt(), now)) + "  "
                + c.message() + (c.turn() == null ? "" : " (turn " + c.turn() + ")") + "  ·  "
                + c.changes().added().size() + " added · "
                + c.changes().modified().size() + " modified · "
                + c.changes().deleted().size() + " deleted";
    }

    /** Its change list counted, compactly: "+1 ~2 −1" (added, modified, deleted), or "no change". */
    static String counts(Checkpoint c) {
        List<String> parts = new ArrayList<>();
        if (!c.changes().added().isEmpty()) {
            parts.add("+" + c.changes().added().size());
        }
        if (!c.changes().modified().isEmpty()) {
            parts.add("~" + c.changes().modified().size());
        }
        if (!c.changes().deleted().isEmpty()) {
            parts.add("−" + c.changes().deleted().size());
        }
        return parts.isEmpty() ? "no change" : String.join(" ", parts);
    }

    /** Its paths, one a line: "A path", "M path", "D path". */
    static String paths(Checkpoint c) {
        StringBuilder b = new StringBuilder();
        c.changes().added().forEach(p -> b.append("A ").append(p).append('\n'));
        c.changes().modified().forEach(p -> b.append("M ").append(p).append('\n'));
        c.changes().deleted().forEach(p -> b.append("D ").append(p).append('\n'));
        return b.isEmpty()
                ? "No change since the checkpoint before."
                : b.toString().strip();
    }
}
