package dev.paddock.ui.shell;

import atlantafx.base.theme.Styles;
import dev.paddock.repo.RepoRecord;
import dev.paddock.ui.common.Icons;
import dev.paddock.ui.common.UiExecutor;
import dev.paddock.ui.dashboard.DashboardView;
import dev.paddock.ui.layers.SharedLayersDialog;
import dev.paddock.ui.layers.SharedLayersViewModel;
import dev.paddock.ui.mergesettings.MergeSettingsDialog;
import dev.paddock.ui.mergesettings.MergeSettingsViewModel;
import dev.paddock.ui.policy.PolicyEditorDialog;
import dev.paddock.ui.policy.PolicyEditorViewModel;
import dev.paddock.ui.sandboxes.SandboxesView;
import dev.paddock.ui.theme.Style;
import dev.paddock.ui.theme.Theme;
import java.io.File;
import java.util.function.Consumer;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import javafx.stage.DirectoryChooser;
import javafx.stage.Window;
import org.kordamp.ikonli.materialdesign2.MaterialDesignA;
import org.kordamp.ikonli.materialdesign2.MaterialDesignF;
import org.kordamp.ikonli.materialdesign2.MaterialDesignL;
import org.kordamp.ikonli.materialdesign2.MaterialDesignR;
import org.kordamp.ikonli.materialdesign2.MaterialDesignS;
import org.kordamp.ikonli.materialdesign2.MaterialDesignW;

/**
 * The main window's content: a header (repository switcher, open, refresh, theme), the dashboard or
 * the welcome page, and the status bar. Keyboard: Ctrl+O open, F5 refresh, Ctrl+1/Ctrl+2/Ctrl+3/Ctrl+4 sandboxes,
 * worktrees, containers or merge queue (its keys: see {@link dev.paddock.ui.mergequeue.MergeQueueView}), Ctrl+N new
 * sandbox, Ctrl+P the repository's policy, Ctrl+Shift+M its merge settings, Ctrl+Shift+D its shared layers,
 * Ctrl+Shift+L light/dark, Ctrl+Q quit
 * (the sandboxes tab adds its row
 * actions' keys, see {@link SandboxesView}; the approval list has A / D / Shift+D while it has the focus,
 * see {@link dev.paddock.ui.approvals.ApprovalsView}).
 */
public final class MainWindow extends BorderPane {
    private final ShellViewModel vm;
    /** Built when first needed: once the store is open (the first frame shows "Opening Paddock's store…"). */
    private DashboardView dashboard;

    private WelcomeView welcome;
    private final StackPane center = new StackPane();
    private final StackPane switcherSlot = new StackPane();
    private final StackPane busySlot = new StackPane();
    private ComboBox<RepoRecord> switcher;
    private Consumer<Theme> onThemeChange = t -> {};
    private dev.paddock.ui.common.LayoutMemory layout = dev.paddock.ui.common.LayoutMemory.inMemory();
    private Button themeButton;
    private Theme theme;
    private boolean policyOpen;
    private boolean mergeSettingsOpen;
    private boolean sharedLayersOpen;

    /** Opens the policy editor of the repository shown: Ctrl+P. */
    public static final KeyCodeCombination POLICY = new KeyCodeCombination(KeyCode.P, KeyCombination.SHORTCUT_DOWN);

    /** Opens the merge settings of the repository shown: Ctrl+Shift+M. */
    public static final KeyCodeCombination MERGE_SETTINGS =
            new KeyCodeCombination(KeyCode.M, KeyCombination.SHORTCUT_DOWN, KeyCombination.SHIFT_DOWN);

    /** Opens the shared layers (dependency folders) of the repository shown: Ctrl+Shift+D. */
    public static final KeyCodeCombination SHARED_LAYERS =
            new KeyCodeCombination(KeyCode.D, KeyCombination.SHORTCUT_DOWN, KeyCombination.SHIFT_DOWN);

