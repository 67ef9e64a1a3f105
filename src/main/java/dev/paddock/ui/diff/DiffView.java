package dev.paddock.ui.diff;

import dev.paddock.diff.CommitSummary;
import dev.paddock.diff.FileChange;
import dev.paddock.ui.common.UiError;
import dev.paddock.ui.theme.Style;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.SplitPane;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.ToggleGroup;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;

/**
 * A sandbox's change: the toolbar (the whole change or one commit, unified or side by side, whitespace), the files as
 * a tree, the file's diff with syntax colours, and the comments. Keys: Alt+Down / Alt+Up the next / previous file,
 * N / P or F7 / Shift+F7 the next / previous hunk, C a comment on the caret's line, Alt+1 unified, Alt+2 side by side, Alt+W
 * whitespace.
 */
public final class DiffView extends BorderPane {
    public static final String UNIFIED_ID = "diff-unified";
    public static final String LEFT_ID = "diff-left";
    public static final String RIGHT_ID = "diff-right";

    private static final String CSS =
            DiffView.class.getResource("/dev/paddock/ui/diff/diff.css").toExternalForm();

    private final DiffViewModel vm;
    private final DiffArea unified = new DiffArea(UNIFIED_ID, DiffArea.Gutter.BOTH);
    private final DiffArea left = new DiffArea(LEFT_ID, DiffArea.Gutter.OLD);
    private final DiffArea right = new DiffArea(RIGHT_ID, DiffArea.Gutter.NEW);
    private final SplitPane sides = new SplitPane(left, right);
    private final StackPane code = new StackPane();
    private final Label caption = new Label();
    private final Label problem = new Label();
    private final CommentsPane commentsPane;
    private final ComboBox<CommitSummary> commitChoice = new ComboBox<>();

    /** @param extra nodes for the toolbar's right end */
    public DiffView(DiffViewModel vm, javafx.scene.Node... extra) {
        this(vm, true, extra);
    }

    /**
     * @param withComments whether the list of comments shows below the text (the details pane leaves it to the
     *     window: its few lines of height go to the text, where comments show under their lines anyway)
     * @param extra nodes for the toolbar's right end (the details pane's "Open in window")
     */
    public DiffView(DiffViewModel vm, boolean withComments, javafx.scene.Node... extra) {
        this.vm = vm;
        getStylesheets().add(CSS);
        getStyleClass().add(Style.DIFF_VIEW);
        this.commentsPane = new CommentsPane(vm, this::commentOnChange);

        setTop(toolbar(extra));
        FileTree tree = new FileTree(vm);
        caption.getStyleClass().add(Style.CODE_CAPTION);
        caption.setMaxWidth(Double.MAX_VALUE);
        caption.setId("diff-caption");
        problem.setId("diff-problem");
        problem.getStyleClass().add(Style.PROBLEM);
        problem.setWrapText(true);
        problem.managedProperty().bind(problem.visibleProperty());
        problem.setVisible(false);
        code.getChildren().add(unified);
        VBox.setVgrow(code, Priority.ALWAYS);
        VBox right = new VBox(caption, problem, code);
        SplitPane split = new SplitPane(tree, right);
        split.setDividerPositions(0.26);
        SplitPane.setResizableWithParent(tree, false);
        if (withComments) {
            SplitPane vertical = new SplitPane(split, commentsPane);
            vertical.setOrientation(javafx.geometry.Orientation.VERTICAL);
            vertical.setDividerPositions(0.82);
            SplitPane.setResizableWithParent(commentsPane, false);
            setCenter(vertical);
        } else {
            setCenter(split);
        }

        this.left
                .area()
                .estimatedScrollYProperty()
                .bindBidirectional(this.right.area().estimatedScrollYProperty());
        this.left
                .area()
                .estimatedScrollXProperty()
                .bindBidirectional(this.right.area().estimatedScrollXProperty());
        for (DiffArea a : new DiffArea[] {unified, this.left, this.right}) {
            a.setOnComment(r -> CommentDialog.ask(this, describe(r), body -> vm.comment(r, body, this::stored)));
        }
        vm.shownProperty().addListener((o, a, s) -> show(s));
        vm.errorProperty().addListener((o, a, e) -> {
            problem.setVisible(e != null);
            problem.setText(e == null ? "" : e.message());
        });
        addEventFilter(KeyEvent.KEY_PRESSED, this::key);
    }

