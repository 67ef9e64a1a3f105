package dev.paddock.ui.mergequeue;

import atlantafx.base.theme.Styles;
import dev.paddock.merge.PolicyDiff;
import dev.paddock.ui.common.Icons;
import dev.paddock.ui.theme.Style;
import javafx.beans.binding.Bindings;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.materialdesign2.MaterialDesignC;
import org.kordamp.ikonli.materialdesign2.MaterialDesignS;

/**
 * The entries waiting for a person's review, on top of the merge queue tab (shown only while there are some): their
 * table, and for the selected one the configuration files it changes, the diff from base to the commit under review
 * (added lines green, removed red) and the Approve and Reject buttons. Approve is enabled once the diff of the entry
 * as it waits now is shown, and approves that commit. Keys (while the focus is in the tab): Ctrl+Shift+A approve,
 * Ctrl+Shift+X reject; Tab reaches the buttons.
 */
final class ReviewPane extends VBox {
    /** Keys of the actions. */
    static final KeyCombination APPROVE =
            new KeyCodeCombination(KeyCode.A, KeyCombination.SHORTCUT_DOWN, KeyCombination.SHIFT_DOWN);

    static final KeyCombination REJECT =
            new KeyCodeCombination(KeyCode.X, KeyCombination.SHORTCUT_DOWN, KeyCombination.SHIFT_DOWN);
    /** Node ids, for tests. */
    static final String ID = "merge-review";

    static final String TITLE_ID = "merge-review-title";
    static final String FILES_ID = "merge-review-files";
    static final String DIFF_ID = "merge-review-diff";
    static final String APPROVE_ID = "merge-review-approve";
    static final String REJECT_ID = "merge-review-reject";
    /** Lines of diff shown without scrolling. */
    private static final int DIFF_ROWS = 9;

    private static final double LINE_HEIGHT = 20;

    private final TableView<QueueRow> table;