    public MainWindow(ShellViewModel vm, Theme theme) {
        this.vm = vm;
        this.theme = theme;
        getStyleClass().add(Style.ROOT);
        // A sandbox the person looks at (this window focused, it selected) starts waiting without a notification.
        vm.setWindowFocused(() -> getScene() != null
                && getScene().getWindow() != null
                && getScene().getWindow().isFocused());
        setTop(header());
        setCenter(center);
        setBottom(new StatusBarView(vm));
        vm.phaseProperty().addListener((o, a, b) -> showCenter());
        vm.currentProperty().addListener((o, a, b) -> showCenter());
        vm.openErrorProperty().addListener((o, a, b) -> showCenter());
        showCenter();
    }

    private DashboardView dashboard() {
        if (dashboard == null) {
            dashboard = new DashboardView(vm.dashboard(), layout);
        }
        return dashboard;
    }

    /**
     * Builds the dashboard now, before it is shown (call on the FX thread once the first frame is drawn): while
     * Paddock starts on another thread the FX thread is idle, and the dashboard then only has to be put in the
     * window when the store is open. Does nothing once start-up is over or the dashboard was built.
     */
    public void prepareDashboard() {
        if (vm.phaseProperty().get() == ShellViewModel.Phase.STARTING) {
            dashboard();
        }
    }

    private WelcomeView welcome() {
        if (welcome == null) {
            welcome = new WelcomeView(vm, this::chooseFolder, vm::select);
        }
        return welcome;
    }

    /** Where the dashboard keeps its layout choices (dividers) from one run to the next; before it is shown. */
    public void setLayoutMemory(dev.paddock.ui.common.LayoutMemory memory) {
        this.layout = memory;
    }

    /** Called with the new theme when the user toggles it. */
    public void setOnThemeChange(Consumer<Theme> listener) {
        this.onThemeChange = listener;
    }

    /** Keeps the window title on the repository shown: "project — Paddock". */
    public void bindTitle(javafx.stage.Stage stage) {
        stage.titleProperty()
                .bind(vm.currentProperty().map(r -> r.name() + " — Paddock").orElse("Paddock"));
    }

    /** Installs the keyboard shortcuts on the scene. */
    public void installShortcuts(Scene scene) {
        var acc = scene.getAccelerators();
        acc.put(new KeyCodeCombination(KeyCode.O, KeyCombination.SHORTCUT_DOWN), this::chooseFolder);
        acc.put(new KeyCodeCombination(KeyCode.F5), vm::refresh);
        acc.put(new KeyCodeCombination(KeyCode.R, KeyCombination.SHORTCUT_DOWN), vm::refresh);
        acc.put(SandboxesView.NEW, () -> {
            if (vm.currentProperty().get() != null && vm.phaseProperty().get() == ShellViewModel.Phase.READY) {
                dashboard().newSandbox();
            }
        });
        acc.put(POLICY, this::openPolicy);
        acc.put(MERGE_SETTINGS, this::openMergeSettings);
        acc.put(SHARED_LAYERS, this::openSharedLayers);
        acc.put(
                new KeyCodeCombination(KeyCode.DIGIT1, KeyCombination.SHORTCUT_DOWN),
                () -> dashboard().selectTab(0));
        acc.put(
                new KeyCodeCombination(KeyCode.DIGIT2, KeyCombination.SHORTCUT_DOWN),
                () -> dashboard().selectTab(1));
        acc.put(
                new KeyCodeCombination(KeyCode.DIGIT3, KeyCombination.SHORTCUT_DOWN),
                () -> dashboard().selectTab(2));
        acc.put(
                new KeyCodeCombination(KeyCode.DIGIT4, KeyCombination.SHORTCUT_DOWN),
                () -> dashboard().selectTab(3));
        acc.put(
                new KeyCodeCombination(KeyCode.L, KeyCombination.SHORTCUT_DOWN, KeyCombination.SHIFT_DOWN),
                this::toggleTheme);
        acc.put(new KeyCodeCombination(KeyCode.B, KeyCombination.SHORTCUT_DOWN), () -> {
            if (vm.currentProperty().get() != null && vm.phaseProperty().get() == ShellViewModel.Phase.READY) {
                dashboard().toggleSide();
            }
        });
        acc.put(new KeyCodeCombination(KeyCode.Q, KeyCombination.SHORTCUT_DOWN), () -> {
            Window w = scene.getWindow();
            if (w != null) {
                w.fireEvent(new javafx.stage.WindowEvent(w, javafx.stage.WindowEvent.WINDOW_CLOSE_REQUEST));
                if (w.isShowing()) {
                    w.hide();
                }
            }
        });
    }