    /**
     * Hides the choice of one commit (for a diff that is not the branch's: a checkpoint's).
     *
     * @return this view
     */
    public DiffView withoutCommitChoice() {
        commitChoice.setVisible(false);
        commitChoice.setManaged(false);
        return this;
    }

    private HBox toolbar(javafx.scene.Node... extra) {
        ComboBox<CommitSummary> commits = commitChoice;
        commits.setId("diff-commit");
        commits.setPromptText("All changes");
        commits.setButtonCell(new CommitCell());
        commits.setCellFactory(l -> new CommitCell());
        // One width whatever it lists: the toolbar does not jump when a commit appears.
        commits.setPrefWidth(260);
        commits.setMinWidth(140);
        commits.setMaxWidth(260);
        commits.setTooltip(new Tooltip("The whole change, or one of its commits"));
        Runnable fill = () -> {
            java.util.List<CommitSummary> items = new java.util.ArrayList<>();
            items.add(null);
            items.addAll(vm.commits());
            commits.getItems().setAll(items);
        };
        vm.commits().addListener((javafx.collections.ListChangeListener<CommitSummary>) c -> fill.run());
        fill.run();
        commits.valueProperty().addListener((o, a, c) -> vm.commitProperty().set(c == null ? null : c.id()));

        ToggleGroup modes = new ToggleGroup();
        ToggleButton one = new ToggleButton("Unified");
        one.setId("diff-mode-unified");
        one.setTooltip(new Tooltip("One column (Alt+1)"));
        ToggleButton two = new ToggleButton("Side by side");
        two.setId("diff-mode-split");
        two.setTooltip(new Tooltip("Old left, new right (Alt+2)"));
        one.setToggleGroup(modes);
        two.setToggleGroup(modes);
        one.setSelected(true);
        modes.selectedToggleProperty().addListener((o, a, t) -> {
            if (t == null) {
                a.setSelected(true); // one is always chosen
            } else {
                vm.modeProperty().set(t == two ? DiffViewModel.Mode.SIDE_BY_SIDE : DiffViewModel.Mode.UNIFIED);
            }
        });
        vm.modeProperty().addListener((o, a, m) -> (m == DiffViewModel.Mode.UNIFIED ? one : two).setSelected(true));
        HBox modeBox = new HBox(one, two);
        modeBox.getStyleClass().add(Style.DIFF_MODES);

        CheckBox ws = new CheckBox("Hide whitespace changes");
        ws.setId("diff-whitespace");
        ws.setTooltip(new Tooltip("Alt+W"));
        ws.selectedProperty().bindBidirectional(vm.ignoreWhitespaceProperty());

        Button reload = new Button("Refresh");
        reload.setId("diff-refresh");
        reload.setTooltip(new Tooltip("Read the change again (the agent may have written more)"));
        reload.setOnAction(e -> vm.reload());

        Label summary = new Label();
        summary.setId("diff-summary");
        summary.getStyleClass().add(Style.MUTED);
        summary.textProperty().bind(vm.messageProperty());
        summary.setMinWidth(Region.USE_PREF_SIZE);
        ProgressIndicator busy = new ProgressIndicator();
        busy.setPrefSize(16, 16);
        busy.visibleProperty().bind(vm.loadingProperty());

        Region gap = new Region();
        HBox.setHgrow(gap, Priority.ALWAYS);
        HBox bar = new HBox(8, commits, modeBox, ws, reload, gap, busy, summary);
        bar.getChildren().addAll(extra);
        bar.setAlignment(Pos.CENTER_LEFT);
        bar.setPadding(new Insets(4, 6, 4, 6));
        bar.getStyleClass().add(Style.DIFF_TOOLBAR);
        return bar;
    }

