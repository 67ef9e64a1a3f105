package dev.paddock.ui.layers;

import atlantafx.base.theme.Styles;
import dev.paddock.ui.common.ErrorBox;
import dev.paddock.ui.common.Icons;
import dev.paddock.ui.theme.Style;
import dev.paddock.ui.theme.Theme;
import javafx.application.Platform;
import javafx.beans.binding.Bindings;
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
import org.kordamp.ikonli.materialdesign2.MaterialDesignC;
import org.kordamp.ikonli.materialdesign2.MaterialDesignR;

/**
 * The Shared layers dialog (Ctrl+Shift+D): the folders one repository's namespace sandboxes share read-only through
 * an overlay (node_modules, .venv, ~/.m2 ...), the setup command that builds them, and the current generation, the
 * same as {@code paddock layers}. Save (Ctrl+S) stores the folders and the command off the FX thread and keeps the
 * dialog open; a refusal (a folder git tracks, a path that cannot be shared) is shown here. "Refresh shared layer"
 * builds a new generation from what is stored, off the FX thread, listing its steps as they come. Close (or Escape)
 * with unsaved edits asks first; a refresh under way goes on when the dialog closes.
 */
public final class SharedLayersDialog extends Dialog<Void> {
    /** The Save button's type. */
    public static final ButtonType SAVE = new ButtonType("Save", ButtonBar.ButtonData.OK_DONE);
    /** The unsaved-changes question's id. */
    public static final String UNSAVED_ID = "shared-layers-unsaved";
    /** Leaves without saving. */
    public static final ButtonType DISCARD = new ButtonType("Discard changes", ButtonBar.ButtonData.NO);
    /** Stays in the dialog. */
    public static final ButtonType KEEP_EDITING = new ButtonType("Keep editing", ButtonBar.ButtonData.CANCEL_CLOSE);

    /** Hint under the folders. */
    static final String FOLDERS_HINT = "One per line or separated by commas: folders git ignores (node_modules,"
            + " .venv, web/node_modules) or folders of the sandbox's home (~/.m2). Namespace sandboxes see them"
            + " read-only; what a sandbox writes there stays its own.";
    /** Hint under the setup command. */
    static final String SETUP_HINT = "Runs in a namespace sandbox, in a fresh checkout of the base branch, to build"
            + " the folders (npm ci); empty: they are copied from the main checkout.";

    private final SharedLayersViewModel vm;
    private TextArea firstField;

    /** A dialog over {@code owner} (may be null) for the view model's repository; loads what it shares. */
    public SharedLayersDialog(SharedLayersViewModel vm, Window owner) {
        this.vm = vm;
        setTitle("Shared layers — " + vm.repositoryName());
        if (owner != null) {
            initOwner(owner);
            initModality(Modality.WINDOW_MODAL);
        }
        setResizable(true);
        getDialogPane().setId("shared-layers-dialog");
        getDialogPane().setUserData(this);
        getDialogPane().getStyleClass().add(Style.DIALOG);
        getDialogPane().setStyle("-fx-max-width: -1;"); // AtlantaFX caps .dialog-pane at 600 px
        Theme.adopt(getDialogPane(), owner == null ? null : owner.getScene());
        getDialogPane().getButtonTypes().setAll(SAVE, ButtonType.CLOSE);
        getDialogPane().setContent(content());

        Button save = (Button) getDialogPane().lookupButton(SAVE);
        save.setId("shared-layers-save");
        save.setGraphic(Icons.of(MaterialDesignC.CONTENT_SAVE_OUTLINE));
        save.getStyleClass().add(Styles.ACCENT);
        save.setTooltip(new Tooltip("Store the shared folders and the setup command of " + vm.repository()
                + " (Ctrl+S); a refresh then builds them"));
        save.disableProperty().bind(vm.canSaveProperty().not());
        save.addEventFilter(ActionEvent.ACTION, e -> {
            e.consume(); // stays open: a refresh usually follows
            if (vm.canSaveProperty().get()) {
                vm.save();
            }
        });
        getDialogPane()
                .getScene()
                .getAccelerators()
                .put(new KeyCodeCombination(KeyCode.S, KeyCombination.SHORTCUT_DOWN), save::fire);
        Button close = (Button) getDialogPane().lookupButton(ButtonType.CLOSE);
        close.setId("shared-layers-close");
        setResultConverter(b -> null);
        setOnCloseRequest(e -> {
            if (vm.unsavedProperty().get() && !confirmDiscard()) {
                e.consume();
            }
        });
        setOnShown(e -> Platform.runLater(() -> {
            getDialogPane().getScene().getWindow().sizeToScene();
            firstField.requestFocus();
        }));
        javafx.beans.InvalidationListener grow = o -> Platform.runLater(this::growToFit);
        vm.errorProperty().addListener(grow);
        vm.noticeProperty().addListener(grow);
        vm.steps().addListener(grow);
        vm.load();
    }

