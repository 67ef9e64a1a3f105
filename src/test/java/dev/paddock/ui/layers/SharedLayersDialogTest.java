package dev.paddock.ui.layers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.Host;
import dev.paddock.events.Event;
import dev.paddock.layer.SharedLayers;
import dev.paddock.settings.PaddockHome;
import dev.paddock.testing.TempRepo;
import dev.paddock.ui.shell.MainWindow;
import dev.paddock.ui.shell.ShellViewModel;
import dev.paddock.ui.theme.Theme;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TextInputControl;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The Shared layers dialog in the real panel (a real Paddock with its store and its {@link SharedLayers}, a real git
 * repository with an ignored node_modules), opened from the main window with Ctrl+Shift+D or the header button.
 */
@ExtendWith(ApplicationExtension.class)
class SharedLayersDialogTest {
    @TempDir
    Path temp;

    private Stage stage;
    private TempRepo repo;
    private Host host;
    private final ShellViewModel vm = new ShellViewModel();

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @BeforeEach
    void openPanel() throws Exception {
        repo = TempRepo.init(temp.resolve("project"));
        repo.commitFile(".gitignore", "node_modules/\n", "Ignore node_modules");
        repo.commitFile("src/App.js", "console.log('app')\n", "Add App");
        repo.write("node_modules/left-pad/index.js", "module.exports = s => s\n");
        repo.write("node_modules/left-pad/package.json", "{\"name\": \"left-pad\"}\n");
        host = Host.start(PaddockHome.resolve(temp.resolve("home"), Map.of()), "panel");
        WaitForAsyncUtils.asyncFx(() -> {
                    MainWindow window = new MainWindow(vm, Theme.LIGHT);
                    Scene scene = new Scene(window, 1280, 800);
                    Theme.LIGHT.apply(scene);
                    window.installShortcuts(scene);
                    stage.setScene(scene);
                    stage.show();
                    stage.toFront();
                })
                .get(30, TimeUnit.SECONDS);
        vm.start(CompletableFuture.completedFuture(host.panel()), repo.dir()).get(30, TimeUnit.SECONDS);
        WaitForAsyncUtils.waitFor(
                30, TimeUnit.SECONDS, () -> fx(() -> vm.currentProperty().get() != null));
    }

    @AfterEach
    void closePanel() throws Exception {
        WaitForAsyncUtils.asyncFx(() -> {
                    for (Window w : List.copyOf(Window.getWindows())) {
                        Node pane = w.getScene() == null
                                ? null
                                : w.getScene().getRoot().lookup("#shared-layers-dialog");
                        if (pane != null && pane.getUserData() instanceof SharedLayersDialog d) {
                            d.setOnCloseRequest(null);
                        }
                    }
                    for (Window w : List.copyOf(Window.getWindows())) {
                        w.hide();
                    }
                })
                .get(10, TimeUnit.SECONDS);
        vm.close();
    }

    private static <T> T fx(Callable<T> c) throws Exception {
        return WaitForAsyncUtils.asyncFx(c).get(10, TimeUnit.SECONDS);
    }

    private SharedLayers.Status stored() throws Exception {
        return host.wiring().layers().status(repo.dir());
    }

    /** Opens the dialog with Ctrl+Shift+D and waits until what the repository shares is loaded. */
    private SharedLayersViewModel open(FxRobot robot) throws Exception {
        robot.press(KeyCode.CONTROL, KeyCode.SHIFT, KeyCode.D).release(KeyCode.D, KeyCode.SHIFT, KeyCode.CONTROL);
        return loaded(robot);
    }

    private SharedLayersViewModel loaded(FxRobot robot) throws Exception {
        WaitForAsyncUtils.waitFor(
                20,
                TimeUnit.SECONDS,
                () -> robot.lookup("#shared-layers-dialog").tryQuery().isPresent());
        SharedLayersViewModel model = fx(() -> ((SharedLayersDialog)
                        robot.lookup("#shared-layers-dialog").query().getUserData())
                .viewModel());
        WaitForAsyncUtils.waitFor(
                20,
                TimeUnit.SECONDS,
                () -> fx(() ->
                        !model.busyProperty().get() && model.savedProperty().get() != null));
        return model;
    }

    /** Replaces a field's text by typing it, as a person would. */
    private static void type(FxRobot robot, String id, String text) {
        TextInputControl field = robot.lookup(id).queryAs(TextInputControl.class);
        robot.interact(field::clear);
        robot.clickOn(field);
        robot.write(text);
        WaitForAsyncUtils.waitForFxEvents();
    }

    private static boolean disabled(FxRobot robot, String id) throws Exception {
        return fx(() -> robot.lookup(id).queryAs(Button.class).isDisabled());
    }

    /** The text of a label, or null while it is hidden. */
    private static String shown(FxRobot robot, String id) throws Exception {
        return fx(() -> {
            Node n = robot.lookup(id).query();
            if (!n.isVisible()) {
                return null;
            }
            return n instanceof Label l
                    ? l.getText()
                    : n.lookup(".pd-error-message") instanceof Label m ? m.getText() : n.toString();
        });
    }

