package dev.paddock.ui.mergequeue;

import atlantafx.base.theme.Styles;
import dev.paddock.ui.common.EmptyState;
import dev.paddock.ui.common.ErrorBox;
import dev.paddock.ui.common.Icons;
import dev.paddock.ui.theme.Style;
import java.util.List;
import javafx.application.Platform;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.collections.ListChangeListener;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Label;
import javafx.scene.control.MenuItem;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.Ikon;
import org.kordamp.ikonli.materialdesign2.MaterialDesignC;
import org.kordamp.ikonli.materialdesign2.MaterialDesignF;
import org.kordamp.ikonli.materialdesign2.MaterialDesignR;
import org.kordamp.ikonli.materialdesign2.MaterialDesignS;

/**
 * The merge queue tab: a toolbar (cancel, retry, open test log) acting on the selected entry, the entries waiting
 * for a person to review their change to policy or hook configuration with the diff and Approve / Reject
 * ({@link ReviewPane}, only while there are some), the entry being merged ({@link RunningCard}), the queued entries in the queue's order with their position and waiting
 * time, and the history (merged, failed, cancelled, conflict) with result, merge commit, finished time and
 * duration; an empty state says what will appear. Binds to a {@link MergeQueueViewModel}; never calls services.
 *
 * <p>Keyboard, as on the sandboxes tab: Delete or Ctrl+. cancel, Ctrl+Shift+R retry, and Ctrl+L opens the test
 * log, Ctrl+Shift+A approves and Ctrl+Shift+X rejects a policy change, while the focus is in this tab. They are key handlers of this view, not scene accelerators, and its
 * context menus show the keys without registering them: the sandboxes tab's Delete, Ctrl+. and Ctrl+Shift+R
 * accelerators stay its own (JavaFX keeps one accelerator per key in a scene).
 */
public final class MergeQueueView extends VBox {
    /** Keys of the actions. */
    public static final KeyCombination CANCEL = new KeyCodeCombination(KeyCode.PERIOD, KeyCombination.SHORTCUT_DOWN);

    public static final KeyCombination CANCEL_DELETE = new KeyCodeCombination(KeyCode.DELETE);
    public static final KeyCombination RETRY =
            new KeyCodeCombination(KeyCode.R, KeyCombination.SHORTCUT_DOWN, KeyCombination.SHIFT_DOWN);
    public static final KeyCombination OPEN_LOG = new KeyCodeCombination(KeyCode.L, KeyCombination.SHORTCUT_DOWN);
    /** Node ids, for tests. */
    static final String CANCEL_ID = "merge-cancel";

    static final String RETRY_ID = "merge-retry";
    static final String LOG_ID = "merge-open-log";
    static final String EMPTY_ID = "merge-queue-empty";
    /** Height of a table's column header, px (AtlantaFX's), and the most queued rows shown without scrolling. */
    private static final double HEADER_HEIGHT = 36;

    private static final int MAX_QUEUED_ROWS = 5;

    private final MergeQueueViewModel vm;
    private final TableView<QueueRow> queued;
    private final TableView<QueueRow> history;
    private final ReviewPane review;