    /** The dialog's ViewModel. */
    public SharedLayersViewModel viewModel() {
        return vm;
    }

    /** Makes the window as tall as the form needs when it needs more than it has (it never shrinks it). */
    private void growToFit() {
        javafx.scene.Scene scene = getDialogPane().getScene();
        Window w = scene == null ? null : scene.getWindow();
        if (w == null || !w.isShowing()) {
            return;
        }
        if (getDialogPane().prefHeight(getDialogPane().getWidth()) > scene.getHeight()) {
            w.sizeToScene();
        }
    }

    private boolean confirmDiscard() {
        return dev.paddock.ui.common.SafeQuestion.ask(
                getDialogPane().getScene(),
                UNSAVED_ID,
                "Unsaved shared layers",
                "The shared layers have unsaved changes",
                "Your changes to the shared folders of " + vm.repository()
                        + " are not saved. Close anyway and lose them?",
                DISCARD,
                KEEP_EDITING);
    }

    private Node content() {
        Label path = new Label(vm.repository().toString());
        path.setId("shared-layers-repository");
        path.getStyleClass().add(Style.MONO);
        ProgressIndicator loading = new ProgressIndicator();
        loading.setPrefSize(16, 16);
        loading.visibleProperty().bind(vm.busyProperty());
        HBox top = new HBox(8, path, loading);
        top.setAlignment(Pos.CENTER_LEFT);

        TextArea folders = new TextArea();
        folders.setId("shared-layers-folders");
        folders.getStyleClass().add(Style.MONO);
        folders.setPromptText("node_modules\n.venv\n~/.m2");
        folders.setPrefRowCount(4);
        folders.setWrapText(false);
        folders.textProperty().bindBidirectional(vm.foldersProperty());
        TextField setup = new TextField();
        setup.setId("shared-layers-setup");
        setup.getStyleClass().add(Style.MONO);
        setup.setPromptText("npm ci");
        setup.textProperty().bindBidirectional(vm.setupCommandProperty());
        setup.setTooltip(
                new Tooltip("Run with /bin/sh -c in a namespace sandbox (network kept, a home of its own), in a"
                        + " fresh checkout of the base branch; its output goes to"
                        + " .worktrees/.shared/refresh.log"));

        Label generation = new Label();
        generation.setId("shared-layers-generation");
        generation.setWrapText(true);
        generation.setMinHeight(Region.USE_PREF_SIZE);
        generation.textProperty().bind(vm.generationProperty());

        GridPane grid = new GridPane();
        grid.setHgap(12);
        grid.setVgap(10);
        ColumnConstraints labels = new ColumnConstraints();
        labels.setHalignment(HPos.RIGHT);
        ColumnConstraints fields = new ColumnConstraints();
        fields.setHgrow(Priority.ALWAYS);
        fields.setFillWidth(true);
        fields.setPrefWidth(520); // wrapped hints are measured at the width they get
        grid.getColumnConstraints().addAll(labels, fields);
        add(grid, 0, "Shared folders", new VBox(3, folders, hint(FOLDERS_HINT)));
        add(grid, 1, "Setup command", new VBox(3, setup, hint(SETUP_HINT)));
        add(grid, 2, "Current layer", new VBox(8, generation, refreshRow(), steps()));
        folders.disableProperty().bind(vm.busyProperty().or(vm.refreshingProperty()));
        setup.disableProperty().bind(folders.disableProperty());

        Label notice = new Label(null, Icons.of(MaterialDesignC.CHECK_CIRCLE_OUTLINE));
        notice.setId("shared-layers-notice");
        notice.getStyleClass().addAll(Style.OK, Styles.SUCCESS);
        notice.setWrapText(true);
        notice.setMinHeight(Region.USE_PREF_SIZE);
        notice.textProperty().bind(vm.noticeProperty());
        notice.visibleProperty().bind(vm.noticeProperty().isNotNull());
        notice.managedProperty().bind(notice.visibleProperty());

        ErrorBox error = new ErrorBox(null).bindTo(vm.errorProperty());
        error.setId("shared-layers-error");
        error.setPrefWidth(0); // the form sets the width; a long message wraps
        VBox box = new VBox(14, top, grid, notice, error);
        box.setMinWidth(640);
        firstField = folders;
        return box;
    }

