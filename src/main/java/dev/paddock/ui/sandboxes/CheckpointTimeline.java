package dev.paddock.ui.sandboxes;

import atlantafx.base.theme.Styles;
import dev.paddock.checkpoint.Checkpoint;
import dev.paddock.checkpoint.RollbackPlan;
import dev.paddock.ui.common.ErrorBox;
import dev.paddock.ui.common.Formats;
import dev.paddock.ui.common.Icons;
import dev.paddock.ui.diff.DiffView;
import dev.paddock.ui.diff.DiffWindow;
import dev.paddock.ui.theme.Style;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javafx.application.Platform;
import javafx.collections.ListChangeListener;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.SelectionMode;
import javafx.scene.control.SplitPane;
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
import org.kordamp.ikonli.materialdesign2.MaterialDesignO;
import org.kordamp.ikonli.materialdesign2.MaterialDesignR;

/**
 * The details pane's Checkpoints tab: the sandbox's checkpoints newest first (number, time, message, the agent's turn
 * it closes, and its change list counted; the paths in its tooltip), and beside them the diff of the ones chosen
 * (one: against the checkpoint before it; two with Ctrl-click: the older against the newer) in the diff view.
 * "Roll back to this…" (Ctrl+Shift+B) reads what a rollback to the checkpoint chosen would change, asks with that
 * list ({@link RollbackDialog}), then rolls back with progress and says what it did.
 */
final class CheckpointTimeline extends SplitPane {
    static final String ID = "sandbox-checkpoints-timeline";
    /** Rolls back to the checkpoint chosen (after asking). */
    static final KeyCombination ROLL_BACK =
            new KeyCodeCombination(KeyCode.B, KeyCombination.SHORTCUT_DOWN, KeyCombination.SHIFT_DOWN);

    private final SandboxDetailsViewModel details;
    private final CheckpointTimelineViewModel vm;
    private final ListView<Checkpoint> list;
    private final Button rollBack = new Button("Roll back to this…", Icons.of(MaterialDesignR.RESTORE, 14));
    private boolean choosing;

    CheckpointTimeline(SandboxDetailsViewModel details) {
        this.details = details;
        this.vm = details.timeline();
        setId(ID);
        list = new ListView<>(details.checkpoints());
        list.setId("sandbox-checkpoints");
        list.getStyleClass().add("dense");
        list.getSelectionModel().setSelectionMode(SelectionMode.MULTIPLE);
        list.setPlaceholder(new Label(
                "No checkpoints yet: one is kept when the agent's turn ends or it runs" + " paddock checkpoint."));
        list.setCellFactory(v -> new CheckpointCell());
        list.getSelectionModel().getSelectedItems().addListener((ListChangeListener<Checkpoint>) c -> chooseLater());
        // The list is replaced when a checkpoint comes or goes: the ones chosen stay chosen.
        list.getItems().addListener((ListChangeListener<Checkpoint>) c -> Platform.runLater(this::keepChoice));

        rollBack.setId("sandbox-rollback");
        rollBack.getStyleClass().add(Styles.SMALL);
        rollBack.setMinWidth(Region.USE_PREF_SIZE);
        rollBack.setTooltip(new Tooltip("Make the sandbox's files those of the checkpoint chosen, after showing what"
                + " changes (Ctrl+Shift+B)"));
        rollBack.disableProperty().bind(vm.canRollBackProperty().not());
        rollBack.setOnAction(e -> askRollback());
        ProgressIndicator busy = new ProgressIndicator();
        busy.setPrefSize(14, 14);
        busy.setMinSize(14, 14);
        busy.visibleProperty().bind(vm.busyProperty());
        busy.managedProperty().bind(busy.visibleProperty());
        Label status = new Label();
        status.setId("sandbox-checkpoints-status");
        status.getStyleClass().add(Style.MUTED);
        status.setMaxWidth(Double.MAX_VALUE);
        HBox.setHgrow(status, Priority.ALWAYS);
        status.textProperty()
                .bind(javafx.beans.binding.Bindings.createStringBinding(
                        () -> !vm.progressProperty().get().isEmpty()
                                ? vm.progressProperty().get()
                                : vm.noticeProperty().get() != null
                                        ? vm.noticeProperty().get()
                                        : !vm.comparingProperty().get().isEmpty()
                                                ? vm.comparingProperty().get()
                                                : "Ctrl-click two checkpoints to compare them.",
                        vm.progressProperty(),
                        vm.noticeProperty(),
                        vm.comparingProperty()));
        status.tooltipProperty()
                .bind(javafx.beans.binding.Bindings.createObjectBinding(
                        () -> new Tooltip(status.getText()), status.textProperty()));
        HBox bar = new HBox(6, rollBack, busy, status);
        bar.setAlignment(Pos.CENTER_LEFT);
        ErrorBox problem = new ErrorBox(null).bindTo(vm.problemProperty());
        problem.setId("sandbox-rollback-problem");
        VBox left = new VBox(4, bar, problem, list);
        VBox.setVgrow(list, Priority.ALWAYS);
        left.setMinWidth(260);

        Button open = new Button(null, Icons.of(MaterialDesignO.OPEN_IN_NEW, 14));
        open.setId("sandbox-checkpoint-open");
        open.getStyleClass().addAll(Styles.SMALL, Styles.BUTTON_ICON);
        open.setTooltip(new Tooltip("This diff in a window of its own"));
        open.setOnAction(e -> openWindow());
        DiffView diffView = new DiffView(vm.diff(), false, open).withoutCommitChoice();
        diffView.setId("sandbox-checkpoint-diff");
        Label none = new Label();
        none.getStyleClass().add(Style.MUTED);
        none.textProperty()
                .bind(javafx.beans.binding.Bindings.createStringBinding(
                        () -> vm.chosenProperty().get().size() > 2
                                ? vm.comparingProperty().get()
                                : "Choose a checkpoint to see what it changed; Ctrl-click a second to compare the two.",
                        vm.comparingProperty(),
                        vm.chosenProperty()));
        diffView.visibleProperty()
                .bind(javafx.beans.binding.Bindings.createBooleanBinding(
                        () -> {
                            int n = vm.chosenProperty().get().size();
                            return n == 1 || n == 2;
                        },
                        vm.chosenProperty()));
        none.visibleProperty().bind(diffView.visibleProperty().not());
        StackPane right = new StackPane(none, diffView);
        getItems().setAll(left, right);
        setDividerPositions(0.31);
        SplitPane.setResizableWithParent(left, false);
        addEventFilter(KeyEvent.KEY_PRESSED, e -> {
            if (ROLL_BACK.match(e)) {
                e.consume();
                askRollback();
            }
        });
    }

