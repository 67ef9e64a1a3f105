package dev.paddock.ui.shell;

import dev.paddock.settings.PaddockHome;
import dev.paddock.ui.theme.Theme;
import java.nio.file.Path;
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

    private ShellViewModel vm;

    /** Arguments for the next launch (set by {@link PanelLauncher}: {@code Application.launch} takes none). */
    static void configure(PaddockHome paddockHome, Path repository) {
        home = paddockHome;
        repo = repository;
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
        stage.setTitle("Paddock");
        stage.getIcons().setAll(AppIcons.windowIcons());
        stage.setMinWidth(900);
        stage.setMinHeight(560);
        vm.currentProperty().addListener((o, a, r) -> stage.setTitle(r == null ? "Paddock" : r.name() + " — Paddock"));
        stage.setOnCloseRequest(e -> prefs.setSize(scene.getWidth(), scene.getHeight()));
        StartupProbe.watch(scene, vm);
        stage.show();
        vm.start(home, repo);
    }

    @Override
    public void stop() {
        if (vm != null) {
            vm.close();
        }
    }
}
