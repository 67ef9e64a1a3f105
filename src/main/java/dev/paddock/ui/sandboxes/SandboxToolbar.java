package dev.paddock.ui.sandboxes;

import atlantafx.base.theme.Styles;
import dev.paddock.ui.common.Icons;
import dev.paddock.ui.theme.Style;
import javafx.beans.binding.BooleanExpression;
import javafx.geometry.Orientation;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.Separator;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCombination;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import org.kordamp.ikonli.Ikon;
import org.kordamp.ikonli.materialdesign2.MaterialDesignC;
import org.kordamp.ikonli.materialdesign2.MaterialDesignD;
import org.kordamp.ikonli.materialdesign2.MaterialDesignF;
import org.kordamp.ikonli.materialdesign2.MaterialDesignP;
import org.kordamp.ikonli.materialdesign2.MaterialDesignR;
import org.kordamp.ikonli.materialdesign2.MaterialDesignS;

/**
 * The toolbar above the sandboxes table: New sandbox, Stop, Retry, Remove, open the folder or a terminal, what the
 * running action does (or the note about the last one, for {@link SandboxesView#NOTICE_FOR}) and the details pane's
 * toggle.
 */
final class SandboxToolbar extends HBox {
    /**
     * @param newSandbox opens the New Sandbox dialog
     * @param remove asks how to remove the selected sandboxes
     */
    SandboxToolbar(SandboxesViewModel vm, Runnable newSandbox, Runnable remove) {
        super(6);
        Button create = new Button("New sandbox", Icons.of(MaterialDesignP.PLUS, 16));
        create.setId("sandbox-new");
        create.getStyleClass().add(Styles.ACCENT);
        create.setTooltip(new Tooltip("Start an agent in a new sandbox (" + SandboxesView.NEW.getDisplayText() + ")"));
        create.setOnAction(e -> newSandbox.run());
        create.disableProperty().bind(vm.canCreateProperty().not());

        Button stop = tool(
                "sandbox-stop",
                MaterialDesignS.STOP_CIRCLE_OUTLINE,
                "Stop",
                "Stop the agent and its whole process tree; the sandbox then waits for you",
                SandboxesView.STOP,
                vm.canStopProperty(),
                vm::stop);
        Button retry = tool(
                "sandbox-retry",
                MaterialDesignR.RESTART,
                "Retry",
                "Run the agent again",
                SandboxesView.RETRY,
                vm.canRetryProperty(),
                vm::retry);
        Button removeButton = tool(
                "sandbox-remove",
                MaterialDesignD.DELETE_OUTLINE,
                "Remove…",
                "Remove the selected sandboxes (you see what would be lost first)",
                SandboxesView.REMOVE,
                vm.canRemoveProperty(),
                remove);
        Button folder = tool(
                "sandbox-open-folder",
                MaterialDesignF.FOLDER_OPEN_OUTLINE,
                null,
                "Open the worktree in the file manager",
                SandboxesView.OPEN_FOLDER,
                vm.canOpenProperty(),
                vm::openFolder);
        Button terminal = tool(
                "sandbox-open-terminal",
                MaterialDesignC.CONSOLE,
                null,
                "Open a terminal in the worktree",
                SandboxesView.OPEN_TERMINAL,
                vm.canOpenProperty(),
                vm::openTerminal);

        ProgressIndicator spinner = new ProgressIndicator();
        spinner.setPrefSize(16, 16);
        Label status = new Label();
        status.setId("sandbox-action-status");
        status.getStyleClass().add(Style.MUTED);
        status.setMinWidth(0);
        status.textProperty()
                .bind(javafx.beans.binding.Bindings.when(vm.busyProperty())
                        .then(vm.progressProperty())
                        .otherwise(vm.noticeProperty()));
        // A note about an action done ("Created …", "Stopped …") goes after a while; an action in progress stays.
        vm.noticeProperty().addListener((o, was, text) -> {
            if (text != null) {
                javafx.animation.PauseTransition later = new javafx.animation.PauseTransition(SandboxesView.NOTICE_FOR);
                later.setOnFinished(e -> vm.dismissNotice(text));
                later.play();
            }
        });
        status.graphicProperty()
                .bind(javafx.beans.binding.Bindings.when(vm.busyProperty())
                        .<javafx.scene.Node>then(spinner)
                        .otherwise((javafx.scene.Node) null));

        ToggleButton details = new ToggleButton(null, Icons.of(MaterialDesignP.PAGE_LAYOUT_FOOTER, 16));
        details.setId("sandbox-details-toggle");
        details.getStyleClass().addAll(Styles.BUTTON_ICON, Styles.FLAT);
        details.setTooltip(
                new Tooltip("Show or hide the details pane (" + SandboxesView.DETAILS.getDisplayText() + ")"));
        details.selectedProperty().bindBidirectional(vm.details().shownProperty());

        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        getChildren()
                .addAll(
                        create,
                        separator(),
                        stop,
                        retry,
                        removeButton,
                        separator(),
                        folder,
                        terminal,
                        spacer,
                        status,
                        details);
        // Only the status text gives way when the tab is narrow.
        getChildren().stream()
                .filter(n -> n != status && n instanceof Region)
                .forEach(n -> ((Region) n).setMinWidth(Region.USE_PREF_SIZE));
        spacer.setMinWidth(8);
        setAlignment(Pos.CENTER_LEFT);
        getStyleClass().add(Style.TOOLBAR);
    }

    /** A flat button of the tab, with its key in its tooltip, enabled while {@code enabled} holds. */
    static Button tool(
            String id,
            Ikon icon,
            String text,
            String help,
            KeyCombination key,
            BooleanExpression enabled,
            Runnable action) {
        Button b = new Button(text, Icons.of(icon, 16));
        b.setId(id);
        b.getStyleClass().add(Styles.FLAT);
        if (text == null) {
            b.getStyleClass().add(Styles.BUTTON_ICON);
        }
        b.setTooltip(new Tooltip(help + " (" + key.getDisplayText() + ")"));
        b.disableProperty().bind(enabled.not());
        b.setOnAction(e -> action.run());
        return b;
    }

    private static Separator separator() {
        Separator s = new Separator(Orientation.VERTICAL);
        s.setPrefHeight(20);
        return s;
    }
}
