package dev.paddock.ui.mergesettings;

import atlantafx.base.theme.Styles;
import dev.paddock.merge.AutoResolveMode;
import dev.paddock.merge.MergeStrategy;
import dev.paddock.ui.common.ErrorBox;
import dev.paddock.ui.common.Icons;
import dev.paddock.ui.theme.Style;
import dev.paddock.ui.theme.Theme;
import javafx.beans.property.ObjectProperty;
import javafx.beans.value.ObservableStringValue;
import javafx.event.ActionEvent;
import javafx.geometry.HPos;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.geometry.VPos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.RadioButton;
import javafx.scene.control.TextField;
import javafx.scene.control.Toggle;
import javafx.scene.control.ToggleGroup;
import javafx.scene.control.Tooltip;
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

/**
 * The Merge settings dialog (Ctrl+Shift+M): one repository's merge strategy, test command, test timeout,
 * maximum attempts and auto-resolve mode, the same settings as {@code paddock merge config} and
 * {@code /v1/merges/settings}. Fields are checked as they are typed (a message under the field; Save is
 * disabled while one is invalid or nothing changed). Save (Enter or Ctrl+S) stores the changes off the FX
 * thread and closes; when the backend refuses, its message is shown here and the dialog stays open. Cancel
 * (or Escape) with unsaved edits asks first.
 */
public final class MergeSettingsDialog extends Dialog<Void> {
    /** The Save button's type. */
    public static final ButtonType SAVE = new ButtonType("Save", ButtonBar.ButtonData.OK_DONE);
    /** The unsaved-changes question's id. */
    public static final String UNSAVED_ID = "merge-settings-unsaved";
    /** Leaves without saving. */
    public static final ButtonType DISCARD = new ButtonType("Discard changes", ButtonBar.ButtonData.NO);
    /** Stays in the dialog. */
    public static final ButtonType KEEP_EDITING = new ButtonType("Keep editing", ButtonBar.ButtonData.CANCEL_CLOSE);

    /** Hint under the test command. */
    static final String TEST_HINT = "Runs in the merge result, in the sandbox's tier; empty: no test.";

    private final MergeSettingsViewModel vm;
    private boolean saved;
    /** Has the focus once shown (the dialog itself focuses a button). */
    private TextField firstField;

    /** A dialog over {@code owner} (may be null) for the view model's repository; loads its settings. */
    public MergeSettingsDialog(MergeSettingsViewModel vm, Window owner) {
        this.vm = vm;
        setTitle("Merge settings — " + vm.repositoryName());
        if (owner != null) {
            initOwner(owner);
            initModality(Modality.WINDOW_MODAL);
        }
        setResizable(true);
        getDialogPane().setId("merge-settings-dialog");
        getDialogPane().setUserData(this);
        getDialogPane().getStyleClass().add(Style.DIALOG);
        // AtlantaFX caps .dialog-pane at 600 px (-fx-max-width), under this form's minimum: computed instead.
        getDialogPane().setStyle("-fx-max-width: -1;");
        Theme.adopt(getDialogPane(), owner == null ? null : owner.getScene());
        getDialogPane().getButtonTypes().setAll(SAVE, ButtonType.CANCEL);
        getDialogPane().setContent(content());

        Button save = (Button) getDialogPane().lookupButton(SAVE);
        save.setId("merge-settings-save");
        save.setGraphic(Icons.of(MaterialDesignC.CONTENT_SAVE_OUTLINE));
        save.getStyleClass().add(Styles.ACCENT);
        save.setTooltip(new Tooltip("Store these settings for " + vm.repository()
                + " (each change is recorded as a setting.changed event)"));
        save.disableProperty().bind(vm.canSaveProperty().not());
        save.addEventFilter(ActionEvent.ACTION, e -> {
            e.consume(); // closes only once stored; a refusal is shown here
            vm.save().thenRun(() -> {
                saved = true;
                close();
            });
        });
        getDialogPane()
                .getScene()
                .getAccelerators()
                .put(
                        new javafx.scene.input.KeyCodeCombination(
                                javafx.scene.input.KeyCode.S, javafx.scene.input.KeyCombination.SHORTCUT_DOWN),
                        save::fire);
        Button cancel = (Button) getDialogPane().lookupButton(ButtonType.CANCEL);
        cancel.setId("merge-settings-cancel");
        setResultConverter(b -> null);
        setOnCloseRequest(e -> {
            if (!saved && vm.unsavedProperty().get() && !confirmDiscard()) {
                e.consume();
            }
        });
        // The first size is taken before the wrapped explanations are laid out at their width (too tall by a
        // line or two): fit the window to the laid-out form once it shows.
        setOnShown(e -> javafx.application.Platform.runLater(() -> {
            getDialogPane().getScene().getWindow().sizeToScene();
            firstField.requestFocus();
        }));
        // A message under a field or the error box makes the form taller: the window grows to keep the buttons.
        javafx.beans.InvalidationListener grow = o -> javafx.application.Platform.runLater(this::growToFit);
        vm.timeoutMessageProperty().addListener(grow);
        vm.attemptsMessageProperty().addListener(grow);
        vm.errorProperty().addListener(grow);
        vm.load();
    }

