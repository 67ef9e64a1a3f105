package dev.paddock.ui.shell;

import dev.paddock.settings.PaddockHome;
import dev.paddock.ui.theme.Theme;
import dev.paddock.Host;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import javafx.application.Application;
import javafx.animation.AnimationTimer;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.stage.Stage;
import org.kordamp.ikonli.javafx.FontIcon;
import org.kordamp.ikonli.materialdesign2.MaterialDesignS;

/**
 * The JavaFX application of the panel. The window appears first (with a progress indicator); then
 * the store, the API and the repository open in the background, so the first frame never waits for
 * them.
 */
public final class PaddockApp extends Application {
    private static volatile PaddockHome home;
    private static volatile Path repo;
    private static volatile boolean startupFailed;
    private CompletableFuture<Host> starting;

    private ShellViewModel vm;

    /** Arguments for the next launch (set by {@link PanelLauncher}: {@code Application.launch} takes none). */
    static void configure(PaddockHome paddockHome, Path repository) {
        home = paddockHome;
        repo = repository;
        startupFailed = false;
    }

    /** Whether the last run could not start Paddock (store in use, ...). */
    static boolean startupFailed() {
        return startupFailed;
    }

    /**
     * Runs on the launcher thread once the toolkit is up, before {@link #start}. Starts Paddock (store,
     * API) on its own thread: started any earlier, it competes with the toolkit's own start for two
     * cores; started after the first frame, the dashboard comes 0.7 s later (bench profile). Also
     * warms up the costly first uses of Ikonli (its 1 MB icon font) and of a label on another thread,
     * while the window is being built (warming a table up too made the first frame later: the table
     * now waits for the pulse after it). Nodes may be created off the FX thread while no scene shows them.
     */
    @Override
    public void init() {
        starting = ShellViewModel.startHost(home);
        // Before the warm-up touches a control: else Control's static initialiser may queue Modena after our theme.
        new UiPreferences(home.dir().resolve("ui.properties")).theme().useAsUserAgentStylesheet();
        Thread warmUp = new Thread(() -> {
            new FontIcon(MaterialDesignS.SOURCE_BRANCH);
            new Label("warm-up");
        }, "ui-warm-up");
        warmUp.setDaemon(true);
        warmUp.start();
    }

    @Override
    public void start(Stage stage) {
        UiPreferences prefs = new UiPreferences(home.dir().resolve("ui.properties"));
        vm = new ShellViewModel();
        vm.phaseProperty().addListener((o, a, phase) -> startupFailed = phase == ShellViewModel.Phase.FAILED);
        // SIGTERM (or Ctrl+C in the terminal) ends the JVM without stop(): close the store and remove
        // instance.json all the same.
        Runtime.getRuntime().addShutdownHook(new Thread(vm::close, "panel-shutdown"));
        Theme theme = prefs.theme();
        MainWindow window = new MainWindow(vm, theme);
        window.setOnThemeChange(prefs::setTheme);
        Scene scene = new Scene(window, prefs.width(), prefs.height());
        theme.apply(scene);
        window.installShortcuts(scene);
        stage.setScene(scene);
        window.bindTitle(stage);
        stage.setMinWidth(900);
        stage.setMinHeight(560);
        stage.setOnCloseRequest(e -> prefs.setSize(scene.getWidth(), scene.getHeight()));
        StartupProbe.watch(scene, vm);
        vm.start(starting, repo);
        stage.show();
        // Decoding five PNGs and building the dashboard (shown once the store is open) are not needed for the
        // first frame.
        afterFirstFrame(() -> {
            stage.getIcons().setAll(AppIcons.windowIcons());
            window.prepareViews();
        });
    }

    /** Runs {@code action} on the FX thread in the first pulse after the window shows. */
    private static void afterFirstFrame(Runnable action) {
        new AnimationTimer() {
            @Override
            public void handle(long now) {
                stop();
                action.run();
            }
        }.start();
    }

    @Override
    public void stop() {
        if (vm != null) {
            vm.close();
        }
    }
}
