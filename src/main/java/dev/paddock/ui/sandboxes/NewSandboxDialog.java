package dev.paddock.ui.sandboxes;

import atlantafx.base.theme.Styles;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.ui.common.ErrorBox;
import dev.paddock.ui.common.Icons;
import dev.paddock.ui.theme.Style;
import dev.paddock.ui.theme.Theme;
import javafx.event.ActionEvent;
import javafx.geometry.HPos;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.geometry.VPos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.Spinner;
import javafx.scene.control.SpinnerValueFactory;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.layout.ColumnConstraints;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.stage.Modality;
import javafx.stage.Window;
import org.kordamp.ikonli.materialdesign2.MaterialDesignA;
import org.kordamp.ikonli.materialdesign2.MaterialDesignC;
import org.kordamp.ikonli.materialdesign2.MaterialDesignP;

/**
 * The New Sandbox dialog (Ctrl+N): the agent (a preset, with where its program is and the variables it takes, and its
 * model; or a command of the person's own), task, base branch, branch name (suggested from the
 * task, checked as you type), isolation tier (container only when a Docker engine answers, with its image and
 * CPU, memory and process limits), network, lease and retries, and how many sandboxes of the task to make (more than
 * one is a fan-out: a group of sandboxes, each on a branch of its own; other agents can join it with counts of
 * their own, as {@code --agents claude:2,codex:1}). Create (or Ctrl+Enter) runs
 * off the FX thread with a progress indicator; a failure is shown here and everything typed stays, so
 * it can be fixed and tried again. The dialog's result is the sandbox created, or null when cancelled.
 */
public final class NewSandboxDialog extends Dialog<SandboxRecord> {
    /** The Create button's type. */
    public static final ButtonType CREATE = new ButtonType("Create", ButtonBar.ButtonData.OK_DONE);
    /** The id of the question asked before what was typed is dropped (Escape, Cancel, the close box). */
    public static final String DISCARD_ID = "new-sandbox-discard";
    /** Closes the dialog and drops what was typed. */
    public static final ButtonType DISCARD = new ButtonType("Discard", ButtonBar.ButtonData.NO);
    /** Stays in the dialog (the question's default, and what Escape answers). */
    public static final ButtonType KEEP_EDITING = new ButtonType("Keep editing", ButtonBar.ButtonData.CANCEL_CLOSE);

    private final NewSandboxViewModel vm;
    private final ErrorBox errorBox;
    private final javafx.scene.control.ScrollPane scroll = new javafx.scene.control.ScrollPane();
    private final VBox bottom = new VBox(8);
    private final FormWindowFit fit;

    public NewSandboxDialog(NewSandboxViewModel vm, Window owner) {
        this.vm = vm;
        this.errorBox = new ErrorBox(null).bindTo(vm.errorProperty());
        setTitle("New sandbox");
        if (owner != null) {
            initOwner(owner);
            initModality(Modality.WINDOW_MODAL);
        }
        setResizable(true);
        getDialogPane().setId("new-sandbox-dialog");
        getDialogPane().setUserData(this); // the dialog of a pane found in the scene graph (tests, tools)
        getDialogPane().getStyleClass().addAll(Style.DIALOG, Style.DIALOG_SCROLLING);
        Theme.adopt(getDialogPane(), owner == null ? null : owner.getScene());
        getDialogPane().getButtonTypes().setAll(CREATE, ButtonType.CANCEL);
        getDialogPane().setContent(form());
        fit = new FormWindowFit(getDialogPane(), scroll, bottom);

        Button create = (Button) getDialogPane().lookupButton(CREATE);
        create.setId("new-sandbox-create");
        create.setGraphic(Icons.of(MaterialDesignP.PLAY_OUTLINE));
        create.getStyleClass().add(Styles.ACCENT);
        create.setTooltip(new Tooltip("Create the sandbox and start the agent (Ctrl+Enter)"));
        create.disableProperty().bind(vm.canCreateProperty().not());
        create.addEventFilter(ActionEvent.ACTION, e -> {
            e.consume(); // the dialog stays open until the sandbox exists; a failure is shown here
            vm.create();
        });
        Button cancel = (Button) getDialogPane().lookupButton(ButtonType.CANCEL);
        cancel.setId("new-sandbox-cancel");
        cancel.disableProperty().bind(vm.busyProperty());
        // Closing while git works would leave the person unsure whether the sandbox exists; closing a form with
        // something typed in it asks first (Escape is quickly pressed, and a task can be long).
        setOnCloseRequest(e -> {
            if (vm.busyProperty().get()) {
                e.consume();
            } else if (vm.createdProperty().get() == null && vm.editedProperty().get() && !confirmDiscard()) {
                e.consume();
            }
        });
        getDialogPane()
                .getScene()
                .getAccelerators()
                .put(new KeyCodeCombination(KeyCode.ENTER, KeyCombination.SHORTCUT_DOWN), create::fire);
        vm.createdProperty().addListener((o, a, record) -> {
            if (record != null) {
                setResult(record);
                close();
            }
        });
        setResultConverter(b -> b == CREATE ? vm.createdProperty().get() : null);
        // The container part, a warning next to a tier, a message under a field or the error box change the form's
        // height: the window follows, as far as its screen allows (the form scrolls beyond that). It shrinks only
        // after the choices load and when the tier changes, never as the person types.
        javafx.beans.value.ChangeListener<Object> grow =
                (o, a, b) -> javafx.application.Platform.runLater(() -> fit.fit(false));
        javafx.beans.value.ChangeListener<Object> refit =
                (o, a, b) -> javafx.application.Platform.runLater(() -> fit.fit(true));
        // The first size is taken before wrapped lines are laid out at their width: fit once it shows.
        setOnShown(e -> javafx.application.Platform.runLater(() -> fit.fit(true)));
        // JavaFX closes a dialog's window on its close box even when the dialog refused to close (HeavyweightDialog
        // does not consume the request): the request is taken here and passed to close(), which may ask first.
        getDialogPane().getScene().getWindow().addEventFilter(javafx.stage.WindowEvent.WINDOW_CLOSE_REQUEST, e -> {
            e.consume();
            close();
        });
        vm.tierProperty().addListener(refit);
        vm.container().containerProblemProperty().addListener(refit);
        vm.namespaceProblemProperty().addListener(refit);
        vm.errorProperty().addListener(grow);
        vm.container().formProblemProperty().addListener(grow);
        vm.branchCheckProperty().addListener(grow);
        errorBox.detailsShownProperty().addListener(grow);
        vm.load();
    }