    /** The refresh button, its spinner, and why it is disabled when that is not plain. */
    private Node refreshRow() {
        Button refresh = new Button("Refresh shared layer", Icons.of(MaterialDesignR.REFRESH));
        refresh.setId("shared-layers-refresh");
        refresh.setMinWidth(Region.USE_PREF_SIZE);
        refresh.setTooltip(new Tooltip("Build a new generation from the stored settings; sandboxes started after it"
                + " see it, running ones keep theirs"));
        refresh.disableProperty().bind(vm.canRefreshProperty().not());
        refresh.setOnAction(e -> {
            if (vm.canRefreshProperty().get()) {
                vm.refresh();
            }
        });
        ProgressIndicator spinner = new ProgressIndicator();
        spinner.setId("shared-layers-refreshing");
        spinner.setPrefSize(18, 18);
        spinner.visibleProperty().bind(vm.refreshingProperty());
        spinner.managedProperty().bind(spinner.visibleProperty());
        Label why = hint("");
        why.setId("shared-layers-refresh-hint");
        why.textProperty()
                .bind(Bindings.createStringBinding(
                        () -> vm.refreshingProperty().get()
                                ? "Building… (you may close this dialog; the refresh goes on)"
                                : vm.unsavedProperty().get()
                                        ? "Save your changes first: a refresh builds what is stored."
                                        : vm.savedProperty().get() != null
                                                        && vm.savedProperty()
                                                                .get()
                                                                .folders()
                                                                .isEmpty()
                                                ? "Name some folders and save them first."
                                                : null,
                        vm.refreshingProperty(),
                        vm.unsavedProperty(),
                        vm.savedProperty()));
        why.visibleProperty().bind(why.textProperty().isNotNull());
        why.managedProperty().bind(why.visibleProperty());
        HBox.setHgrow(why, Priority.ALWAYS);
        HBox row = new HBox(10, refresh, spinner, why);
        row.setAlignment(Pos.CENTER_LEFT);
        return row;
    }

    /** The last refresh's steps, one per line, shown once it started. */
    private Node steps() {
        Label steps = new Label();
        steps.setId("shared-layers-steps");
        steps.getStyleClass().add(Style.MONO);
        steps.setWrapText(true);
        steps.setMinHeight(Region.USE_PREF_SIZE);
        steps.setMaxWidth(Double.MAX_VALUE);
        steps.setPadding(new Insets(0, 0, 0, 4));
        steps.textProperty().bind(Bindings.createStringBinding(() -> String.join("\n", vm.steps()), vm.steps()));
        steps.visibleProperty().bind(Bindings.isNotEmpty(vm.steps()));
        steps.managedProperty().bind(steps.visibleProperty());
        return steps;
    }

    private static void add(GridPane grid, int row, String label, Node field) {
        Label l = new Label(label);
        l.getStyleClass().add(Style.FORM_LABEL);
        l.setMinWidth(Region.USE_PREF_SIZE);
        GridPane.setValignment(l, VPos.TOP);
        GridPane.setMargin(l, new Insets(5, 0, 0, 0));
        grid.add(l, 0, row);
        grid.add(field, 1, row);
    }

    private static Label hint(String text) {
        Label l = new Label(text);
        l.getStyleClass().add(Style.FIELD_MESSAGE);
        l.setWrapText(true);
        l.setMinHeight(Region.USE_PREF_SIZE);
        return l;
    }
}
