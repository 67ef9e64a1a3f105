package dev.paddock.ui.sandboxes;

import atlantafx.base.theme.Styles;
import dev.paddock.checkpoint.Checkpoint;
import dev.paddock.events.Event;
import dev.paddock.ui.common.Formats;
import dev.paddock.ui.common.Icons;
import dev.paddock.ui.theme.Style;
import dev.paddock.worktree.WorktreeManager;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.materialdesign2.MaterialDesignR;
import org.kordamp.ikonli.materialdesign2.MaterialDesignS;

/**
 * The lists of the details pane's History, Changes and Checkpoints tabs, each fed by the {@link
 * SandboxDetailsViewModel}: the sandbox's events newest first, its worktree's change list against its base, and its
 * checkpoints with their change lists.
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

    VBox checkpoints() {
        ListView<Checkpoint> list = new ListView<>(vm.checkpoints());
        list.setId("sandbox-checkpoints");
        list.setPlaceholder(new Label(
                "No checkpoints yet: one is kept when the agent's turn ends or it runs" + " paddock checkpoint."));
        list.setCellFactory(v -> new ListCell<>() {
            @Override
            protected void updateItem(Checkpoint c, boolean empty) {
                super.updateItem(c, empty);
                if (empty || c == null) {
                    setText(null);
                    setTooltip(null);
                    return;
                }
                setText(describe(c, Instant.now()));
                setTooltip(new Tooltip(paths(c)));
            }
        });
        Label hint = new Label("Roll back from a terminal: paddock sandbox rollback ID N");
        hint.setId("sandbox-checkpoints-hint");
        hint.getStyleClass().add(Style.MUTED);
        vm.sandboxProperty()
                .addListener((o, a, s) -> hint.setText("Roll back from a terminal: paddock sandbox" + " rollback "
                        + (s == null ? "ID" : s.id()) + " N"));
        VBox box = new VBox(6, hint, list);
        VBox.setVgrow(list, Priority.ALWAYS);
        return box;
    }

    /** "#3  14:02  turn ended (turn 4)  ·  1 added · 2 modified · 0 deleted". */
    static String describe(Checkpoint c, Instant now) {
        return "#" + c.number() + "  " + (c.createdAt() == null ? "" : Formats.clock(c.createdAt(), now)) + "  "
                + c.message() + (c.turn() == null ? "" : " (turn " + c.turn() + ")") + "  ·  "
                + c.changes().added().size() + " added · "
                + c.changes().modified().size() + " modified · "
                + c.changes().deleted().size() + " deleted";
    }

    private static String paths(Checkpoint c) {
        StringBuilder b = new StringBuilder();
        c.changes().added().forEach(p -> b.append("A ").append(p).append('\n'));
        c.changes().modified().forEach(p -> b.append("M ").append(p).append('\n'));
        c.changes().deleted().forEach(p -> b.append("D ").append(p).append('\n'));
        return b.isEmpty()
                ? "No change since the checkpoint before."
                : b.toString().strip();
    }

    // Changes -------------------------------------------------------------------------------------

    /** One line of the change list. */
    record Change(char kind, String path) {}

    VBox changes() {
        ObservableList<Change> rows = FXCollections.observableArrayList();
        ListView<Change> list = new ListView<>(rows);
        list.setId("sandbox-changes");
        list.setPlaceholder(new Label("No changes against the base commit."));
        list.setCellFactory(v -> new ListCell<>() {
            @Override
            protected void updateItem(Change c, boolean empty) {
                super.updateItem(c, empty);
                if (empty || c == null) {
                    setText(null);
                    setGraphic(null);
                    return;
                }
                Label chip = new Label(
                        switch (c.kind()) {
                            case 'A' -> "added";
                            case 'D' -> "deleted";
                            default -> "modified";
                        });
                chip.getStyleClass()
                        .addAll(
                                Style.CHIP,
                                switch (c.kind()) {
                                    case 'A' -> Style.CHIP_SUCCESS;
                                    case 'D' -> Style.CHIP_DANGER;
                                    default -> Style.CHIP_ACCENT;
                                });
                chip.setMinWidth(64);
                chip.setAlignment(Pos.CENTER);
                setGraphic(chip);
                setText(c.path());
                getStyleClass().add(Style.MONO_CELL);
            }
        });
        Label summary = new Label("Looking at the worktree…");
        summary.setId("sandbox-changes-summary");
        summary.getStyleClass().add(Style.MUTED);
        Button refresh = new Button(null, Icons.of(MaterialDesignR.REFRESH, 14));
        refresh.setId("sandbox-changes-refresh");
        refresh.getStyleClass().addAll(Styles.FLAT, Styles.BUTTON_ICON, Styles.SMALL);
        refresh.setTooltip(new Tooltip("Look again now (it refreshes every few seconds while shown)"));
        refresh.setOnAction(e -> vm.refreshChanges());
        Button diff = new Button(
                "Review diff…", Icons.of(org.kordamp.ikonli.materialdesign2.MaterialDesignF.FILE_COMPARE, 14));
        diff.setId("sandbox-changes-diff");
        diff.getStyleClass().add(Styles.SMALL);
        diff.setTooltip(new Tooltip(
                "The whole change, line by line, with comments, in its own window" + " (or double-click a file)"));
        diff.setOnAction(e -> openDiff(list, null));
        list.setOnMouseClicked(e -> {
            Change c = list.getSelectionModel().getSelectedItem();
            if (e.getClickCount() == 2 && c != null) {
                openDiff(list, c.path());
            }
        });
        list.setOnKeyPressed(e -> {
            Change c = list.getSelectionModel().getSelectedItem();
            if (e.getCode() == javafx.scene.input.KeyCode.ENTER && c != null) {
                openDiff(list, c.path());
            }
        });
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        HBox bar = new HBox(8, Icons.of(MaterialDesignS.SOURCE_BRANCH, 14), summary, spacer, diff, refresh);
        bar.setAlignment(Pos.CENTER_LEFT);
        vm.changesProperty().addListener((o, a, c) -> {
            rows.setAll(rowsOf(c));
            summary.setText(describe(c));
        });
        vm.changesAtProperty()
                .addListener((o, a, at) ->
                        summary.setText(describe(vm.changesProperty().get())));
        VBox box = new VBox(6, bar, list);
        VBox.setVgrow(list, Priority.ALWAYS);
        box.getStyleClass().add(Style.CHANGES);
        return box;
    }

    /** Opens the diff window of the sandbox shown, at {@code path} (null: its first file). */
    private void openDiff(javafx.scene.Node from, String path) {
        dev.paddock.status.RepositoryStatus.Sandbox s = vm.sandboxProperty().get();
        dev.paddock.ui.diff.DiffBackend diffs = vm.diffs();
        if (s == null || diffs == null) {
            return;
        }
        dev.paddock.ui.diff.DiffWindow.show(
                from.getScene() == null ? null : from.getScene().getWindow(),
                diffs,
                s.id(),
                s.branch() + " (" + s.id() + ")",
                path);
    }

    private String describe(WorktreeManager.ChangeList c) {
        if (c == null) {
            return "Looking at the worktree…";
        }
        Instant at = vm.changesAtProperty().get();
        return c.added().size() + " added · " + c.modified().size() + " modified · "
                + c.deleted().size()
                + " deleted, against the base commit"
                + (at == null ? "" : "  (as of " + Formats.clock(at, Instant.now()) + ")");
    }

    private static List<Change> rowsOf(WorktreeManager.ChangeList c) {
        List<Change> out = new ArrayList<>();
        if (c != null) {
            c.added().forEach(p -> out.add(new Change('A', p)));
            c.modified().forEach(p -> out.add(new Change('M', p)));
            c.deleted().forEach(p -> out.add(new Change('D', p)));
            out.sort(java.util.Comparator.comparing(Change::path));
        }
        return out;
    }
}