    private void show(DiffViewModel.Shown s) {
        if (s == null) {
            caption.setText(vm.files().isEmpty() ? "" : "Choose a file");
            unified.show(DiffDocument.note(vm.files().isEmpty() ? "No changes to show." : ""));
            code.getChildren().setAll(unified);
            return;
        }
        FileChange f = s.file();
        caption.setText((f.oldPath() == null ? f.path() : f.oldPath() + " → " + f.path()) + "   "
                + (f.binary() ? "binary" : "+" + f.added() + " −" + f.deleted()));
        if (s.unified() != null) {
            unified.show(s.unified());
            code.getChildren().setAll(unified);
        } else {
            left.show(s.left());
            right.show(s.right());
            code.getChildren().setAll(sides);
        }
    }

    private void key(KeyEvent e) {
        if (e.getTarget() instanceof javafx.scene.control.TextInputControl) {
            return;
        }
        boolean plain = !e.isAltDown() && !e.isControlDown() && !e.isShortcutDown() && !e.isMetaDown();
        DiffArea shownArea = vm.modeProperty().get() == DiffViewModel.Mode.UNIFIED ? unified : right;
        if (e.isAltDown() && e.getCode() == KeyCode.DOWN) {
            vm.step(true);
        } else if (e.isAltDown() && e.getCode() == KeyCode.UP) {
            vm.step(false);
        } else if (e.isAltDown() && e.getCode() == KeyCode.DIGIT1) {
            vm.modeProperty().set(DiffViewModel.Mode.UNIFIED);
        } else if (e.isAltDown() && e.getCode() == KeyCode.DIGIT2) {
            vm.modeProperty().set(DiffViewModel.Mode.SIDE_BY_SIDE);
        } else if (e.isAltDown() && e.getCode() == KeyCode.W) {
            vm.ignoreWhitespaceProperty().set(!vm.ignoreWhitespaceProperty().get());
        } else if ((plain && e.getCode() == KeyCode.N) || (e.getCode() == KeyCode.F7 && !e.isShiftDown())) {
            shownArea.nextHunk(true);
        } else if ((plain && e.getCode() == KeyCode.P) || (e.getCode() == KeyCode.F7 && e.isShiftDown())) {
            shownArea.nextHunk(false);
        } else if (plain && e.getCode() == KeyCode.C) {
            DiffArea focused = left.area().isFocused() ? left : shownArea;
            DiffDocument.Row r = focused.currentLine();
            if (r == null) {
                return;
            }
            focused.commentAt(focused.area().getCurrentParagraph());
        } else {
            return;
        }
        e.consume();
    }

    private String describe(DiffDocument.Row r) {
        FileChange f = vm.selectedProperty().get();
        boolean old = r.kind() == DiffDocument.Kind.DELETED;
        return (f == null ? "" : f.path()) + ", " + (old ? "old line " + r.oldLine() : "line " + r.newLine()) + ":\n"
                + r.text().strip();
    }

    private void commentOnChange() {
        CommentDialog.ask(this, "The change as a whole", body -> vm.comment(null, body, this::stored));
    }

    private void stored(UiError e) {
        problem.setVisible(e != null);
        problem.setText(e == null ? "" : e.message());
    }

    DiffArea unifiedArea() {
        return unified;
    }

    /** "All changes" for null, else a commit's short id and subject. */
    private static final class CommitCell extends ListCell<CommitSummary> {
        @Override
        protected void updateItem(CommitSummary c, boolean empty) {
            super.updateItem(c, empty);
            setText(empty ? null : c == null ? "All changes" : c.shortId() + "  " + c.subject());
        }
    }
}