    /**
     * Asks whether what was typed may be dropped; Keep editing is the default (Enter) and Escape's answer.
     *
     * @return true to close and drop it
     */
    private boolean confirmDiscard() {
        return dev.paddock.ui.common.SafeQuestion.ask(
                getDialogPane().getScene(),
                DISCARD_ID,
                "New sandbox",
                "Discard this new sandbox?",
                "What you typed for this sandbox (its task, command and settings) will be" + " lost.",
                DISCARD,
                KEEP_EDITING);
    }

    /** The dialog's ViewModel. */
    public NewSandboxViewModel viewModel() {
        return vm;
    }

    private Node form() {
        TextArea task = new TextArea();
        task.setId("new-sandbox-task");
        task.setPromptText("What should the agent do? E.g. Fix the flaky login test and explain the cause.");
        task.setWrapText(true);
        task.setPrefRowCount(3);
        task.textProperty().bindBidirectional(vm.taskProperty());
        // Tab moves on to the next field, as in the other fields (a task has no use for tab characters):
        // a TextArea moves focus on Ctrl+Tab, so Tab is passed on as that.
        task.addEventFilter(javafx.scene.input.KeyEvent.KEY_PRESSED, e -> {
            if (e.getCode() == javafx.scene.input.KeyCode.TAB && !e.isControlDown()) {
                e.consume();
                task.fireEvent(new javafx.scene.input.KeyEvent(
                        e.getSource(),
                        e.getTarget(),
                        e.getEventType(),
                        e.getCharacter(),
                        e.getText(),
                        e.getCode(),
                        e.isShiftDown(),
                        true,
                        e.isAltDown(),
                        e.isMetaDown()));
            }
        });

        TextField command = new TextField();
        command.setId("new-sandbox-command");
        command.getStyleClass().add(Style.MONO);
        command.setPromptText("claude -p \"...\"   or   ./scripts/agent.sh");
        command.textProperty().bindBidirectional(vm.commandProperty());
        Label commandHint = hint("Runs with /bin/sh -c in the sandbox's worktree; its output goes to the log.");

        ComboBox<String> base = new ComboBox<>(vm.branches());
        base.setId("new-sandbox-base");
        base.setMaxWidth(Double.MAX_VALUE);
        base.valueProperty().bindBidirectional(vm.baseBranchProperty());
        base.setTooltip(new Tooltip("The branch the sandbox starts from and later merges back into"));

        TextField branch = new TextField();
        branch.setId("new-sandbox-branch");
        branch.getStyleClass().add(Style.MONO);
        branch.textProperty().bindBidirectional(vm.branchProperty());
        Label branchCheck = new Label();
        branchCheck.setId("new-sandbox-branch-check");
        branchCheck.setWrapText(true);
        branchCheck.getStyleClass().add(Style.FIELD_MESSAGE);
        branchCheck.setMinHeight(Region.USE_PREF_SIZE);
        vm.branchCheckProperty().addListener((o, a, c) -> showCheck(branchCheck, c));
        vm.branchFollowsTaskProperty()
                .addListener((o, a, follows) ->
                        showCheck(branchCheck, vm.branchCheckProperty().get()));
        showCheck(branchCheck, vm.branchCheckProperty().get());

        GridPane grid = new GridPane();
        grid.setHgap(12);
        grid.setVgap(6);
        ColumnConstraints labels = new ColumnConstraints();
        labels.setHalignment(HPos.RIGHT);
        ColumnConstraints fields = new ColumnConstraints();
        fields.setHgrow(Priority.ALWAYS);
        fields.setFillWidth(true);
        // A set width, so wrapped hints are measured at the width they get (the dialog is as wide as this).
        fields.setPrefWidth(520);
        grid.getColumnConstraints().addAll(labels, fields);
        // The agent's lines (its program, the fan-out's notes) change the form's height: the window grows with them.
        AgentFields agent = new AgentFields(
                vm.agent(), vm.tierProperty(), () -> javafx.application.Platform.runLater(() -> fit.fit(false)));
        javafx.beans.binding.BooleanBinding custom =
                vm.agent().agentProperty().isEqualTo(AgentChoiceViewModel.DEFAULT_AGENT);
        int row = 0;
        row = add(grid, row, "Agent", agent.picker());
        row = add(grid, row, "Task", task);
        showWhen(custom, grid, row);
        row = add(grid, row, "Agent command", new VBox(3, command, commandHint));
        showWhen(custom.not(), grid, row);
        row = add(grid, row, "Model", agent.model());
        row = add(grid, row, "Base branch", base);
        row = add(grid, row, "Branch", new VBox(3, branch, branchCheck));
        row = add(grid, row, "Isolation", new VBox(6, new TierFields(vm).node(), agent.tierNote()));
        row = add(grid, row, "Limits", limits());
        row = add(grid, row, "Fan out", new VBox(6, fanOut(), agent.others()));

        ErrorBox error = errorBox;
        error.setId("new-sandbox-error");
        ProgressIndicator spinner = new ProgressIndicator();
        spinner.setPrefSize(18, 18);
        Label working = new Label("", spinner);
        working.textProperty()
                .bind(vm.countProperty()
                        .map(n -> n == null || n <= 1
                                ? "Creating the sandbox: branch, worktree, identity, state file…"
                                : "Creating " + n
                                        + " sandboxes, one after the other: branch, worktree, identity, state file…"));
        working.setId("new-sandbox-progress");
        working.getStyleClass().add(Style.MUTED);
        working.visibleProperty().bind(vm.busyProperty());
        working.managedProperty().bind(working.visibleProperty());

        // The form scrolls when the window is too small for it (a small screen, an error with its details
        // unfolded); the error and the progress stay in view above the buttons. The window grows up to its
        // screen's height (FormWindowFit), in one resize of both sides, which window managers follow.
        grid.getStyleClass().add(Style.DIALOG_FORM);
        scroll.setContent(grid);
        scroll.setFitToWidth(true);
        scroll.setHbarPolicy(javafx.scene.control.ScrollPane.ScrollBarPolicy.NEVER);
        scroll.getStyleClass().addAll("edge-to-edge", Style.DIALOG_SCROLL);
        scroll.setMinHeight(120);
        bottom.getChildren().setAll(error, working);
        bottom.getStyleClass().add(Style.DIALOG_BOTTOM);
        VBox box = new VBox(scroll, bottom);
        VBox.setVgrow(scroll, Priority.ALWAYS);
        grid.disableProperty().bind(vm.busyProperty());
        task.sceneProperty().addListener((o, a, s) -> {
            if (s != null) {
                javafx.application.Platform.runLater(task::requestFocus);
            }
        });
        return box;
    }

