package dev.paddock.ui.sandboxes;

import dev.paddock.status.RepositoryStatus.Sandbox;
import dev.paddock.ui.common.EmptyState;
import dev.paddock.ui.common.ErrorBox;
import dev.paddock.ui.common.Icons;
import dev.paddock.ui.common.LayoutMemory;
import dev.paddock.ui.theme.Style;
import java.time.Instant;
import java.util.List;
import javafx.application.Platform;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.collections.ListChangeListener;
import javafx.geometry.Orientation;
import javafx.scene.control.Button;
import javafx.scene.control.SplitPane;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.stage.Window;
import org.kordamp.ikonli.Ikon;
import org.kordamp.ikonli.materialdesign2.MaterialDesignC;
import org.kordamp.ikonli.materialdesign2.MaterialDesignP;
import org.kordamp.ikonli.materialdesign2.MaterialDesignR;
import org.kordamp.ikonli.materialdesign2.MaterialDesignS;
import org.kordamp.ikonli.materialdesign2.MaterialDesignT;

/**
 * The sandboxes tab: a toolbar ({@link SandboxToolbar}: new, stop, retry, remove, open folder, open terminal,
 * details), the table with the same actions in its context menu, and the details pane of the selected sandbox below
 * it. Keyboard: Ctrl+N new, Ctrl+. stop, Ctrl+Shift+R retry, Delete remove, Ctrl+E open folder,
 * Ctrl+T terminal, Ctrl+I details pane, Ctrl+G compare a fan-out's sandboxes — the row actions only while this tab
 * shows.
 */
public final class SandboxesView extends VBox {
    /** Keys of the actions (shown in tooltips and menus). */
    public static final KeyCombination NEW = new KeyCodeCombination(KeyCode.N, KeyCombination.SHORTCUT_DOWN);

    public static final KeyCombination STOP = new KeyCodeCombination(KeyCode.PERIOD, KeyCombination.SHORTCUT_DOWN);
    public static final KeyCombination RETRY =
            new KeyCodeCombination(KeyCode.R, KeyCombination.SHORTCUT_DOWN, KeyCombination.SHIFT_DOWN);
    public static final KeyCombination REMOVE = new KeyCodeCombination(KeyCode.DELETE);
    public static final KeyCombination OPEN_FOLDER = new KeyCodeCombination(KeyCode.E, KeyCombination.SHORTCUT_DOWN);
    public static final KeyCombination OPEN_TERMINAL = new KeyCodeCombination(KeyCode.T, KeyCombination.SHORTCUT_DOWN);
    public static final KeyCombination DETAILS = new KeyCodeCombination(KeyCode.I, KeyCombination.SHORTCUT_DOWN);
    public static final KeyCombination COMPARE = new KeyCodeCombination(KeyCode.G, KeyCombination.SHORTCUT_DOWN);
    public static final KeyCombination PUSH =
            new KeyCodeCombination(KeyCode.U, KeyCombination.SHORTCUT_DOWN, KeyCombination.SHIFT_DOWN);
    public static final KeyCombination PULL_REQUEST =
            new KeyCodeCombination(KeyCode.O, KeyCombination.SHORTCUT_DOWN, KeyCombination.SHIFT_DOWN);
    /** Where the divider above the details pane is kept ({@link LayoutMemory}), and its first place. */
    static final String DIVIDER_KEY = "sandboxes.detailsDivider";
    /**
     * Height the table keeps at least while the details pane shows (its header and about two rows): the divider can
     * give the details pane the rest; a person's choice is kept under {@link #DIVIDER_KEY}.
     */
    static final double TABLE_MIN_HEIGHT = 96;
    /**
     * Rows the table shows at most where the details pane opens first (when nobody moved the divider yet): the
     * details pane, what a person selected a sandbox for, gets the rest (at 1366×768 about six transcript rows).
     */
    static final int TABLE_FIRST_ROWS = 3;
    /**
     * Height the details pane keeps at least: its header, the follow-up field, its tabs and three rows of the
     * transcript (or lines of the log).
     */
    static final double DETAILS_MIN_HEIGHT = 215;

