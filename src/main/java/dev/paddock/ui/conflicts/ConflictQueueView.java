package dev.paddock.ui.conflicts;

import dev.paddock.ui.common.EmptyState;
import dev.paddock.ui.theme.Style;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.input.MouseButton;
import javafx.scene.input.MouseEvent;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.materialdesign2.MaterialDesignC;

/**
 * The conflict queue pane of the dashboard: merge requests waiting for a three-way resolution, oldest
 * first. Double-click or Enter opens the {@link ThreeWayWindow} of the selected entry; a desktop
 * notification announces each new one. Binds to a {@link ConflictQueueViewModel}.
 */
public final class ConflictQueueView extends VBox {
    /** Node id of the list, for tests. */
    public static final String LIST_ID = "conflict-list";

    private final ConflictQueueViewModel vm;
    private final ListView<ConflictQueueRow> list;

    /** The queue of {@code vm}; notifications are shown over this view's window. */
    public ConflictQueueView(ConflictQueueViewModel vm) {
        this.vm = vm;
        getStyleClass().add(Style.CONFLICTS);
        setSpacing(6);
        Label problem = new Label();
        problem.getStyleClass().add(Style.PROBLEM);
        problem.setWrapText(true);
        problem.textProperty().bind(vm.problemProperty());
        problem.visibleProperty().bind(vm.problemProperty().isNotNull());
        problem.managedProperty().bind(problem.visibleProperty());

        list = new ListView<>(vm.rows());
        list.setId(LIST_ID);
        list.setPlaceholder(new EmptyState(
                MaterialDesignC.CHECK_CIRCLE_OUTLINE,
                "No merge conflicts",
                "When the merge queue cannot merge a finished branch cleanly, its conflicted files wait"
                        + " here for a three-way resolution."));
        list.setCellFactory(v -> new ConflictQueueCell(vm.nowProperty()));
        list.setMinHeight(0); // as tall as the dashboard gives it (its entries'), not a list's usual minimum
        setMinHeight(0);
        list.addEventHandler(MouseEvent.MOUSE_CLICKED, e -> {
            if (e.getButton() == MouseButton.PRIMARY && e.getClickCount() == 2) {
                open(list.getSelectionModel().getSelectedItem());
            }
        });
        list.addEventHandler(KeyEvent.KEY_PRESSED, e -> {
            if (e.getCode() == KeyCode.ENTER) {
                e.consume();
                open(list.getSelectionModel().getSelectedItem());
            }
        });
        VBox.setVgrow(list, Priority.ALWAYS);
        getChildren().addAll(problem, list);
        ConflictNotifier notifier = new ConflictNotifier(() -> anchor, this::open);
        vm.setOnArrived(notifier::announce);
        vm.rows().addListener((javafx.collections.ListChangeListener<ConflictQueueRow>) c -> notifier.waiting(
                vm.rows().stream().map(ConflictQueueRow::mergeRequestId).collect(java.util.stream.Collectors.toSet())));
    }

    /** A node of the window notifications and three-way views belong to: this view, unless it is in a pane that folds. */
    private javafx.scene.Node anchor = this;

    /** For a view in a pane that folds (and leaves the scene): {@code anchor} stays in the window. */
    public void placeIn(javafx.scene.Node anchor) {
        this.anchor = anchor;
    }

    /** The list of entries (to focus it, or for tests). */
    public ListView<ConflictQueueRow> list() {
        return list;
    }

    /** Opens the three-way view of {@code row} in its own window. */
    public void open(ConflictQueueRow row) {
        ThreeWayViewModel tw = vm.open(row);
        if (tw != null) {
            ThreeWayWindow.show(
                    anchor.getScene() == null ? null : anchor.getScene().getWindow(),
                    tw,
                    row.branch() + " (" + row.sandboxId() + ")");
        }
    }
}