    /** A unit after a number field: never shortened to "...", the fields give way instead. */
    private static Label unit(String text) {
        Label l = new Label(text);
        l.setMinWidth(Region.USE_PREF_SIZE);
        return l;
    }

    static HBox withUnit(Node field, String unit) {
        HBox pair = new HBox(6, field, unit(unit));
        pair.setAlignment(Pos.CENTER_LEFT);
        pair.setMinWidth(Region.USE_PREF_SIZE);
        return pair;
    }

    private Node limits() {
        Spinner<Integer> lease = new Spinner<>();
        lease.setId("new-sandbox-lease");
        lease.setValueFactory(new SpinnerValueFactory.IntegerSpinnerValueFactory(1, 24 * 60, 15));
        lease.getValueFactory().valueProperty().bindBidirectional(vm.leaseMinutesProperty());
        lease.setEditable(true);
        FieldWidths.fitSpinner(lease, "1440"); // 24 h, the longest lease
        lease.setTooltip(new Tooltip("A running agent that sends no heartbeat for this long times out"));
        Spinner<Integer> retries = new Spinner<>();
        retries.setId("new-sandbox-retries");
        retries.setValueFactory(new SpinnerValueFactory.IntegerSpinnerValueFactory(0, 20, 2));
        retries.getValueFactory().valueProperty().bindBidirectional(vm.retriesProperty());
        retries.setEditable(true);
        FieldWidths.fitSpinner(retries, "20"); // the most retries
        retries.setTooltip(new Tooltip("Automatic retries after a failure or timeout before a person is asked"));
        return new javafx.scene.layout.FlowPane(
                14, 6, withUnit(lease, "min lease"), withUnit(retries, "automatic retries"));
    }