    private final SandboxesViewModel vm;
    private final SandboxTable table;
    private final BooleanProperty active = new SimpleBooleanProperty(true);
    private NewSandboxDialog newDialog;
    private RemovalDialog removalDialog;
    private CompareDialog compareDialog;
    private final SandboxDetailsView detailsView;
    /** How long the note about an action done stays in the toolbar. */
    static final javafx.util.Duration NOTICE_FOR = javafx.util.Duration.seconds(12);

    private Runnable beforeNew = () -> {};

    /** @param now the time of the dashboard's last refresh: ages and lease countdowns re-render with it */
    public SandboxesView(SandboxesViewModel vm, ReadOnlyObjectProperty<Instant> now) {
        this(vm, now, LayoutMemory.inMemory());
    }

    /**
     * @param now    the time of the dashboard's last refresh: ages and lease countdowns re-render with it
     * @param layout where the details pane's divider is kept when a person moves it
     */
    public SandboxesView(SandboxesViewModel vm, ReadOnlyObjectProperty<Instant> now, LayoutMemory layout) {
        this.vm = vm;
        getStyleClass().add(Style.SANDBOXES);
        setId("sandboxes-view");

        SandboxToolbar toolbar = new SandboxToolbar(vm, this::newSandbox, this::remove);

        ErrorBox error = new ErrorBox(vm::dismissError).bindTo(vm.errorProperty());
        error.setId("sandbox-action-error");

        // Registered before the table's own listeners, so it runs first: a row replaced by a refresh may
        // drop out of the table's selection for a moment; that is not the person unselecting it.
        vm.rows().addListener((ListChangeListener<Sandbox>) c -> {
            if (!rowsChanging) {
                rowsChanging = true;
                Platform.runLater(() -> {
                    rowsChanging = false;
                    keepSelection();
                });
            }
        });
        table = new SandboxTable(
                vm.rows(),
                vm.latestRowsProperty(),
                now,
                vm.containerMetricsProperty(),
                vm.askingProperty(),
                placeholder());
        table.setContextMenu(
                SandboxMenu.of(vm, active, SandboxMenu.Actions.of(this::remove, this::newSandbox, this::compare)));
        table.getSelectionModel().getSelectedItems().addListener((ListChangeListener<Sandbox>) c -> reportSelection());
        vm.createdIdProperty().addListener((o, a, id) -> keepSelection());

        detailsView = new SandboxDetailsView(vm.details());
        detailsView.followAsking(vm.askingProperty());
        detailsView.addHeaderAction(compareButton());
        detailsView.addHeaderAction(publishButton(
                "sandbox-push",
                MaterialDesignC.CLOUD_UPLOAD_OUTLINE,
                "Push the branch to the repository's remote (origin, or the only one) with your git credentials",
                PUSH,
                vm::push));
        detailsView.addHeaderAction(publishButton(
                "sandbox-pull-request",
                MaterialDesignS.SOURCE_PULL,
                "Push the branch and open a pull request with the GitHub CLI (gh, signed in)",
                PULL_REQUEST,
                vm::openPullRequest));
        SplitPane split = new SplitPane(table, detailsView);
        split.setOrientation(Orientation.VERTICAL);
        split.getStyleClass().add(Style.SANDBOX_SPLIT);
        SplitPane.setResizableWithParent(detailsView, false);
        // The table keeps a useful number of rows, the details pane its tabs and a few lines.
        table.setMinHeight(TABLE_MIN_HEIGHT);
        detailsView.setMinHeight(DETAILS_MIN_HEIGHT);
        // Where a person drags the divider is kept (for this run, and in ui.properties for the next).
        split.addEventFilter(javafx.scene.input.MouseEvent.MOUSE_RELEASED, e -> {
            if (split.getItems().contains(detailsView) && split.getDividerPositions().length == 1) {
                layout.put(DIVIDER_KEY, split.getDividerPositions()[0]);
            }
        });
        // No details pane while it is switched off, or while no sandbox is selected: the table (or its
        // placeholder, with its New sandbox button) then gets the room.
        Runnable layoutSplit = () -> {
            boolean want = vm.details().shownProperty().get()
                    && !vm.rows().isEmpty()
                    && !vm.selectedIds().isEmpty();
            if (want && !split.getItems().contains(detailsView)) {
                // Measured before the details pane takes its part: the table's header and row height.
                double first = firstDivider(split);
                split.getItems().add(detailsView);
                split.setDividerPositions(layout.get(DIVIDER_KEY, first));
                // The table just lost part of its height: lay it out now and keep the selected row in view.
                int selected = table.getSelectionModel().getSelectedIndex();
                if (selected >= 0 && split.getScene() != null) {
                    split.applyCss();
                    split.layout();
                    table.layout();
                    table.scrollTo(Math.max(0, selected - 1));
                }
            } else if (!want) {
                split.getItems().remove(detailsView);
            }
        };
        vm.details().shownProperty().addListener((o, a, shown) -> layoutSplit.run());
        vm.rows().addListener((ListChangeListener<Sandbox>) c -> layoutSplit.run());
        // The view model's selection, which a refresh that replaces rows does not drop for a moment.
        vm.selectedIds().addListener((ListChangeListener<String>) c -> layoutSplit.run());
        layoutSplit.run();
        VBox.setVgrow(split, Priority.ALWAYS);
        getChildren().addAll(toolbar, error, split);
    }