    private Node header() {
        Label brand = new Label("Paddock");
        brand.getStyleClass().add(Style.BRAND);
        brand.setGraphic(AppIcons.logo(22));

        // The switcher (a combo box: its list and skin cost a tenth of a second on a first start) and the busy
        // spinner come when the store is open: until then the first frame has a disabled stand-in.
        Button placeholder = new Button("No repository open");
        placeholder.setId("repository-switcher-placeholder");
        placeholder.setPrefWidth(340);
        placeholder.setAlignment(Pos.CENTER_LEFT);
        placeholder.setDisable(true);
        switcherSlot.getChildren().setAll(placeholder);
        busySlot.setPrefSize(18, 18);

        Button open = iconButton(MaterialDesignF.FOLDER_OPEN_OUTLINE, "Open repository… (Ctrl+O)", this::chooseFolder);
        open.setId("header-open");
        open.disableProperty().bind(vm.phaseProperty().isNotEqualTo(ShellViewModel.Phase.READY));
        Button policy = iconButton(
                MaterialDesignS.SHIELD_CHECK_OUTLINE, "Command policy of this repository… (Ctrl+P)", this::openPolicy);
        policy.setId("header-policy");
        policy.disableProperty()
                .bind(vm.currentProperty().isNull().or(vm.phaseProperty().isNotEqualTo(ShellViewModel.Phase.READY)));
        Button mergeSettings = iconButton(
                MaterialDesignS.SOURCE_MERGE,
                "Merge settings of this repository… (Ctrl+Shift+M)",
                this::openMergeSettings);
        mergeSettings.setId("header-merge-settings");
        mergeSettings.disableProperty().bind(policy.disableProperty());
        Button sharedLayers = iconButton(
                MaterialDesignL.LAYERS_OUTLINE,
                "Shared layers (dependency folders) of this repository… (Ctrl+Shift+D)",
                this::openSharedLayers);
        sharedLayers.setId("header-shared-layers");
        sharedLayers.disableProperty().bind(policy.disableProperty());
        Button refresh = iconButton(MaterialDesignR.REFRESH, "Refresh now (F5)", vm::refresh);
        refresh.disableProperty().bind(vm.currentProperty().isNull());
        themeButton = iconButton(MaterialDesignW.WEATHER_NIGHT, "Light / dark (Ctrl+Shift+L)", this::toggleTheme);
        themeButton.setId("theme-toggle");
        showThemeIcon();

        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        HBox bar = new HBox(
                10,
                brand,
                switcherSlot,
                open,
                busySlot,
                spacer,
                policy,
                mergeSettings,
                sharedLayers,
                refresh,
                themeButton);
        bar.setAlignment(Pos.CENTER_LEFT);
        bar.getStyleClass().add(Style.HEADER);
        return bar;
    }

    /** Puts the repository switcher and the busy spinner in the header, once. */
    private void buildHeaderControls() {
        if (switcher != null) {
            return;
        }
        switcher = new ComboBox<>(vm.recents());
        switcher.setId("repository-switcher");
        switcher.setPromptText("No repository open");
        switcher.setPrefWidth(340);
        switcher.setCellFactory(v -> new RepoCell());
        switcher.setButtonCell(new RepoCell());
        switcher.getSelectionModel().select(vm.currentProperty().get());
        vm.currentProperty()
                .addListener((o, a, b) -> switcher.getSelectionModel().select(b));
        switcher.setOnAction(e -> {
            RepoRecord picked = switcher.getSelectionModel().getSelectedItem();
            if (picked != null) {
                vm.select(picked);
            }
        });
        switcher.disableProperty().bind(vm.phaseProperty().isNotEqualTo(ShellViewModel.Phase.READY));
        switcher.setTooltip(new Tooltip("Switch between registered repositories"));
        switcherSlot.getChildren().setAll(switcher);

        ProgressIndicator busy = new ProgressIndicator();
        busy.setPrefSize(18, 18);
        busy.visibleProperty().bind(vm.busyProperty());
        busySlot.getChildren().setAll(busy);
    }

