package dev.paddock.ui.policy;

import atlantafx.base.theme.Styles;
import dev.paddock.policy.Decision;
import dev.paddock.ui.common.ErrorBox;
import dev.paddock.ui.common.Icons;
import dev.paddock.ui.theme.Style;
import dev.paddock.ui.theme.Theme;
import javafx.event.ActionEvent;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.stage.Modality;
import javafx.stage.Window;
import org.kordamp.ikonli.materialdesign2.MaterialDesignA;
import org.kordamp.ikonli.materialdesign2.MaterialDesignC;
import org.kordamp.ikonli.materialdesign2.MaterialDesignH;
import org.kordamp.ikonli.materialdesign2.MaterialDesignI;

/**
 * The Policy dialog (Ctrl+P): the repository's {@code .paddock/policy.json} in a monospace editor, checked
 * as you type (Save is disabled while it is invalid), the global file that also applies, a "try a
 * command" box that shows the decision and the deciding rule against the text being edited, and the
 * buttons Import from {@code .claude/settings.json} and Install hook in this repository. Save (or
 * Ctrl+S) writes the file atomically with a {@code .bak} of the previous one and keeps the dialog open.
 */
public final class PolicyEditorDialog extends Dialog<Void> {
    /** The Save button's type. */
    public static final ButtonType SAVE = new ButtonType("Save", ButtonBar.ButtonData.OK_DONE);

    private final PolicyEditorViewModel vm;

    /** A dialog over {@code owner} (may be null) for the view model's repository; loads the file. */
    public PolicyEditorDialog(PolicyEditorViewModel vm, Window owner) {
        this.vm = vm;
        setTitle("Policy — " + vm.file());
        if (owner != null) {
            initOwner(owner);
            initModality(Modality.WINDOW_MODAL);
        }
        setResizable(true);
        getDialogPane().setId("policy-dialog");
        getDialogPane().setUserData(this);
        getDialogPane().getStyleClass().add(Style.DIALOG);
        getDialogPane().setPrefWidth(820);
        Theme.adopt(getDialogPane(), owner == null ? null : owner.getScene());
        getDialogPane().getButtonTypes().setAll(SAVE, ButtonType.CLOSE);
        getDialogPane().setContent(content());

        Button save = (Button) getDialogPane().lookupButton(SAVE);
        save.setId("policy-save");
        save.setGraphic(Icons.of(MaterialDesignC.CONTENT_SAVE_OUTLINE));
        save.getStyleClass().add(Styles.ACCENT);
        save.setTooltip(
                new Tooltip("Write " + vm.file() + " (the previous version is kept as policy.json.bak) (Ctrl+S)"));
        save.disableProperty().bind(vm.canSaveProperty().not());
        save.addEventFilter(ActionEvent.ACTION, e -> {
            e.consume(); // the dialog stays open: the result (or the error) is shown here
            vm.save();
        });
        Button close = (Button) getDialogPane().lookupButton(ButtonType.CLOSE);
        close.setId("policy-close");
        getDialogPane()
                .getScene()
                .getAccelerators()
                .put(new KeyCodeCombination(KeyCode.S, KeyCombination.SHORTCUT_DOWN), save::fire);
        setResultConverter(b -> null);
        setOnCloseRequest(e -> {
            if (vm.unsavedProperty().get() && !confirmDiscard()) {
                e.consume();
            }
        });
        vm.load();
    }

    /** The unsaved-changes question's id, and its buttons. */
    public static final String UNSAVED_ID = "policy-unsaved";
    /** Leaves without saving. */
    public static final ButtonType DISCARD = new ButtonType("Discard changes", ButtonBar.ButtonData.NO);
    /** Stays in the editor. */
    public static final ButtonType KEEP_EDITING = new ButtonType("Keep editing", ButtonBar.ButtonData.CANCEL_CLOSE);