    /**
     * Where the divider goes when nobody moved it: the table keeps what its rows need (at most
     * {@link #TABLE_FIRST_ROWS}), the details pane gets the rest of the height.
     */
    private double firstDivider(SplitPane split) {
        double height = split.getHeight();
        if (height <= 0) {
            return 0.5;
        }
        javafx.scene.Node header = table.lookup(".column-header-background");
        javafx.scene.Node row = table.lookup(".table-row-cell");
        double headerHeight = header == null || header.getBoundsInLocal().getHeight() <= 0
                ? 32
                : header.getBoundsInLocal().getHeight();
        double rowHeight = row == null || row.getBoundsInLocal().getHeight() <= 0
                ? 28
                : row.getBoundsInLocal().getHeight();
        int rows = Math.max(1, Math.min(TABLE_FIRST_ROWS, vm.rows().size()));
        double wanted = Math.max(TABLE_MIN_HEIGHT, headerHeight + rows * rowHeight + 4);
        return Math.min(1, wanted / height);
    }

    /** Whether this tab shows: the row actions' keys act only then. */
    public BooleanProperty activeProperty() {
        return active;
    }

    /** Run before the New Sandbox dialog opens (the dashboard shows this tab). */
    public void setOnNewSandbox(Runnable r) {
        beforeNew = r == null ? () -> {} : r;
    }

    /** Opens the New Sandbox dialog (or brings it to the front). */
    public void newSandbox() {
        beforeNew.run();
        if (newDialog != null && newDialog.isShowing()) {
            ((javafx.stage.Stage) newDialog.getDialogPane().getScene().getWindow()).toFront();
            return;
        }
        NewSandboxViewModel form = vm.newSandbox();
        if (form == null) {
            return;
        }
        newDialog = new NewSandboxDialog(form, window());
        newDialog.setOnHidden(e -> {
            if (newDialog.getResult() != null) {
                vm.created(newDialog.getResult().id());
            }
            table.requestFocus();
        });
        newDialog.show();
    }

    /** Asks how to remove the selected sandboxes (showing what would be lost). */
    public void remove() {
        if (!active.get() || (removalDialog != null && removalDialog.isShowing())) {
            return;
        }
        RemovalViewModel removal = vm.removal();
        if (removal == null) {
            return;
        }
        removal.load(); // first: the dialog opens in its loading state, at its full size
        showRemoval(removal);
    }

    /** Opens the Compare view of the selected sandbox's fan-out (read off the FX thread). */
    public void compare() {
        if (!active.get() || (compareDialog != null && compareDialog.isShowing())) {
            return;
        }
        CompareViewModel compare = vm.compare();
        if (compare == null) {
            return;
        }
        compare.load();
        compareDialog = new CompareDialog(compare, window());
        compareDialog.setOnHidden(e -> {
            if (compareDialog.getResult() != null) {
                detailsView.showSection(SandboxDetailsViewModel.Section.CHANGES);
                vm.show(compareDialog.getResult());
            }
            table.requestFocus();
        });
        compareDialog.show();
    }