    public MergeQueueView(MergeQueueViewModel vm) {
        this.vm = vm;
        setId("merge-queue-view");
        getStyleClass().add(Style.MERGE_QUEUE);
        setSpacing(6);
        var css = MergeQueueView.class.getResource("/dev/paddock/ui/mergequeue/mergequeue.css");
        if (css != null) {
            getStylesheets().add(css.toExternalForm());
        }

        queued = QueueTables.queued(vm.queued(), vm.nowProperty());
        queued.setPlaceholder(muted("No entry waits: the next approved branch starts at once."));
        history = QueueTables.history(vm.history(), vm.nowProperty());
        history.setPlaceholder(muted("Merged, failed, cancelled and conflicted entries appear here."));
        review = new ReviewPane(vm);
        followSelection(queued, history, review.table());
        followSelection(history, queued, review.table());
        followSelection(review.table(), queued, history);
        queued.setContextMenu(contextMenu());
        history.setContextMenu(contextMenu());
        review.table().setContextMenu(contextMenu());

        Label queuedTitle = new Label();
        queuedTitle.getStyleClass().add(Style.MERGE_SECTION);
        queuedTitle.textProperty().bind(Bindings.size(vm.queued()).asString("Queued (%d) — in the order they run"));
        Label historyTitle = new Label();
        historyTitle.textProperty().bind(Bindings.size(vm.history()).asString("History (%d) — newest first"));
        historyTitle.getStyleClass().add(Style.MERGE_SECTION);
        VBox queuedBox = new VBox(4, queuedTitle, queued);
        VBox historyBox = new VBox(4, historyTitle, history);
        // The queue is short most of the time: its table is as tall as its rows (one to five, then it scrolls),
        // and the history takes the rest of the height.
        queued.prefHeightProperty()
                .bind(Bindings.createDoubleBinding(
                        () -> HEADER_HEIGHT
                                + queued.getFixedCellSize()
                                        * Math.max(
                                                1,
                                                Math.min(
                                                        MAX_QUEUED_ROWS,
                                                        vm.queued().size()))
                                + 4,
                        vm.queued()));
        queued.setMinHeight(HEADER_HEIGHT + queued.getFixedCellSize() + 4);
        history.setPrefHeight(120); // small: the queue gets its rows first, the history grows into the rest
        VBox.setVgrow(history, Priority.ALWAYS);
        VBox.setVgrow(historyBox, Priority.ALWAYS);
        historyBox.setMinHeight(HEADER_HEIGHT + 2 * history.getFixedCellSize() + 24);

        VBox content = new VBox(8, review, new RunningCard(vm), queuedBox, historyBox);
        EmptyState empty = new EmptyState(
                MaterialDesignS.SOURCE_MERGE,
                "The merge queue is empty",
                "Finished sandboxes whose branch has new commits enter the queue by themselves (or run"
                        + " 'paddock merge enqueue'). Here you will see the branch being merged with its step"
                        + " (updating, testing, merging) and elapsed time, the branches waiting in order, and the"
                        + " history of merged, failed, cancelled and conflicted ones.");
        empty.setId(EMPTY_ID);
        empty.visibleProperty()
                .bind(Bindings.createBooleanBinding(
                        () -> vm.snapshotProperty().get().isEmpty(), vm.snapshotProperty()));
        // A small screen scrolls instead of squeezing: the review pane keeps its height, the others their minimum.
        javafx.scene.control.ScrollPane scroll = new javafx.scene.control.ScrollPane(content);
        scroll.setFitToWidth(true);
        scroll.setFitToHeight(true);
        scroll.setHbarPolicy(javafx.scene.control.ScrollPane.ScrollBarPolicy.NEVER);
        scroll.getStyleClass().addAll("edge-to-edge", Style.MERGE_SCROLL);
        scroll.visibleProperty().bind(empty.visibleProperty().not());
        StackPane body = new StackPane(scroll, empty);
        VBox.setVgrow(body, Priority.ALWAYS);

        ErrorBox problem = new ErrorBox(null).bindTo(vm.problemProperty());
        problem.setId("merge-queue-problem");
        ErrorBox error = new ErrorBox(vm::dismissError).bindTo(vm.errorProperty());
        error.setId("merge-action-error");
        getChildren().addAll(toolbar(), problem, error, body);

        addEventHandler(KeyEvent.KEY_PRESSED, this::onKey);
    }

    /** The queued entries' table (to focus it, or for tests). */
    public TableView<QueueRow> queuedTable() {
        return queued;
    }

    /** The table of entries waiting for a policy review (to focus it, or for tests). */
    public TableView<QueueRow> reviewTable() {
        return review.table();
    }

    /** The history's table (to focus it, or for tests). */
    public TableView<QueueRow> historyTable() {
        return history;
    }

    private void onKey(KeyEvent e) {
        if (CANCEL.match(e) || CANCEL_DELETE.match(e)) {
            vm.cancel();
        } else if (RETRY.match(e)) {
            vm.retry();
        } else if (OPEN_LOG.match(e)) {
            vm.openLog();
        } else if (ReviewPane.APPROVE.match(e)) {
            vm.approve();
        } else if (ReviewPane.REJECT.match(e)) {
            vm.reject();
        } else {
            return;
        }
        e.consume(); // not the sandboxes tab's accelerators of the same keys
    }

    private HBox toolbar() {
        Button cancel = tool(
                CANCEL_ID,
                MaterialDesignC.CLOSE_CIRCLE_OUTLINE,
                "Cancel",
                "Take the selected entry out of the queue; a running one stops before it moves base ("
                        + CANCEL_DELETE.getDisplayText() + " or " + CANCEL.getDisplayText() + ")",
                vm.canCancelProperty(),
                vm::cancel);
        Button retry = tool(
                RETRY_ID,
                MaterialDesignR.RESTART,
                "Retry",
                "Put the selected failed, cancelled or conflicted entry back in the queue (" + RETRY.getDisplayText()
                        + ")",
                vm.canRetryProperty(),
                vm::retry);
        Button log = tool(
                LOG_ID,
                MaterialDesignF.FILE_DOCUMENT_OUTLINE,
                "Open test log",
                "Open the selected entry's last test output (" + OPEN_LOG.getDisplayText() + ")",
                vm.canOpenLogProperty(),
                vm::openLog);

        ProgressIndicator spinner = new ProgressIndicator();
        spinner.setPrefSize(16, 16);
        Label status = new Label();
        status.setId("merge-action-status");
        status.getStyleClass().add(Style.MUTED);
        status.setMinWidth(0);
        status.textProperty().bind(vm.noticeProperty());
        status.graphicProperty()
                .bind(Bindings.when(vm.busyProperty())
                        .<javafx.scene.Node>then(spinner)
                        .otherwise((javafx.scene.Node) null));
        Region spacer = new Region();
        spacer.setMinWidth(8);
        HBox.setHgrow(spacer, Priority.ALWAYS);
        HBox bar = new HBox(6, cancel, retry, log, spacer, status);
        bar.setAlignment(Pos.CENTER_LEFT);
        bar.getStyleClass().add(Style.TOOLBAR);
        return bar;
    }