    private static Button iconButton(org.kordamp.ikonli.Ikon icon, String tip, Runnable action) {
        Button b = new Button(null, Icons.of(icon, 18));
        b.getStyleClass().addAll(Styles.BUTTON_ICON, Styles.FLAT);
        b.setTooltip(new Tooltip(tip));
        b.setOnAction(e -> action.run());
        return b;
    }

    /** Opens the Policy dialog for the repository shown (nothing when none is, or one is already open). */
    public void openPolicy() {
        RepoRecord repo = vm.currentProperty().get();
        dev.paddock.ui.policy.PolicyEditorBackend policies = vm.policies();
        if (repo == null || policies == null || vm.phaseProperty().get() != ShellViewModel.Phase.READY || policyOpen) {
            return;
        }
        policyOpen = true;
        PolicyEditorDialog dialog = new PolicyEditorDialog(
                new PolicyEditorViewModel(repo.path(), policies, UiExecutor.io()),
                getScene() == null ? null : getScene().getWindow());
        dialog.setOnHidden(e -> policyOpen = false);
        dialog.show();
    }

    /** Opens the Merge settings dialog for the repository shown (nothing when none is, or one is already open). */
    public void openMergeSettings() {
        RepoRecord repo = vm.currentProperty().get();
        dev.paddock.ui.mergesettings.MergeSettingsBackend backend = vm.mergeSettings();
        if (repo == null
                || backend == null
                || vm.phaseProperty().get() != ShellViewModel.Phase.READY
                || mergeSettingsOpen) {
            return;
        }
        mergeSettingsOpen = true;
        MergeSettingsDialog dialog = new MergeSettingsDialog(
                new MergeSettingsViewModel(repo.path(), backend, UiExecutor.io()),
                getScene() == null ? null : getScene().getWindow());
        dialog.setOnHidden(e -> mergeSettingsOpen = false);
        dialog.show();
    }

    /** Opens the Shared layers dialog for the repository shown (nothing when none is, or one is already open). */
    public void openSharedLayers() {
        RepoRecord repo = vm.currentProperty().get();
        dev.paddock.ui.layers.SharedLayersBackend backend = vm.sharedLayers();
        if (repo == null
                || backend == null
                || vm.phaseProperty().get() != ShellViewModel.Phase.READY
                || sharedLayersOpen) {
            return;
        }
        sharedLayersOpen = true;
        SharedLayersDialog dialog = new SharedLayersDialog(
                new SharedLayersViewModel(repo.path(), backend, UiExecutor.io()),
                getScene() == null ? null : getScene().getWindow());
        dialog.setOnHidden(e -> sharedLayersOpen = false);
        dialog.show();
    }

    private void toggleTheme() {
        theme = theme.toggled();
        if (getScene() != null) {
            theme.apply(getScene());
        }
        showThemeIcon();
        onThemeChange.accept(theme);
    }

    /** The button shows the theme it switches to: a moon in light mode, a sun in dark mode. */
    private void showThemeIcon() {
        if (themeButton != null) {
            themeButton.setGraphic(Icons.of(
                    theme == Theme.DARK ? MaterialDesignW.WHITE_BALANCE_SUNNY : MaterialDesignW.WEATHER_NIGHT, 18));
        }
    }

    private void chooseFolder() {
        if (vm.phaseProperty().get() != ShellViewModel.Phase.READY) {
            return;
        }
        DirectoryChooser chooser = new DirectoryChooser();
        chooser.setTitle("Open a git repository");
        RepoRecord cur = vm.currentProperty().get();
        if (cur != null
                && cur.path().getParent() != null
                && cur.path().getParent().toFile().isDirectory()) {
            chooser.setInitialDirectory(cur.path().getParent().toFile());
        }
        File dir = chooser.showDialog(getScene() == null ? null : getScene().getWindow());
        if (dir != null) {
            vm.open(dir.toPath());
        }
    }