    /** Makes the window as tall as the form needs when it needs more than it has (it never shrinks it). */
    private void growToFit() {
        javafx.scene.Scene scene = getDialogPane().getScene();
        Window w = scene == null ? null : scene.getWindow();
        if (w == null || !w.isShowing()) {
            return;
        }
        double need = getDialogPane().prefHeight(getDialogPane().getWidth());
        if (need > scene.getHeight()) {
            w.sizeToScene(); // one resize of both sides: GTK refuses a height alone without a window manager
        }
    }

    /** The dialog's ViewModel. */
    public MergeSettingsViewModel viewModel() {
        return vm;
    }

    /** Asks whether unsaved edits may be dropped (Keep editing is the default); true to close and drop them. */
    private boolean confirmDiscard() {
        return dev.paddock.ui.common.SafeQuestion.ask(
                getDialogPane().getScene(),
                UNSAVED_ID,
                "Unsaved merge settings",
                "The merge settings have unsaved changes",
                "Your changes to the merge settings of " + vm.repository()
                        + " are not saved. Close anyway and lose them?",
                DISCARD,
                KEEP_EDITING);
    }

    private Node content() {
        Label path = new Label(vm.repository().toString());
        path.setId("merge-settings-repository");
        path.getStyleClass().add(Style.MONO);
        ProgressIndicator loading = new ProgressIndicator();
        loading.setPrefSize(16, 16);
        loading.visibleProperty().bind(vm.busyProperty());
        HBox top = new HBox(8, path, loading);
        top.setAlignment(Pos.CENTER_LEFT);

        TextField command = new TextField();
        command.setId("merge-settings-test-command");
        command.getStyleClass().add(Style.MONO);
        command.setPromptText("mvn -q test");
        command.textProperty().bindBidirectional(vm.testCommandProperty());
        command.setTooltip(new Tooltip("Run with /bin/sh -c in the candidate merge result; the merge goes into base"
                + " only when it exits 0"));

        TextField timeout = numberField("merge-settings-timeout", vm.timeoutSecondsProperty());
        timeout.setTooltip(new Tooltip("After this long the test's whole process tree is killed; the attempt fails"));
        TextField attempts = numberField("merge-settings-attempts", vm.maxAttemptsProperty());
        attempts.setTooltip(new Tooltip("Failed attempts after which the entry leaves the queue for a person"));

        GridPane grid = new GridPane();
        grid.setHgap(12);
        grid.setVgap(10);
        ColumnConstraints labels = new ColumnConstraints();
        labels.setHalignment(HPos.RIGHT);
        ColumnConstraints fields = new ColumnConstraints();
        fields.setHgrow(Priority.ALWAYS);
        fields.setFillWidth(true);
        fields.setPrefWidth(590); // wrapped hints are measured at the width they get (the dialog is as wide)
        grid.getColumnConstraints().addAll(labels, fields);
        int row = 0;
        row = add(
                grid,
                row,
                "Strategy",
                choices(
                        vm.strategyProperty(),
                        choice(
                                "merge-settings-strategy-merge",
                                MergeStrategy.MERGE,
                                "Merge",
                                "One three-way merge of base and the branch; the branch's commits stay as they are."),
                        choice(
                                "merge-settings-strategy-rebase",
                                MergeStrategy.REBASE,
                                "Rebase",
                                "The branch's commits are replayed onto base first, on a copy: the agent's branch stays.")));
        row = add(grid, row, "Test command", new VBox(3, command, hint(TEST_HINT)));
        row = add(
                grid,
                row,
                "Test timeout",
                new VBox(
                        3,
                        withUnit(timeout, "seconds"),
                        fieldMessage("merge-settings-timeout-message", vm.timeoutMessageProperty())));
        row = add(
                grid,
                row,
                "Max attempts",
                new VBox(
                        3,
                        withUnit(attempts, "failed attempts before a person is asked"),
                        fieldMessage("merge-settings-attempts-message", vm.attemptsMessageProperty())));
        row = add(
                grid,
                row,
                "Auto-resolve",
                choices(
                        vm.autoResolveProperty(),
                        choice(
                                "merge-settings-auto-propose",
                                AutoResolveMode.PROPOSE,
                                "Propose",
                                "Safe conflicts are proposed, a person confirms."),
                        choice(
                                "merge-settings-auto-apply",
                                AutoResolveMode.APPLY,
                                "Apply",
                                "Safe conflicts — identical changes, one side equal to base, whitespace-only, import unions,"
                                        + " non-overlapping edits — are resolved, tested and merged without a person.")));
        add(
                grid,
                row,
                "Review",
                choices(
                        vm.reviewProperty(),
                        choice(
                                "merge-settings-review-required",
                                dev.paddock.merge.ReviewMode.REQUIRED,
                                "Required",
                                "A finished sandbox's change waits, ready for review, until a person approves it."),
                        choice(
                                "merge-settings-review-auto",
                                dev.paddock.merge.ReviewMode.AUTO,
                                "Automatic",
                                "A finished sandbox's change enters the merge queue at once.")));

        ErrorBox error = new ErrorBox(null).bindTo(vm.errorProperty());
        error.setId("merge-settings-error");
        error.setPrefWidth(0); // the form sets the width; a long message wraps instead of widening the window
        VBox box = new VBox(14, top, grid, error);
        box.setMinWidth(640);
        grid.disableProperty().bind(vm.busyProperty());
        firstField = command;
        return box;
    }

