package dev.paddock.ui.mergesettings;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.Host;
import dev.paddock.events.Event;
import dev.paddock.events.EventKinds;
import dev.paddock.merge.AutoResolveMode;
import dev.paddock.merge.MergeSettings;
import dev.paddock.merge.MergeStrategy;
import dev.paddock.settings.PaddockHome;
import dev.paddock.testing.TempRepo;
import dev.paddock.ui.shell.MainWindow;
import dev.paddock.ui.shell.ShellViewModel;
import dev.paddock.ui.theme.Theme;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.RadioButton;
import javafx.scene.control.TextField;
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
 * The Merge settings dialog in the real panel (a real Paddock with its H2 store, a real git repository), opened
 * from the main window with Ctrl+Shift+M or the header button.
 */
@ExtendWith(ApplicationExtension.class)
class MergeSettingsDialogTest {
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
        repo.commitFile("src/App.java", "class App {}\n", "Add App");
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
                        // Edits a test left unsaved would ask "discard?" and wait for an answer: tear down without it.
                        Node pane = w.getScene() == null
                                ? null
                                : w.getScene().getRoot().lookup("#merge-settings-dialog");
                        if (pane != null && pane.getUserData() instanceof MergeSettingsDialog d) {
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

    private MergeSettings stored() throws Exception {
        return host.wiring().merges().settings(repo.dir());
    }

    /** Opens the dialog with Ctrl+Shift+M and waits until the settings are loaded. */
    private MergeSettingsViewModel open(FxRobot robot) throws Exception {
        robot.press(KeyCode.CONTROL, KeyCode.SHIFT, KeyCode.M).release(KeyCode.M, KeyCode.SHIFT, KeyCode.CONTROL);
        return loaded(robot);
    }

    private MergeSettingsViewModel loaded(FxRobot robot) throws Exception {
        WaitForAsyncUtils.waitFor(
                20,
                TimeUnit.SECONDS,
                () -> robot.lookup("#merge-settings-dialog").tryQuery().isPresent());
        MergeSettingsViewModel model = fx(() -> ((MergeSettingsDialog)
                        robot.lookup("#merge-settings-dialog").query().getUserData())
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
        TextField field = robot.lookup(id).queryAs(TextField.class);
        robot.interact(field::clear);
        robot.clickOn(field);
        robot.write(text);
        WaitForAsyncUtils.waitForFxEvents();
    }

    private static String text(FxRobot robot, String id) throws Exception {
        return fx(() -> robot.lookup(id).queryAs(TextField.class).getText());
    }

    private static boolean saveDisabled(FxRobot robot) throws Exception {
        return fx(
                () -> robot.lookup("#merge-settings-save").queryAs(Button.class).isDisabled());
    }

    private static Label visibleLabel(FxRobot robot, String id) throws Exception {
        return fx(() -> {
            Label l = robot.lookup(id).queryAs(Label.class);
            return l.isVisible() ? l : null;
        });
    }

    @Test
    void showsTheStoredSettingsAndSavesEveryChangeWithItsEvent(FxRobot robot) throws Exception {
        MergeSettings before = stored();
        MergeSettingsViewModel model = open(robot);
        assertThat(fx(() -> robot.lookup("#merge-settings-dialog")
                        .query()
                        .getScene()
                        .getWindow()))
                .isInstanceOfSatisfying(
                        Stage.class, s -> assertThat(s.getTitle()).contains("project"));
        assertThat(fx(() -> robot.lookup(
                                "#merge-settings-strategy-" + before.strategy().id())
                        .queryAs(RadioButton.class)
                        .isSelected()))
                .isTrue();
        assertThat(fx(() -> robot.lookup(
                                "#merge-settings-auto-" + before.autoResolve().id())
                        .queryAs(RadioButton.class)
                        .isSelected()))
                .isTrue();
        assertThat(text(robot, "#merge-settings-test-command")).isEqualTo(before.hasTest() ? before.testCommand() : "");
        assertThat(Duration.ofMillis(Math.round(Double.parseDouble(text(robot, "#merge-settings-timeout")) * 1000)))
                .isEqualTo(before.testTimeout());
        assertThat(text(robot, "#merge-settings-attempts")).isEqualTo(String.valueOf(before.maxAttempts()));
        assertThat(saveDisabled(robot)).as("nothing changed yet").isTrue();

        robot.clickOn("#merge-settings-strategy-rebase");
        type(robot, "#merge-settings-test-command", "sh ./check.sh --fast");
        type(robot, "#merge-settings-timeout", "30");
        type(robot, "#merge-settings-attempts", "2");
        robot.clickOn("#merge-settings-auto-apply");
        assertThat(fx(() -> model.unsavedProperty().get())).isTrue();
        assertThat(saveDisabled(robot)).isFalse();

        robot.clickOn("#merge-settings-save");
        WaitForAsyncUtils.waitFor(
                20,
                TimeUnit.SECONDS,
                () -> robot.lookup("#merge-settings-dialog").tryQuery().isEmpty());
        assertThat(robot.lookup("#" + MergeSettingsDialog.UNSAVED_ID).tryQuery())
                .isEmpty();
        assertThat(stored())
                .isEqualTo(new MergeSettings(
                        MergeStrategy.REBASE,
                        "sh ./check.sh --fast",
                        Duration.ofSeconds(30),
                        2,
                        AutoResolveMode.APPLY));

        long repoId = host.wiring().repoService().open(repo.dir()).record().id();
        List<Event> changes = host.wiring().events().recent(repoId, 100).stream()
                .filter(e -> EventKinds.SETTING_CHANGED.equals(e.kind()))
                .toList();
        assertThat(changes)
                .extracting(Event::details)
                .anySatisfy(d -> assertThat(d).contains("merge.strategy").contains("rebase"));
        assertThat(changes)
                .extracting(Event::details)
                .anySatisfy(d -> assertThat(d).contains("merge.test-command").contains("check.sh"));
        assertThat(changes)
                .extracting(Event::details)
                .anySatisfy(d -> assertThat(d).contains("merge.auto-resolve").contains("apply"));
    }

    @Test
    void aTimeoutUnderOneSecondDisablesSaveWithAMessageUnderTheField(FxRobot robot) throws Exception {
        open(robot);
        assertThat(visibleLabel(robot, "#merge-settings-timeout-message")).isNull();
        type(robot, "#merge-settings-timeout", "0");
        Label message = visibleLabel(robot, "#merge-settings-timeout-message");
        assertThat(message).isNotNull();
        assertThat(fx(message::getText)).contains("at least 1 second");
        assertThat(saveDisabled(robot)).isTrue();

        type(robot, "#merge-settings-timeout", "1.5");
        assertThat(visibleLabel(robot, "#merge-settings-timeout-message")).isNull();
        assertThat(saveDisabled(robot)).isFalse();
        robot.press(KeyCode.CONTROL, KeyCode.S).release(KeyCode.S, KeyCode.CONTROL); // Ctrl+S saves too
        WaitForAsyncUtils.waitFor(
                20,
                TimeUnit.SECONDS,
                () -> robot.lookup("#merge-settings-dialog").tryQuery().isEmpty());
        assertThat(stored().testTimeout()).isEqualTo(Duration.ofMillis(1500));
    }

    @Test
    void lettersInMaxAttemptsShowAMessageAndNothingIsSaved(FxRobot robot) throws Exception {
        MergeSettings before = stored();
        open(robot);
        type(robot, "#merge-settings-attempts", "abc");
        Label message = visibleLabel(robot, "#merge-settings-attempts-message");
        assertThat(message).isNotNull();
        assertThat(fx(message::getText)).contains("\"abc\"").contains("whole number");
        assertThat(saveDisabled(robot)).isTrue();
        type(robot, "#merge-settings-attempts", "0");
        assertThat(fx(() -> robot.lookup("#merge-settings-attempts-message")
                        .queryAs(Label.class)
                        .getText()))
                .contains("At least 1 attempt");
        assertThat(saveDisabled(robot)).isTrue();
        assertThat(stored()).isEqualTo(before);
    }

    @Test
    void cancelWithUnsavedEditsAsksFirstAndKeepsThemUntilDiscarded(FxRobot robot) throws Exception {
        MergeSettings before = stored();
        open(robot);
        type(robot, "#merge-settings-attempts", "7");

        robot.clickOn("#merge-settings-cancel");
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> robot.lookup("#" + MergeSettingsDialog.UNSAVED_ID)
                        .tryQuery()
                        .isPresent());
        robot.clickOn(MergeSettingsDialog.KEEP_EDITING.getText());
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(robot.lookup("#merge-settings-dialog").tryQuery()).isPresent();
        assertThat(text(robot, "#merge-settings-attempts")).isEqualTo("7");

        robot.clickOn("#merge-settings-cancel");
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> robot.lookup("#" + MergeSettingsDialog.UNSAVED_ID)
                        .tryQuery()
                        .isPresent());
        robot.clickOn(MergeSettingsDialog.DISCARD.getText());
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> robot.lookup("#merge-settings-dialog").tryQuery().isEmpty());
        assertThat(stored()).isEqualTo(before);
    }

    @Test
    void enterOnTheUnsavedQuestionKeepsEditing(FxRobot robot) throws Exception {
        MergeSettings before = stored();
        open(robot);
        type(robot, "#merge-settings-attempts", "7");

        robot.clickOn("#merge-settings-cancel");
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> robot.lookup("#" + MergeSettingsDialog.UNSAVED_ID)
                        .tryQuery()
                        .isPresent());
        javafx.scene.control.DialogPane question =
                robot.lookup("#" + MergeSettingsDialog.UNSAVED_ID).queryAs(javafx.scene.control.DialogPane.class);
        javafx.scene.control.Button keep =
                fx(() -> (javafx.scene.control.Button) question.lookupButton(MergeSettingsDialog.KEEP_EDITING));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> fx(keep::isFocused));
        assertThat(fx(keep::isDefaultButton)).isTrue();
        robot.type(javafx.scene.input.KeyCode.ENTER);
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> robot.lookup("#" + MergeSettingsDialog.UNSAVED_ID)
                        .tryQuery()
                        .isEmpty());
        assertThat(robot.lookup("#merge-settings-dialog").tryQuery()).isPresent();
        assertThat(text(robot, "#merge-settings-attempts")).isEqualTo("7");
        assertThat(stored()).isEqualTo(before);
    }

    @Test
    void theHeaderButtonOpensItAndCancelWithoutEditsAsksNothing(FxRobot robot) throws Exception {
        robot.clickOn("#header-merge-settings");
        loaded(robot);
        robot.clickOn("#merge-settings-cancel");
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> robot.lookup("#merge-settings-dialog").tryQuery().isEmpty());
        assertThat(robot.lookup("#" + MergeSettingsDialog.UNSAVED_ID).tryQuery())
                .isEmpty();
    }

    @Test
    void aFailedSaveIsShownInTheDialogWhichKeepsTheEdits(FxRobot robot) throws Exception {
        open(robot);
        robot.clickOn("#merge-settings-strategy-rebase");
        type(robot, "#merge-settings-attempts", "4");
        // The repository goes away under the dialog: the service cannot open it.
        Path moved = temp.resolve("moved");
        Files.move(repo.dir(), moved);
        robot.clickOn("#merge-settings-save");
        WaitForAsyncUtils.waitFor(
                20,
                TimeUnit.SECONDS,
                () -> fx(() -> robot.lookup("#merge-settings-error").query().isVisible()));
        String shown = fx(() -> robot.lookup("#merge-settings-error .label")
                .queryAs(Label.class)
                .getText());
        assertThat(shown).startsWith("Cannot save the merge settings of").contains("project");
        assertThat(robot.lookup("#merge-settings-dialog").tryQuery()).isPresent();
        assertThat(text(robot, "#merge-settings-attempts")).isEqualTo("4");
        assertThat(fx(() -> robot.lookup("#merge-settings-strategy-rebase")
                        .queryAs(RadioButton.class)
                        .isSelected()))
                .isTrue();

        Files.move(moved, repo.dir()); // back: Save now stores both edits
        robot.clickOn("#merge-settings-save");
        WaitForAsyncUtils.waitFor(
                20,
                TimeUnit.SECONDS,
                () -> robot.lookup("#merge-settings-dialog").tryQuery().isEmpty());
        assertThat(stored().maxAttempts()).isEqualTo(4);
        assertThat(stored().strategy()).isEqualTo(MergeStrategy.REBASE);
    }
}
