package dev.paddock.ui.sandboxes;

import atlantafx.base.theme.Styles;
import dev.paddock.status.RepositoryStatus;
import dev.paddock.ui.common.Icons;
import dev.paddock.ui.diff.DiffBackend;
import dev.paddock.ui.diff.DiffView;
import dev.paddock.ui.diff.DiffViewModel;
import dev.paddock.ui.diff.DiffWindow;
import dev.paddock.ui.sandboxes.SandboxDetailsViewModel.Section;
import dev.paddock.ui.theme.Style;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.StackPane;
import org.kordamp.ikonli.materialdesign2.MaterialDesignO;

/**
 * The details pane's Changes tab: the selected sandbox's diff as the diff window shows it (files as a tree with their
 * counts, the text unified or side by side, comments under their lines; C comments on the caret's line), without the
 * window's list of comments. Read when the tab shows, and checked again at each look of the details' poll (every few
 * seconds): shown again when the worktree's state or the branch's commits moved; "Open in window" opens the whole review on the same file.
 */
final class ChangesPane extends StackPane {
    static final String ID = "sandbox-changes";

    private final SandboxDetailsViewModel vm;
    private final Label waiting = new Label("Paddock is not running: no change to show.");
    private DiffViewModel diff;

    ChangesPane(SandboxDetailsViewModel vm) {
        this.vm = vm;
        setId(ID);
        getStyleClass().add(Style.CHANGES);
        waiting.getStyleClass().add(Style.MUTED);
        getChildren().add(waiting);
        vm.sectionProperty().addListener((o, a, s) -> sync(false));
        vm.shownProperty().addListener((o, a, s) -> sync(false));
        vm.sandboxProperty().addListener((o, a, s) -> sync(false));
        // Each look of the details' poll at the worktree (every few seconds while the tab shows): the change is read
        // again, and shown again when it moved (a file changed, a commit made).
        vm.changesAtProperty().addListener((o, a, at) -> {
            if (at != null) {
                sync(true);
            }
        });
    }

    /** The diff shown, or null before the tab first showed with Paddock running (tests look at it). */
    DiffViewModel diff() {
        return diff;
    }

    private void sync(boolean again) {
        if (vm.sectionProperty().get() != Section.CHANGES || !vm.shownProperty().get()) {
            return;
        }
        RepositoryStatus.Sandbox s = vm.sandboxProperty().get();
        if (diff == null) {
            DiffBackend backend = vm.diffs();
            if (backend == null || s == null) {
                return;
            }
            diff = new DiffViewModel(backend);
            getChildren().setAll(new DiffView(diff, false, openButton()));
        }
        String id = s == null ? null : s.id();
        if (!java.util.Objects.equals(id, diff.sandboxId())) {
            diff.open(id);
        } else if (again) {
            diff.refreshIfChanged();
        }
    }

    private Button openButton() {
        Button open = new Button("Open in window", Icons.of(MaterialDesignO.OPEN_IN_NEW, 14));
        open.setId("sandbox-changes-open");
        open.getStyleClass().add(Styles.SMALL);
        open.setTooltip(new Tooltip("The whole review in its own window, with the list of comments"));
        open.setOnAction(e -> openWindow());
        return open;
    }

    /** Opens the diff window of the sandbox shown, on the file shown here (else its first). */
    void openWindow() {
        RepositoryStatus.Sandbox s = vm.sandboxProperty().get();
        DiffBackend backend = vm.diffs();
        if (s == null || backend == null) {
            return;
        }
        String path = diff == null || diff.selectedProperty().get() == null
                ? null
                : diff.selectedProperty().get().path();
        DiffWindow.show(
                getScene() == null ? null : getScene().getWindow(),
                backend,
                s.id(),
                s.branch() + " (" + s.id() + ")",
                path);
    }
}