    ReviewPane(MergeQueueViewModel vm) {
        super(6);
        setId(ID);
        getStyleClass().add(Style.MERGE_REVIEW);

        Label title = new Label();
        title.setId(TITLE_ID);
        title.getStyleClass().add(Style.MERGE_REVIEW_TITLE);
        title.setGraphic(Icons.of(MaterialDesignS.SHIELD_ALERT_OUTLINE, 18));
        title.setWrapText(true);
        title.setMinHeight(Region.USE_PREF_SIZE);
        title.textProperty()
                .bind(Bindings.size(vm.review())
                        .asString("Waiting for your review (%d): these branches"
                                + " change policy or hook configuration (.paddock/, .claude/). Nothing of them is merged until you"
                                + " approve the diff."));

        table = QueueTables.review(vm.review(), vm.nowProperty());
        table.prefHeightProperty()
                .bind(Bindings.createDoubleBinding(
                        () -> 36
                                + table.getFixedCellSize()
                                        * Math.max(1, Math.min(3, vm.review().size()))
                                + 4,
                        vm.review()));
        table.setMinHeight(36 + table.getFixedCellSize() + 4);

        Label files = new Label();
        files.setId(FILES_ID);
        files.getStyleClass().add(Style.MONO);
        files.setMinWidth(0);
        files.setWrapText(true);
        files.setMinHeight(Region.USE_PREF_SIZE);
        files.textProperty()
                .bind(Bindings.createStringBinding(() -> describe(vm), vm.diffProperty(), vm.selectedProperty()));
        HBox.setHgrow(files, Priority.ALWAYS);
        files.setMaxWidth(Double.MAX_VALUE);
        Button approve = new Button("Approve policy change", Icons.of(MaterialDesignC.CHECK_DECAGRAM_OUTLINE, 16));
        approve.setId(APPROVE_ID);
        approve.getStyleClass().add(Styles.SUCCESS);
        approve.setTooltip(new Tooltip("Merge it as usual (tests, then base); from then on the new policy applies to"
                + " every agent. Bound to the commit of this diff: if the branch moves, it is reviewed again ("
                + APPROVE.getDisplayText() + ")"));
        approve.disableProperty().bind(vm.canApproveProperty().not());
        approve.setOnAction(e -> vm.approve());
        approve.setMinWidth(Region.USE_PREF_SIZE);
        Button reject = new Button("Reject", Icons.of(MaterialDesignC.CLOSE_OCTAGON_OUTLINE, 16));
        reject.setId(REJECT_ID);
        reject.getStyleClass().add(Styles.DANGER);
        reject.setTooltip(new Tooltip("Cancel the entry: base keeps nothing of it (" + REJECT.getDisplayText() + ")"));
        reject.disableProperty().bind(vm.canRejectProperty().not());
        reject.setOnAction(e -> vm.reject());
        reject.setMinWidth(Region.USE_PREF_SIZE);
        HBox bar = new HBox(8, files, approve, reject);
        bar.setAlignment(Pos.CENTER_LEFT);

        ObservableList<String> lines = FXCollections.observableArrayList();
        ListView<String> diff = new ListView<>(lines);
        diff.setId(DIFF_ID);
        diff.getStyleClass().add(Style.DIFF);
        diff.setFixedCellSize(LINE_HEIGHT);
        diff.setPrefHeight(LINE_HEIGHT * DIFF_ROWS + 4);
        diff.setMinHeight(LINE_HEIGHT * 4 + 4);
        diff.setCellFactory(l -> new DiffLine());
        Label none = new Label("Select an entry above to see the diff of its policy change.");
        none.getStyleClass().add(Style.MUTED);
        diff.setPlaceholder(none);
        // git's own header lines (diff --git, index) say again what the line above the diff says.
        vm.diffProperty()
                .addListener((o, was, d) -> lines.setAll(
                        d == null
                                ? java.util.List.of()
                                : d.text()
                                        .lines()
                                        .filter(l -> !l.startsWith("diff --git ") && !l.startsWith("index "))
                                        .toList()));
        VBox.setVgrow(diff, Priority.SOMETIMES);

        getChildren().addAll(title, table, bar, diff);
        setMinHeight(Region.USE_PREF_SIZE); // in the tab's scroll pane: never squeezed below its diff
        managedProperty().bind(visibleProperty());
        visibleProperty().bind(Bindings.isNotEmpty(vm.review()));
    }

    /** The table of entries waiting for a review. */
    TableView<QueueRow> table() {
        return table;
    }

    private static String describe(MergeQueueViewModel vm) {
        QueueRow row = vm.selectedProperty().get();
        PolicyDiff d = vm.diffProperty().get();
        if (row == null || !row.awaitsReview()) {
            return "No entry selected.";
        }
        if (d == null || d.entryId() != row.id()) {
            return "Reading the diff of " + row.entry().label() + "…";
        }
        return String.join(", ", d.files()) + " — " + d.baseBranch() + " at " + QueueText.shortCommit(d.baseCommit())
                + " → " + row.entry().request().branch() + " at " + QueueText.shortCommit(d.reviewCommit())
                + (d.truncated() ? " (cut)" : "");
    }

    /** One line of a unified diff, coloured by its first character. */
    private static final class DiffLine extends ListCell<String> {
        @Override
        protected void updateItem(String line, boolean empty) {
            super.updateItem(line, empty);
            getStyleClass().removeAll(Style.DIFF_ADD, Style.DIFF_DEL, Style.DIFF_HUNK, Style.DIFF_META);
            if (empty || line == null) {
                setText(null);
                return;
            }
            setText(line);
            if (line.startsWith("+++")
                    || line.startsWith("---")
                    || line.startsWith("diff ")
                    || line.startsWith("index ")
                    || line.startsWith("new file")
                    || line.startsWith("deleted file")) {
                getStyleClass().add(Style.DIFF_META);
            } else if (line.startsWith("+")) {
                getStyleClass().add(Style.DIFF_ADD);
            } else if (line.startsWith("-")) {
                getStyleClass().add(Style.DIFF_DEL);
            } else if (line.startsWith("@@")) {
                getStyleClass().add(Style.DIFF_HUNK);
            }
        }
    }
}