    /** The details pane's Compare button: shown for a sandbox of a fan-out. */
    private Button compareButton() {
        Button b = SandboxToolbar.tool(
                "sandbox-compare",
                MaterialDesignT.TABLE_EYE,
                "Compare group",
                "Compare the sandboxes of this fan-out side by side",
                COMPARE,
                vm.canCompareProperty(),
                this::compare);
        b.visibleProperty().bind(vm.canCompareProperty());
        b.managedProperty().bind(b.visibleProperty());
        return b;
    }

    /** A details header button that pushes or opens a pull request: shown while the sandbox has a branch. */
    private Button publishButton(String id, Ikon icon, String help, KeyCombination key, Runnable action) {
        Button b = SandboxToolbar.tool(id, icon, null, help, key, vm.canPublishProperty(), action);
        b.visibleProperty().bind(vm.canPublishProperty());
        b.managedProperty().bind(b.visibleProperty());
        return b;
    }

    /** Shows the removal dialog for a removal (plans loaded or loading). */
    RemovalDialog showRemoval(RemovalViewModel removal) {
        removalDialog = new RemovalDialog(removal, window());
        removalDialog.setOnHidden(e -> {
            if (Boolean.TRUE.equals(removalDialog.getResult())) {
                vm.removed(removal.ids());
            }
            table.requestFocus();
        });
        removalDialog.show();
        return removalDialog;
    }

    private Window window() {
        return getScene() == null ? null : getScene().getWindow();
    }

    private VBox placeholder() {
        EmptyState empty = new EmptyState(
                MaterialDesignR.ROBOT_OUTLINE,
                "No sandboxes yet",
                "Each agent you start gets a sandbox here: its own worktree and branch, with its state,"
                        + " heartbeat, lease and log. Sandboxes that are removed leave this list.");
        Button create = new Button("New sandbox…", Icons.of(MaterialDesignP.PLUS, 16));
        create.setId("sandbox-new-empty");
        create.setTooltip(new Tooltip(NEW.getDisplayText()));
        create.setOnAction(e -> newSandbox());
        create.disableProperty().bind(vm.canCreateProperty().not());
        empty.getChildren().add(create);
        return empty;
    }

    /** The ids of the rows selected in the table. */
    private List<String> tableSelection() {
        return table.getSelectionModel().getSelectedItems().stream()
                .filter(java.util.Objects::nonNull)
                .map(Sandbox::id)
                .toList();
    }

    private boolean restoring;
    private boolean rowsChanging;

    private void reportSelection() {
        if (restoring || rowsChanging) {
            return;
        }
        vm.select(tableSelection());
    }

    /**
     * Rows are replaced as they refresh: selects the rows of the selected ids again when the table lost
     * them, and the row of a sandbox just created once it appears.
     */
    private void keepSelection() {
        String created = vm.createdIdProperty().get();
        List<String> want = vm.selectedIds();
        boolean createdNow = created != null && vm.rows().stream().anyMatch(r -> r.id().equals(created));
        if (createdNow) {
            want = List.of(created);
            vm.createdShown();
        }
        List<String> have = tableSelection();
        if (have.equals(want)) {
            if (createdNow) {
                vm.select(want); // told now: a refresh pending on the FX queue restores what the view model holds
            }
            return;
        }
        List<String> target = List.copyOf(want);
        restoring = true;
        try {
            table.getSelectionModel().clearSelection();
            for (int i = 0; i < vm.rows().size(); i++) {
                if (target.contains(vm.rows().get(i).id())) {
                    table.getSelectionModel().select(i);
                }
            }
        } finally {
            restoring = false;
        }
        // Told even while rows change (reportSelection waits then): this selection is deliberate, and the refresh
        // pending on the FX queue restores what the view model holds, which would otherwise be the old selection.
        vm.select(tableSelection());
        if (target.size() == 1) {
            int i = table.getSelectionModel().getSelectedIndex();
            if (i >= 0) {
                table.scrollTo(i);
            }
        }
    }
}
