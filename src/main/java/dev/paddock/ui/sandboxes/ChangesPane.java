package dev.paddock.ui.sandboxes;

import atlantafx.base.theme.Styles;
import dev.paddock.layer.LayerChange;
import dev.paddock.status.RepositoryStatus;
import dev.paddock.ui.common.Icons;
import dev.paddock.ui.diff.DiffBackend;
import dev.paddock.ui.diff.DiffView;
import dev.paddock.ui.diff.DiffViewModel;
import dev.paddock.ui.diff.DiffWindow;
import dev.paddock.ui.sandboxes.SandboxDetailsViewModel.Section;
import dev.paddock.ui.theme.Style;
import java.util.List;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.StackPane;
import org.kordamp.ikonli.materialdesign2.MaterialDesignL;
import org.kordamp.ikonli.materialdesign2.MaterialDesignO;

/**
 * The details pane's Changes tab: the selected sandbox's diff as the diff window shows it (files as a tree with their
 * counts, the text unified or side by side, comments under their lines; C comments on the caret's line), without the
 * window's list of comments. Read when the tab shows, and checked again at each look of the details' poll (every few
 * seconds): shown again when the worktree's state or the branch's commits moved; "Open in window" opens the whole review on the same file.
 * Over the diff, one line names what the sandbox changed in the shared layers (folders git ignores), when it did.
 */
final class ChangesPane extends StackPane {
    static final String ID = "sandbox-changes";
    /** The line that lists the changes in the shared layers. */
    static final String LAYERS_ID = "sandbox-layer-changes";
    /** How many of them the line names. */
    private static final int SHOWN = 3;

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
            DiffView view = new DiffView(diff, false, openButton());
            javafx.scene.layout.VBox.setVgrow(view, javafx.scene.layout.Priority.ALWAYS);
            getChildren().setAll(new javafx.scene.layout.VBox(layerStrip(), view));
        }
        String id = s == null ? null : s.id();
        if (!java.util.Objects.equals(id, diff.sandboxId())) {
            diff.open(id);
        } else if (again) {
            diff.refreshIfChanged();
        }
    }

    /**
     * What the sandbox changed in the shared layers, over the diff: git ignores those folders, so the diff never shows
     * them. Hidden while there is none.
     */
    private Label layerStrip() {
        Label l = new Label(null, Icons.of(MaterialDesignL.LAYERS_OUTLINE, 14));
        l.setId(LAYERS_ID);
        l.getStyleClass().add(Style.MUTED);
        l.setPadding(new javafx.geometry.Insets(4, 8, 4, 8));
        l.setMaxWidth(Double.MAX_VALUE);
        Tooltip all = new Tooltip();
        all.setWrapText(false);
        Runnable show = () -> {
            List<LayerChange> c = vm.layerChangesProperty().get();
            l.setText(summary(c));
            all.setText(c.stream()
                    .map(x -> x.kind().name().toLowerCase(java.util.Locale.ROOT) + "  " + x.path())
                    .collect(java.util.stream.Collectors.joining("\n")));
            l.setTooltip(c.isEmpty() ? null : all);
            l.setVisible(!c.isEmpty());
            l.setManaged(!c.isEmpty());
        };
        vm.layerChangesProperty().addListener((o, a, c) -> show.run());
        show.run();
        return l;
    }

    /** "In shared layers (not in the diff): 3 changes — modified node_modules/a.js, …" for one line. */
    static String summary(List<LayerChange> changes) {
        if (changes.isEmpty()) {
            return "";
        }
        int shown = Math.min(SHOWN, changes.size());
        StringBuilder b = new StringBuilder("In shared layers (not in the diff): ")
                .append(changes.size())
                .append(changes.size() == 1 ? " change — " : " changes — ");
        for (int i = 0; i < shown; i++) {
            LayerChange c = changes.get(i);
            b.append(i == 0 ? "" : ", ")
                    .append(c.kind().name().toLowerCase(java.util.Locale.ROOT))
                    .append(' ')
                    .append(c.path());
        }
        if (changes.size() > shown) {
            b.append(", and ").append(changes.size() - shown).append(" more");
        }
        return b.toString();
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
