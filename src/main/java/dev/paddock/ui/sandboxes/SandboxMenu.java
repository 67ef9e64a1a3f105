package dev.paddock.ui.sandboxes;

import dev.paddock.ui.common.Icons;
import javafx.beans.binding.BooleanExpression;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.MenuItem;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.input.KeyCombination;
import org.kordamp.ikonli.Ikon;
import org.kordamp.ikonli.materialdesign2.MaterialDesignC;
import org.kordamp.ikonli.materialdesign2.MaterialDesignD;
import org.kordamp.ikonli.materialdesign2.MaterialDesignF;
import org.kordamp.ikonli.materialdesign2.MaterialDesignP;
import org.kordamp.ikonli.materialdesign2.MaterialDesignR;
import org.kordamp.ikonli.materialdesign2.MaterialDesignS;
import org.kordamp.ikonli.materialdesign2.MaterialDesignT;

/**
 * The sandboxes table's context menu: the row actions with their keys ({@link SandboxesView}'s), which are also the
 * scene's accelerators (JavaFX installs a control's context menu accelerators in its scene), so a row action acts
 * only while the tab shows ({@code active}).
 */
final class SandboxMenu {
    /** What the view does for the actions that open a dialog. */
    interface Actions {
        void remove();

        void newSandbox();

        void compare();

        /** The actions as three commands. */
        static Actions of(Runnable remove, Runnable newSandbox, Runnable compare) {
            return new Actions() {
                @Override
                public void remove() {
                    remove.run();
                }

                @Override
                public void newSandbox() {
                    newSandbox.run();
                }

                @Override
                public void compare() {
                    compare.run();
                }
            };
        }
    }

    private final BooleanProperty active;

    private SandboxMenu(BooleanProperty active) {
        this.active = active;
    }

    static ContextMenu of(SandboxesViewModel vm, BooleanProperty active, Actions view) {
        SandboxMenu m = new SandboxMenu(active);
        ContextMenu menu = new ContextMenu(
                m.item(
                        "menu-stop",
                        "Stop",
                        MaterialDesignS.STOP_CIRCLE_OUTLINE,
                        SandboxesView.STOP,
                        vm.canStopProperty(),
                        vm::stop,
                        true),
                m.item(
                        "menu-retry",
                        "Retry",
                        MaterialDesignR.RESTART,
                        SandboxesView.RETRY,
                        vm.canRetryProperty(),
                        vm::retry,
                        true),
                m.item(
                        "menu-remove",
                        "Remove…",
                        MaterialDesignD.DELETE_OUTLINE,
                        SandboxesView.REMOVE,
                        vm.canRemoveProperty(),
                        view::remove,
                        true),
                new SeparatorMenuItem(),
                m.item(
                        "menu-compare",
                        "Compare group…",
                        MaterialDesignT.TABLE_EYE,
                        SandboxesView.COMPARE,
                        vm.canCompareProperty(),
                        view::compare,
                        true),
                new SeparatorMenuItem(),
                m.item(
                        "menu-push",
                        "Push",
                        MaterialDesignC.CLOUD_UPLOAD_OUTLINE,
                        SandboxesView.PUSH,
                        vm.canPublishProperty(),
                        vm::push,
                        true),
                m.item(
                        "menu-pull-request",
                        "Open pull request",
                        MaterialDesignS.SOURCE_PULL,
                        SandboxesView.PULL_REQUEST,
                        vm.canPublishProperty(),
                        vm::openPullRequest,
                        true),
                new SeparatorMenuItem(),
                m.item(
                        "menu-open-folder",
                        "Open folder",
                        MaterialDesignF.FOLDER_OPEN_OUTLINE,
                        SandboxesView.OPEN_FOLDER,
                        vm.canOpenProperty(),
                        vm::openFolder,
                        true),
                m.item(
                        "menu-open-terminal",
                        "Open terminal here",
                        MaterialDesignC.CONSOLE,
                        SandboxesView.OPEN_TERMINAL,
                        vm.canOpenProperty(),
                        vm::openTerminal,
                        true),
                new SeparatorMenuItem(),
                m.item(
                        "menu-new",
                        "New sandbox…",
                        MaterialDesignP.PLUS,
                        SandboxesView.NEW,
                        vm.canCreateProperty(),
                        view::newSandbox,
                        false),
                m.item(
                        "menu-details",
                        "Details pane",
                        MaterialDesignP.PAGE_LAYOUT_FOOTER,
                        SandboxesView.DETAILS,
                        new SimpleBooleanProperty(true),
                        () -> vm.details()
                                .shownProperty()
                                .set(!vm.details().shownProperty().get()),
                        true));
        menu.setId("sandbox-menu");
        return menu;
    }

    private MenuItem item(
            String id,
            String text,
            Ikon icon,
            KeyCombination key,
            BooleanExpression enabled,
            Runnable action,
            boolean onlyWhileShown) {
        MenuItem m = new MenuItem(text, Icons.of(icon, 14));
        m.setId(id);
        m.setAccelerator(key);
        m.disableProperty().bind(enabled.not());
        m.setOnAction(e -> {
            if (active.get() || !onlyWhileShown) {
                action.run();
            }
        });
        return m;
    }
}