    private static Button tool(
            String id, Ikon icon, String text, String help, ReadOnlyBooleanProperty enabled, Runnable action) {
        Button b = new Button(text, Icons.of(icon, 16));
        b.setId(id);
        b.getStyleClass().add(Styles.FLAT);
        b.setTooltip(new Tooltip(help));
        b.disableProperty().bind(enabled.not());
        b.setOnAction(e -> action.run());
        b.setMinWidth(Region.USE_PREF_SIZE);
        return b;
    }

    private ContextMenu contextMenu() {
        return new ContextMenu(
                item(
                        "Cancel",
                        MaterialDesignC.CLOSE_CIRCLE_OUTLINE,
                        CANCEL_DELETE.getDisplayText() + ", " + CANCEL.getDisplayText(),
                        vm.canCancelProperty(),
                        vm::cancel),
                item("Retry", MaterialDesignR.RESTART, RETRY.getDisplayText(), vm.canRetryProperty(), vm::retry),
                item(
                        "Open test log",
                        MaterialDesignF.FILE_DOCUMENT_OUTLINE,
                        OPEN_LOG.getDisplayText(),
                        vm.canOpenLogProperty(),
                        vm::openLog),
                item(
                        "Approve policy change",
                        MaterialDesignC.CHECK_DECAGRAM_OUTLINE,
                        ReviewPane.APPROVE.getDisplayText(),
                        vm.canApproveProperty(),
                        vm::approve),
                item(
                        "Reject policy change",
                        MaterialDesignC.CLOSE_OCTAGON_OUTLINE,
                        ReviewPane.REJECT.getDisplayText(),
                        vm.canRejectProperty(),
                        vm::reject));
    }

    /** A menu item showing its keys in its text: an accelerator would take the key from the sandboxes tab. */
    private static MenuItem item(
            String text, Ikon icon, String keys, ReadOnlyBooleanProperty enabled, Runnable action) {
        MenuItem m = new MenuItem(text + "    (" + keys + ")", Icons.of(icon, 14));
        m.disableProperty().bind(enabled.not());
        m.setOnAction(e -> action.run());
        return m;
    }

    /**
     * A row picked in {@code table} becomes the view model's selection and clears the {@code others}' ones; a row that
     * a read replaced is selected again.
     */
    @SafeVarargs
    private void followSelection(TableView<QueueRow> table, TableView<QueueRow>... others) {
        table.getSelectionModel().selectedItemProperty().addListener((o, was, row) -> {
            if (row != null) {
                vm.select(row.id());
                for (TableView<QueueRow> other : others) {
                    if (other.getSelectionModel().getSelectedItem() != null) {
                        other.getSelectionModel().clearSelection();
                    }
                }
            }
        });
        table.getItems().addListener((ListChangeListener<QueueRow>) c -> Platform.runLater(() -> reselect(table)));
        vm.selectedProperty().addListener((o, was, row) -> {
            if (row == null || table.getItems().stream().noneMatch(r -> r.id() == row.id())) {
                if (table.getSelectionModel().getSelectedItem() != null
                        && (row == null
                                || table.getSelectionModel().getSelectedItem().id() != row.id())) {
                    table.getSelectionModel().clearSelection();
                }
            }
        });
    }

    private void reselect(TableView<QueueRow> table) {
        QueueRow want = vm.selectedProperty().get();
        QueueRow have = table.getSelectionModel().getSelectedItem();
        if (want == null || (have != null && have.id() == want.id())) {
            return;
        }
        List<QueueRow> items = table.getItems();
        for (int i = 0; i < items.size(); i++) {
            if (items.get(i).id() == want.id()) {
                table.getSelectionModel().clearAndSelect(i);
                return;
            }
        }
    }

    private static Label muted(String text) {
        Label l = new Label(text);
        l.getStyleClass().add(Style.MUTED);
        l.setWrapText(true);
        return l;
    }
}