    private void waitUntil(Callable<Boolean> c) throws Exception {
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> fx(c));
    }

    @Test
    void savesTheFoldersThenRefreshesAGenerationShowingItsSteps(FxRobot robot) throws Exception {
        SharedLayersViewModel model = open(robot);
        assertThat(shown(robot, "#shared-layers-generation")).contains("nothing is shared");
        assertThat(disabled(robot, "#shared-layers-save"))
                .as("nothing changed yet")
                .isTrue();
        assertThat(disabled(robot, "#shared-layers-refresh"))
                .as("nothing shared yet")
                .isTrue();

        type(robot, "#shared-layers-folders", "./node_modules/");
        assertThat(disabled(robot, "#shared-layers-save")).isFalse();
        assertThat(disabled(robot, "#shared-layers-refresh")).as("unsaved").isTrue();
        assertThat(shown(robot, "#shared-layers-refresh-hint")).contains("Save your changes first");
        robot.clickOn("#shared-layers-save");
        waitUntil(() -> model.noticeProperty().get() != null);
        assertThat(stored().folders()).containsExactly("node_modules");
        assertThat(stored().setupCommand()).isNull();
        assertThat(fx(() -> model.foldersProperty().get())).as("as stored").isEqualTo("node_modules");
        assertThat(shown(robot, "#shared-layers-notice")).contains("Refresh the shared layer");
        assertThat(shown(robot, "#shared-layers-generation")).contains("None built yet");
        assertThat(robot.lookup("#shared-layers-dialog").tryQuery())
                .as("Save keeps it open")
                .isPresent();
        long repoId = host.wiring().repoService().open(repo.dir()).record().id();
        assertThat(host.wiring().events().recent(repoId, 50))
                .extracting(Event::kind)
                .contains("layers.configured");

        assertThat(disabled(robot, "#shared-layers-refresh")).isFalse();
        robot.clickOn("#shared-layers-refresh");
        waitUntil(() ->
                !model.refreshingProperty().get() && model.savedProperty().get().generation() > 0);
        assertThat(model.errorProperty().get()).isNull();
        assertThat(stored().generation()).isEqualTo(1);
        assertThat(shown(robot, "#shared-layers-steps"))
                .contains("Copying node_modules…")
                .contains("Generation 1 is the shared layer now (2 files)");
        assertThat(shown(robot, "#shared-layers-generation")).startsWith("Generation 1, built ");
        assertThat(shown(robot, "#shared-layers-notice")).contains("Generation 1 is current");
        assertThat(fx(() -> robot.lookup("#shared-layers-refreshing").query().isVisible()))
                .isFalse();
    }

    @Test
    void aFolderGitTracksIsRefusedWithTheServicesMessageAndNothingChanges(FxRobot robot) throws Exception {
        SharedLayersViewModel model = open(robot);
        type(robot, "#shared-layers-folders", "src");
        robot.press(KeyCode.CONTROL, KeyCode.S).release(KeyCode.S, KeyCode.CONTROL); // Ctrl+S saves
        waitUntil(() -> model.errorProperty().get() != null);
        assertThat(shown(robot, "#shared-layers-error"))
                .contains("git tracks files in src")
                .contains("Nothing was changed");
        assertThat(shown(robot, "#shared-layers-notice")).isNull();
        assertThat(stored().folders()).isEmpty();
        assertThat(fx(() -> model.unsavedProperty().get()))
                .as("the edit stays, to correct")
                .isTrue();
        assertThat(robot.lookup("#shared-layers-dialog").tryQuery()).isPresent();
    }

    @Test
    void aSlowRefreshRunsOffTheFxThreadWithASpinnerAndAFailedOneShowsWhy(FxRobot robot) throws Exception {
        host.wiring().layers().configure(repo.dir(), List.of("node_modules"), "sleep 2; exit 3");
        robot.clickOn("#header-shared-layers"); // the header button opens it too
        SharedLayersViewModel model = loaded(robot);
        assertThat(fx(() -> model.setupCommandProperty().get())).isEqualTo("sleep 2; exit 3");

        robot.clickOn("#shared-layers-refresh");
        waitUntil(() -> model.steps().stream().anyMatch(s -> s.startsWith("Running sleep 2")));
        long before = System.nanoTime();
        assertThat(fx(() -> model.refreshingProperty().get()))
                .as("still running")
                .isTrue();
        assertThat(System.nanoTime() - before)
                .as("the FX thread answers meanwhile")
                .isLessThan(1_000_000_000L);
        assertThat(fx(() -> robot.lookup("#shared-layers-refreshing").query().isVisible()))
                .isTrue();
        assertThat(disabled(robot, "#shared-layers-refresh")).isTrue();
        assertThat(fx(() -> robot.lookup("#shared-layers-folders").query().isDisabled()))
                .isTrue();

        waitUntil(() -> !model.refreshingProperty().get());
        assertThat(shown(robot, "#shared-layers-error")).contains("Cannot refresh the shared layer");
        assertThat(shown(robot, "#shared-layers-steps")).contains("Checking out");
        assertThat(stored().generation()).isZero();
        assertThat(disabled(robot, "#shared-layers-refresh"))
                .as("may be tried again")
                .isFalse();
    }

    @Test
    void closingWithUnsavedFoldersAsksFirst(FxRobot robot) throws Exception {
        open(robot);
        type(robot, "#shared-layers-folders", "node_modules, .venv");
        robot.clickOn("#shared-layers-close");
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> robot.lookup("#" + SharedLayersDialog.UNSAVED_ID)
                        .tryQuery()
                        .isPresent());
        robot.clickOn(SharedLayersDialog.DISCARD.getText());
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> robot.lookup("#shared-layers-dialog").tryQuery().isEmpty());
        assertThat(stored().folders()).isEmpty();
        assertThat(Files.isDirectory(repo.dir().resolve("node_modules"))).isTrue();
    }
}