    /**
     * Asks whether unsaved edits may be dropped (Close, Escape or the window's close box with edits not saved); Keep
     * editing is the default (Enter) and Escape's answer.
     *
     * @return true to close and drop them
     */
    private boolean confirmDiscard() {
        return dev.paddock.ui.common.SafeQuestion.ask(
                getDialogPane().getScene(),
                UNSAVED_ID,
                "Unsaved policy",
                "The policy has unsaved changes",
                "Your edits to " + vm.file() + " are not saved. Close anyway and" + " lose them?",
                DISCARD,
                KEEP_EDITING);
    }

    /** The dialog's ViewModel. */
    public PolicyEditorViewModel viewModel() {
        return vm;
    }

    private Node content() {
        Label file = new Label(vm.file().toString());
        file.setId("policy-file");
        file.getStyleClass().add(Style.MONO);
        Label global = hint("");
        global.setId("policy-global");
        global.textProperty().bind(vm.globalNoteProperty());

        TextArea editor = new TextArea();
        editor.setId("policy-editor");
        editor.getStyleClass().add(Style.MONO);
        editor.setPrefColumnCount(72);
        editor.setPrefRowCount(16);
        editor.textProperty().bindBidirectional(vm.textProperty());
        VBox.setVgrow(editor, Priority.ALWAYS);
        // Tab indents (two spaces, as the file is written); Ctrl+Tab moves on to the next field.
        editor.addEventFilter(javafx.scene.input.KeyEvent.KEY_PRESSED, e -> {
            if (e.getCode() == KeyCode.TAB && !e.isControlDown() && !e.isShiftDown() && !e.isAltDown()) {
                e.consume();
                editor.replaceSelection("  ");
            }
        });

        Label check = new Label();
        check.setId("policy-check");
        check.setWrapText(true);
        check.setMinHeight(Region.USE_PREF_SIZE);
        check.getStyleClass().add(Style.FIELD_MESSAGE);
        vm.validationProperty().addListener((o, a, v) -> showValidation(check, v));
        showValidation(check, null);

        VBox box = new VBox(8, new VBox(2, file, global), editor, check, tryBox(), actions(), messages());
        box.setPrefWidth(780);
        box.setMinWidth(640); // the dialog pane alone sizes to its shortest line (wrapped labels)
        editor.sceneProperty().addListener((o, a, s) -> {
            if (s != null) {
                javafx.application.Platform.runLater(editor::requestFocus);
            }
        });
        return box;
    }

    private Node tryBox() {
        ComboBox<String> tool =
                new ComboBox<>(javafx.collections.FXCollections.observableArrayList(PolicyEditorViewModel.TOOLS));
        tool.setId("policy-try-tool");
        tool.valueProperty().bindBidirectional(vm.toolProperty());
        TextField input = new TextField();
        input.setId("policy-try-input");
        input.getStyleClass().add(Style.MONO);
        input.setPromptText("git push origin main   ·   ./src/App.java   ·   https://example.com");
        input.setPrefColumnCount(40);
        input.textProperty().bindBidirectional(vm.tryInputProperty());
        HBox.setHgrow(input, Priority.ALWAYS);
        Label heading = new Label("Try a command");
        heading.getStyleClass().add(Style.FORM_LABEL);
        heading.setMinWidth(Region.USE_PREF_SIZE);
        HBox row = new HBox(8, heading, tool, input);
        row.setAlignment(Pos.CENTER_LEFT);

        Label verdict = new Label();
        verdict.setId("policy-try-verdict");
        verdict.setMinWidth(Region.USE_PREF_SIZE);
        verdict.managedProperty().bind(verdict.visibleProperty());
        Label rule = new Label();
        rule.setId("policy-try-rule");
        rule.getStyleClass().add(Style.MONO);
        Label reason = hint("");
        reason.setId("policy-try-reason");
        rule.managedProperty().bind(rule.visibleProperty());
        HBox chipAndRule = new HBox(10, verdict, rule);
        chipAndRule.setAlignment(Pos.CENTER_LEFT);
        chipAndRule.managedProperty().bind(verdict.visibleProperty());
        chipAndRule.visibleProperty().bind(verdict.visibleProperty());
        // A VBox, not an HBox: it gives a wrapped label the height of its lines at the width it has.
        VBox result = new VBox(3, chipAndRule, reason);
        vm.decisionProperty().addListener((o, a, d) -> showDecision(verdict, rule, reason, d));
        showDecision(verdict, rule, reason, null);
        return new VBox(6, row, result);
    }