    /** How many sandboxes of the task: more than one is a fan-out, each on a branch of its own, in one group. */
    private Node fanOut() {
        Spinner<Integer> count = new Spinner<>();
        count.setId("new-sandbox-count");
        count.setValueFactory(
                new SpinnerValueFactory.IntegerSpinnerValueFactory(1, dev.paddock.sandbox.AgentCounts.MAX_COUNT, 1));
        count.getValueFactory().valueProperty().bindBidirectional(vm.countProperty());
        count.setEditable(true);
        FieldWidths.fitSpinner(count, "20");
        count.setTooltip(new Tooltip("Run the task in this many sandboxes at once, each on a branch of its own"
                + " (<branch>-<agent>-1, -2, ...), grouped in the table so their results can be compared"));
        HBox pair = withUnit(count, "sandboxes");
        ((Label) pair.getChildren().get(1))
                .textProperty()
                .bind(vm.agent().agentProperty().map(a -> "with " + AgentChoiceViewModel.displayName(a)));
        return new VBox(
                3,
                pair,
                hint("More than one runs the task in each at once, on branches of their own"
                        + " (<branch>-<agent>-1, -2, …), side by side in the table; add other agents below."));
    }

    private static void showCheck(Label label, NewSandboxViewModel.BranchCheck c) {
        if (c != null && c.state() == NewSandboxViewModel.BranchState.CHECKING) {
            if (label.getGraphic() == null) {
                label.setText(c.message());
            }
            return;
        }
        label.getStyleClass().removeAll(Style.FIELD_ERROR, Style.FIELD_OK);
        if (c == null) {
            label.setText("Suggested from the task until you edit it.");
            label.setGraphic(null);
            return;
        }
        // While the next verdict is computed the last one stays (above): no flicker as the person types.
        label.setText(c.message());
        switch (c.state()) {
            case INVALID -> {
                label.getStyleClass().add(Style.FIELD_ERROR);
                label.setGraphic(Icons.of(MaterialDesignA.ALERT_CIRCLE_OUTLINE, 14));
            }
            default -> {
                label.getStyleClass().add(Style.FIELD_OK);
                label.setGraphic(Icons.of(MaterialDesignC.CHECK, 14));
            }
        }
    }

    /** Shows the label and field that {@link #add} puts in {@code row} only while {@code shown} holds. */
    private static void showWhen(javafx.beans.binding.BooleanExpression shown, GridPane grid, int row) {
        grid.getChildren().addListener((javafx.collections.ListChangeListener<Node>) c -> {
            while (c.next()) {
                for (Node n : c.getAddedSubList()) {
                    Integer r = GridPane.getRowIndex(n);
                    if (r != null && r == row) {
                        n.visibleProperty().bind(shown);
                        n.managedProperty().bind(shown);
                    }
                }
            }
        });
    }

    private static int add(GridPane grid, int row, String label, Node field) {
        Label l = new Label(label);
        l.getStyleClass().add(Style.FORM_LABEL);
        l.setMinWidth(Region.USE_PREF_SIZE);
        GridPane.setValignment(l, VPos.TOP);
        GridPane.setMargin(l, new Insets(5, 0, 0, 0));
        grid.add(l, 0, row);
        grid.add(field, 1, row);
        return row + 1;
    }

    private static Label hint(String text) {
        Label l = new Label(text);
        l.getStyleClass().add(Style.FIELD_MESSAGE);
        l.setWrapText(true);
        l.setMinHeight(Region.USE_PREF_SIZE);
        return l;
    }
}