    /** Tells the view model what is chosen once the selection settled (a list replaced clears it first). */
    private void chooseLater() {
        if (choosing) {
            return;
        }
        choosing = true;
        Platform.runLater(() -> {
            choosing = false;
            vm.choose(new ArrayList<>(list.getSelectionModel().getSelectedItems()));
        });
    }

    /** Chooses again, in the list as it is now, the checkpoints chosen before it was replaced. */
    private void keepChoice() {
        List<Integer> wanted = vm.chosenProperty().get();
        if (wanted.isEmpty() || !list.getSelectionModel().getSelectedItems().isEmpty()) {
            return;
        }
        List<Integer> rows = new ArrayList<>();
        for (int i = 0; i < list.getItems().size(); i++) {
            if (wanted.contains(list.getItems().get(i).number())) {
                rows.add(i);
            }
        }
        if (rows.size() == wanted.size()) {
            list.getSelectionModel()
                    .selectIndices(-1, rows.stream().mapToInt(Integer::intValue).toArray());
        }
    }

    /** The list (tests choose in it). */
    ListView<Checkpoint> list() {
        return list;
    }

    /** Reads what a rollback to the checkpoint chosen changes, then asks. */
    void askRollback() {
        if (!vm.canRollBackProperty().get()) {
            return;
        }
        vm.planRollback().thenAccept(plan -> {
            if (plan != null) {
                Platform.runLater(() -> confirm(plan));
            }
        });
    }

    private void confirm(RollbackPlan plan) {
        RollbackDialog d =
                new RollbackDialog(plan, getScene() == null ? null : getScene().getWindow());
        d.resultProperty().addListener((o, a, r) -> {
            if (r == RollbackDialog.ROLL_BACK) {
                vm.rollback(plan, d.resetBranch());
            }
        });
        d.show();
    }

    private void openWindow() {
        var s = details.sandboxProperty().get();
        if (s == null || vm.chosenProperty().get().isEmpty()) {
            return;
        }
        var shown = vm.diff().selectedProperty().get();
        DiffWindow.show(
                getScene() == null ? null : getScene().getWindow(),
                vm.fixedDiffs(),
                s.id(),
                vm.comparingProperty().get() + " (" + s.id() + ")",
                shown == null ? null : shown.path());
    }

    /** One checkpoint: number, time, message, turn, and its change list counted (the paths in the tooltip). */
    private static final class CheckpointCell extends ListCell<Checkpoint> {
        private final Label number = new Label();
        private final Label time = new Label();
        private final Label message = new Label();
        private final Label turn = new Label();
        private final Label counts = new Label();
        private final HBox box = new HBox(8, number, time, message, turn, counts);

        CheckpointCell() {
            number.getStyleClass().add(Style.CHIP);
            number.setMinWidth(Region.USE_PREF_SIZE);
            time.getStyleClass().add(Style.EVENT_TIME);
            time.setMinWidth(Region.USE_PREF_SIZE);
            message.setMaxWidth(Double.MAX_VALUE);
            message.setMinWidth(40);
            HBox.setHgrow(message, Priority.ALWAYS);
            turn.getStyleClass().add(Style.MUTED);
            turn.setMinWidth(Region.USE_PREF_SIZE);
            turn.managedProperty().bind(turn.visibleProperty());
            counts.getStyleClass().add(Style.MUTED);
            counts.setMinWidth(Region.USE_PREF_SIZE);
            box.setAlignment(Pos.CENTER_LEFT);
            setPrefWidth(0);
        }

        @Override
        protected void updateItem(Checkpoint c, boolean empty) {
            super.updateItem(c, empty);
            if (empty || c == null) {
                setGraphic(null);
                setTooltip(null);
                return;
            }
            number.setText("#" + c.number());
            time.setText(c.createdAt() == null ? "" : Formats.clock(c.createdAt(), Instant.now()));
            message.setText(c.message());
            turn.setVisible(c.turn() != null);
            turn.setText(c.turn() == null ? "" : "turn " + c.turn());
            counts.setText(DetailsLists.counts(c));
            setTooltip(new Tooltip(DetailsLists.describe(c, Instant.now()) + "\n\n" + DetailsLists.paths(c)));
            setGraphic(box);
        }
    }
}