    private Node actions() {
        Button importButton = new Button("Import from .claude/settings.json", Icons.of(MaterialDesignI.IMPORT, 16));
        importButton.setId("policy-import");
        importButton.setTooltip(new Tooltip("Add the permission rules of this repository's .claude/settings.json to"
                + " the editor (rules already here are not added twice); review, then Save"));
        importButton.setOnAction(e -> vm.importClaudeSettings());
        importButton.disableProperty().bind(vm.busyProperty());
        Button hook = new Button("Install hook in this repository", Icons.of(MaterialDesignH.HOOK, 16));
        hook.setId("policy-install-hook");
        hook.setTooltip(new Tooltip("Merge Paddock's PreToolUse hook into .claude/settings.json, keeping everything"
                + " else in it and a settings.json.bak"));
        hook.setOnAction(e -> vm.installHook());
        hook.disableProperty().bind(vm.busyProperty());
        HBox row = new HBox(8, importButton, hook);
        row.setAlignment(Pos.CENTER_LEFT);
        return row;
    }

    private Node messages() {
        Label message = hint("");
        message.setId("policy-message");
        message.setGraphic(Icons.of(MaterialDesignI.INFORMATION_OUTLINE, 14));
        message.textProperty().bind(vm.messageProperty());
        message.visibleProperty().bind(vm.messageProperty().isNotNull());
        message.managedProperty().bind(message.visibleProperty());
        ErrorBox error = new ErrorBox(null).bindTo(vm.errorProperty());
        error.setId("policy-error");
        return new VBox(6, message, error);
    }

    private static void showValidation(Label check, PolicyEditorViewModel.Validation v) {
        check.getStyleClass().removeAll(Style.FIELD_ERROR, Style.FIELD_OK);
        if (v == null) {
            check.setText("Checking…");
            check.setGraphic(null);
        } else if (v.isValid()) {
            check.setText("Valid: " + v.rules() + (v.rules() == 1 ? " rule." : " rules."));
            check.getStyleClass().add(Style.FIELD_OK);
            check.setGraphic(Icons.of(MaterialDesignC.CHECK, 14));
        } else {
            check.setText(String.join("\n", v.errors()) + "\nSave is disabled until this is fixed.");
            check.getStyleClass().add(Style.FIELD_ERROR);
            check.setGraphic(Icons.of(MaterialDesignA.ALERT_CIRCLE_OUTLINE, 14));
        }
    }

    private static void showDecision(Label verdict, Label rule, Label reason, Decision d) {
        verdict.getStyleClass().removeAll(Style.CHIP, Style.CHIP_SUCCESS, Style.CHIP_WARNING, Style.CHIP_DANGER);
        if (d == null) {
            verdict.setText("");
            verdict.setVisible(false);
            rule.setText("");
            reason.setText("Type a command to see what the policy in the editor decides.");
            return;
        }
        verdict.setVisible(true);
        rule.setVisible(true);
        verdict.setText(d.verdict().word());
        verdict.getStyleClass()
                .addAll(
                        Style.CHIP,
                        switch (d.verdict()) {
                            case ALLOW -> Style.CHIP_SUCCESS;
                            case ASK -> Style.CHIP_WARNING;
                            case DENY -> Style.CHIP_DANGER;
                        });
        rule.setText(
                d.rule() == null
                        ? "no rule decided"
                        : d.list().key() + " rule " + d.rule().text());
        reason.setText(d.reason());
    }

    private static Label hint(String text) {
        Label l = new Label(text);
        l.getStyleClass().add(Style.FIELD_MESSAGE);
        l.setWrapText(true);
        l.setMinHeight(Region.USE_PREF_SIZE);
        return l;
    }
}