    private static TextField numberField(String id, javafx.beans.property.StringProperty value) {
        TextField f = new TextField();
        f.setId(id);
        f.setPrefColumnCount(6);
        f.setMaxWidth(Region.USE_PREF_SIZE);
        f.textProperty().bindBidirectional(value);
        return f;
    }

    private static Node withUnit(TextField field, String unit) {
        Label l = new Label(unit);
        l.setMinWidth(Region.USE_PREF_SIZE);
        HBox row = new HBox(8, field, l);
        row.setAlignment(Pos.CENTER_LEFT);
        return row;
    }

    /** A message under a field: shown (red, with an icon) while the field cannot be saved. */
    private static Label fieldMessage(String id, ObservableStringValue problem) {
        Label l = hint("");
        l.setId(id);
        l.getStyleClass().add(Style.FIELD_ERROR);
        l.setGraphic(Icons.of(MaterialDesignA.ALERT_CIRCLE_OUTLINE, 14));
        l.textProperty().bind(problem);
        l.visibleProperty().bind(javafx.beans.binding.Bindings.isNotNull(problem));
        l.managedProperty().bind(l.visibleProperty());
        return l;
    }

    /** A radio button for {@code value} with its one-line explanation under it. */
    private static VBox choice(String id, Object value, String text, String explanation) {
        RadioButton b = new RadioButton(text);
        b.setId(id);
        b.setUserData(value);
        Label hint = hint(explanation);
        hint.setPadding(new Insets(0, 0, 0, 26));
        VBox box = new VBox(2, b, hint);
        box.setUserData(b);
        return box;
    }

    /** Radio buttons kept in step with {@code property} both ways. */
    private static <T> Node choices(ObjectProperty<T> property, VBox... options) {
        ToggleGroup group = new ToggleGroup();
        for (VBox o : options) {
            ((RadioButton) o.getUserData()).setToggleGroup(group);
        }
        Runnable select = () -> group.getToggles().stream()
                .filter(t -> t.getUserData() == property.get())
                .findFirst()
                .ifPresent(group::selectToggle);
        property.addListener((o, a, b) -> select.run());
        group.selectedToggleProperty().addListener((o, a, t) -> {
            if (t != null) {
                @SuppressWarnings("unchecked")
                T v = (T) ((Toggle) t).getUserData();
                property.set(v);
            }
        });
        select.run();
        return new VBox(6, options);
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
