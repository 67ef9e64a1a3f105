package dev.paddock.ui.shell;

import dev.paddock.common.Threads;
import dev.paddock.settings.PaddockHome;
import dev.paddock.ui.theme.Theme;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.image.Image;
import javafx.stage.Stage;
import org.kordamp.ikonli.javafx.FontIcon;
import org.kordamp.ikonli.materialdesign2.MaterialDesignS;

/**
 * The JavaFX application of the panel. The window appears first (with a progress indicator); once its
 * first frame is drawn, the store, the API and the repository open in the background, so the first frame
 * never waits for them, nor shares the two cores with them.
 */
public final class PaddockApp extends Application {
    /** How long after the first frame the dashboard is built, while Paddock starts (see {@link #start}). */
    static final long DASHBOARD_AFTER_FIRST_FRAME_MS = 250;

    private static volatile PaddockHome home;
    private static volatile Path repo;
    private static volatile boolean startupFailed;
    private static volatile PanelBackends.Starter starter;
    /** Paddock being started: completed once the first frame is drawn and the store, API and watchers run. */
    private final CompletableFuture<PanelBackends> starting = new CompletableFuture<>();

    private ShellViewModel vm;
    private UiPreferences prefs;

    /** Arguments for the next launch (set by {@link PanelLauncher}: {@code Application.launch} takes none). */
    static void configure(PaddockHome paddockHome, Path repository, PanelBackends.Starter paddockStarter) {
        home = paddockHome;
        repo = repository;
        starter = paddockStarter;
        startupFailed = false;
    }

    /** Whether the last run could not start Paddock (store in use, ...). */
    static boolean startupFailed() {
        return startupFailed;
    }

    /**
     * Runs on the launcher thread once the toolkit is up, before {@link #start}. Warms up the costly first
     * uses of Ikonli (its 1 MB icon font) and of a label on another thread while the window is being built
     * (warming a table up too made the first frame later). Nodes may be created off the FX thread while no
     * scene shows them. Paddock itself (store, API, repository) starts once the first frame is drawn
     * ({@link #start}): started here, its 3,000 classes (Jackson, Flyway, H2, Logback) competed with the
     * first frame for two cores: first frame 1.35 s and dashboard 2.5 s, against 1.0 s and 2.6 s
     * (medians of 7 starts, bench profile's launcher).
     */
    @Override
    public void init() {
        // Before the warm-up touches a control: else Control's static initialiser may queue Modena after our theme.
        new UiPreferences(home.dir().resolve("ui.properties")).theme().useAsUserAgentStylesheet();
        Threads.start("ui-warm-up", () -> {
            new FontIcon(MaterialDesignS.SOURCE_BRANCH);
            new Label("warm-up");
        });
    }

    @Override
    public void start(Stage stage) {
        UiPreferences prefs = new UiPreferences(home.dir().resolve("ui.properties"));
        this.prefs = prefs;
        vm = new ShellViewModel();
        // ui.properties is written only once this panel owns the home: one refused (another Paddock runs on it)
        // leaves that Paddock's file alone.
        prefs.setWritable(false);
        vm.phaseProperty().addListener((o, a, phase) -> {
            startupFailed = phase == ShellViewModel.Phase.FAILED;
            prefs.setWritable(phase == ShellViewModel.Phase.READY);
        });
        // SIGTERM (or Ctrl+C in the terminal) ends the JVM without stop(): close the store and remove
        // instance.json all the same.
        Runtime.getRuntime().addShutdownHook(new Thread(vm::close, "panel-shutdown"));
        // The window's size and layout are tracked as they change (below), so this needs nothing from the FX thread,
        // which no longer runs then.
        Runtime.getRuntime().addShutdownHook(new Thread(prefs::saveIfChanged, "panel-preferences"));
        Theme theme = prefs.theme();
        MainWindow window = new MainWindow(vm, theme);
        window.setOnThemeChange(prefs::setTheme);
        window.setLayoutMemory(prefs);
        // Never larger than the screen (a size saved on a larger one, or the default on a 1366×768 laptop).
        javafx.geometry.Rectangle2D screen = javafx.stage.Screen.getPrimary().getVisualBounds();
        Scene scene = new Scene(
                window,
                Math.min(prefs.width(screen.getWidth()), screen.getWidth()),
                Math.min(prefs.height(screen.getHeight()), screen.getHeight()));
        theme.apply(scene);
        window.installShortcuts(scene);
        stage.setScene(scene);
        window.bindTitle(stage);
        stage.setMinWidth(900);
        stage.setMinHeight(560);
        javafx.beans.InvalidationListener size = o -> {
            if (!stage.isMaximized()) {
                prefs.trackSize(scene.getWidth(), scene.getHeight());
            }
        };
        scene.widthProperty().addListener(size);
        scene.heightProperty().addListener(size);
        stage.maximizedProperty().addListener((o, was, now) -> prefs.trackMaximized(now));
        if (prefs.maximized()) {
            stage.setMaximized(true);
        }
        stage.setOnCloseRequest(e -> prefs.saveIfChanged());
        StartupProbe.watch(scene, vm);
        vm.start(starting, repo);
        stage.show();
        // Once the first frame is drawn, Paddock starts and the window icons (five PNGs) are decoded, both off the
        // FX thread. Nothing heavy runs on the FX thread then: GTK shows the window's content only when that thread
        // has handled the window's first expose, which a busy FX thread delays (building the dashboard there kept
        // the window white for half a second). The dashboard is built a moment later, while the store opens, and shown
        // once it is open (MainWindow).
        // Should no second pulse come (nothing animates), Paddock starts after 2 s all the same.
        AtomicBoolean hostStarted = new AtomicBoolean();
        Runnable startHost = () -> {
            if (hostStarted.compareAndSet(false, true)) {
                ShellViewModel.startPaddock(starter, home).whenComplete((h, e) -> {
                    if (e != null) {
                        starting.completeExceptionally(e);
                    } else {
                        starting.complete(h);
                    }
                });
            }
        };
        CompletableFuture.delayedExecutor(2, TimeUnit.SECONDS).execute(startHost);
        FirstFrame.afterDrawn(() -> {
            startHost.run();
            Threads.start("window-icons", () -> {
                List<Image> decoded = AppIcons.windowIcons();
                Platform.runLater(() -> stage.getIcons().setAll(decoded));
            });
            // The FX thread has nothing else to do while Paddock starts (a second and more): the dashboard is built
            // meanwhile, a moment after the first frame so that GTK's first expose of the window is handled first.
            CompletableFuture.delayedExecutor(DASHBOARD_AFTER_FIRST_FRAME_MS, TimeUnit.MILLISECONDS)
                    .execute(() -> Platform.runLater(window::prepareDashboard));
        });
    }

    @Override
    public void stop() {
        if (prefs != null) {
            prefs.saveIfChanged();
        }
        if (vm != null) {
            vm.close();
        }
    }
}