    private void showCenter() {
        if (vm.phaseProperty().get() != ShellViewModel.Phase.STARTING) {
            buildHeaderControls();
        }
        Node content = switch (vm.phaseProperty().get()) {
            case STARTING -> starting();
            case FAILED -> failed();
            case READY -> vm.currentProperty().get() == null ? welcome() : dashboardWithErrorBar();
        };
        if (center.getChildren().size() != 1 || center.getChildren().get(0) != content) {
            center.getChildren().setAll(content);
        }
    }

    private VBox dashboardWrapper;

    private Node dashboardWithErrorBar() {
        if (dashboardWrapper == null) {
            Label error = new Label(null, Icons.of(MaterialDesignA.ALERT_CIRCLE_OUTLINE));
            error.setId("dashboard-open-error");
            error.getStyleClass().add(Style.PROBLEM);
            error.setWrapText(true);
            error.textProperty().bind(vm.openErrorProperty());
            error.visibleProperty().bind(vm.openErrorProperty().isNotEmpty());
            error.managedProperty().bind(error.visibleProperty());
            dashboardWrapper = new VBox(error, new EngineBanner(vm), dashboard());
            VBox.setVgrow(dashboard(), Priority.ALWAYS);
        }
        return dashboardWrapper;
    }

    private Node startingNode;

    /** "Opening Paddock's store…" with a spinner, while Paddock starts (one node, however often it is asked for). */
    private Node starting() {
        if (startingNode != null) {
            return startingNode;
        }
        ProgressIndicator p = new ProgressIndicator();
        p.setPrefSize(40, 40);
        Label l = new Label("Opening Paddock's store…");
        VBox box = new VBox(12, p, l);
        box.setId("starting");
        box.setAlignment(Pos.CENTER);
        startingNode = box;
        return box;
    }

    private Node failed() {
        Label title = new Label("Paddock cannot start");
        title.getStyleClass().add(Style.WELCOME_TITLE);
        Label msg = new Label();
        msg.setId("startup-error");
        msg.textProperty().bind(vm.startupErrorProperty());
        msg.setWrapText(true);
        msg.setMaxWidth(620);
        Button quit = new Button("Quit");
        quit.setId("startup-quit");
        // The only thing left to do: Enter and Escape quit (the theme toggle, first in the header, had the focus).
        quit.setDefaultButton(true);
        quit.setCancelButton(true);
        focusWhenShown(quit);
        quit.setOnAction(e -> {
            if (getScene() != null && getScene().getWindow() != null) {
                getScene().getWindow().hide();
            }
        });
        VBox box = new VBox(14, Icons.of(MaterialDesignA.ALERT_CIRCLE_OUTLINE, 48), title, msg, quit);
        box.getStyleClass().add(Style.FAILED);
        box.setAlignment(Pos.CENTER);
        return box;
    }

    /** Gives {@code node} the keyboard focus once it is in a scene (now, when it already is). */
    private static void focusWhenShown(Node node) {
        if (node.getScene() != null) {
            node.requestFocus();
            return;
        }
        node.sceneProperty().addListener(new javafx.beans.value.ChangeListener<Scene>() {
            @Override
            public void changed(javafx.beans.value.ObservableValue<? extends Scene> o, Scene before, Scene now) {
                if (now != null) {
                    node.sceneProperty().removeListener(this);
                    // After the layout pass that adds it: a node not yet laid out may refuse the focus.
                    javafx.application.Platform.runLater(node::requestFocus);
                }
            }
        });
    }

    private static final class RepoCell extends ListCell<RepoRecord> {
        @Override
        protected void updateItem(RepoRecord r, boolean empty) {
            super.updateItem(r, empty);
            setText(empty || r == null ? null : r.name() + "  —  " + r.path());
        }
    }
}
