package dev.paddock.ui.shell;

import dev.paddock.Host;
import dev.paddock.settings.PaddockHome;
import dev.paddock.ui.theme.Theme;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import javafx.application.Application;
import javafx.scene.Scene;
import javafx.stage.Stage;

/**
 * The JavaFX application of the panel. The window appears first (with a progress indicator), then
 * the store, the API and the repository open in the background, so the first frame never waits for
 * them.
 */
public final class PaddockApp extends Application {
    private static volatile PaddockHome home;
    private static volatile Path repo;
    private static volatile CompletableFuture<Host> starting;

    private ShellViewModel vm;

    /** Arguments for the next launch (set by {@link PanelLauncher}: {@code Application.launch} takes none). */
    static void configure(PaddockHome paddockHome, Path repository, CompletableFuture<Host> host) {
        home = paddockHome;
        repo = repository;
        starting = host;
    }

    @Override
    public void start(Stage stage) {
        UiPreferences prefs = new UiPreferences(home.dir().resolve("ui.properties"));
        vm = new ShellViewModel();
        Theme theme = prefs.theme();
        MainWindow window = new MainWindow(vm, theme);
        window.setOnThemeChange(prefs::setTheme);
        Scene scene = new Scene(window, prefs.width(), prefs.height());
        theme.apply(scene);
        window.installShortcuts(scene);
        stage.setScene(scene);
        window.bindTitle(stage);
        stage.getIcons().setAll(AppIcons.windowIcons());
        stage.setMinWidth(900);
        stage.setMinHeight(560);
        stage.setOnCloseRequest(e -> prefs.setSize(scene.getWidth(), scene.getHeight()));
        StartupProbe.watch(scene, vm);
        stage.show();
        vm.start(starting, repo);
    }

    @Override
    public void stop() {
        if (vm != null) {
            vm.close();
        }
    }
}
