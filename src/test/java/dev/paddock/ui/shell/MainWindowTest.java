package dev.paddock.ui.shell;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.repo.RepoRecord;
import dev.paddock.settings.PaddockHome;
import dev.paddock.status.RepositoryStatus;
import dev.paddock.testing.TempRepo;
import dev.paddock.ui.theme.Theme;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javafx.scene.Scene;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** The main window on real repositories, in a real (headless) JavaFX scene. */
@ExtendWith(ApplicationExtension.class)
class MainWindowTest {
    @TempDir
    static Path temp;

    private ShellViewModel vm;
    private Stage stage;
    /** The repository as a user would name it, not resolved to a real path. */
    private Path repo;

    private TempRepo project;
    private PaddockHome home;

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @BeforeEach
    void makeRepository() throws Exception {
        Path dir = Files.createTempDirectory(temp, "case");
        repo = dir.resolve("project");
        project = TempRepo.init(repo); // branch main, one commit "Initial commit"
        project.addWorktree(dir.resolve("wt-login"), "feature/login");
        Path detached = project.addDetachedWorktree(dir.resolve("wt-detached"));
        project.lockWorktree(detached, "agent at work");
        home = PaddockHome.resolve(dir.resolve("home"), Map.of());
    }

    @AfterEach
    void closeWindow(FxRobot robot) {
        robot.interact(() -> {
            stage.titleProperty().unbind();
            stage.hide();
        });
        if (vm != null) {
            vm.close();
        }
    }

    private void show(Path repoArg) throws Exception {
        vm = new ShellViewModel(h -> dev.paddock.Host.start(h, "panel").panel());
        WaitForAsyncUtils.waitForFxEvents();
        WaitForAsyncUtils.asyncFx(() -> {
                    MainWindow window = new MainWindow(vm, Theme.LIGHT);
                    Scene scene = new Scene(window, 1280, 800);
                    Theme.LIGHT.apply(scene);
                    window.installShortcuts(scene);
                    window.bindTitle(stage);
                    stage.setScene(scene);
                    stage.show();
                })
                .get(10, TimeUnit.SECONDS);
        vm.start(home, repoArg).get(30, TimeUnit.SECONDS);
    }

    @SuppressWarnings("unchecked")
    private TableView<RepositoryStatus.Worktree> worktreeTable(FxRobot robot) throws TimeoutException {
        // The table lives in a tab: it joins the scene graph once the tab pane's skin exists.
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> robot.lookup("#worktree-table").tryQuery().isPresent());
        return robot.lookup("#worktree-table").queryAs(TableView.class);
    }

    @Test
    void opensOnTheRepositoryAndListsEveryWorktree(FxRobot robot) throws Exception {
        show(repo);
        TableView<RepositoryStatus.Worktree> table = worktreeTable(robot);
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, () -> table.getItems().size() == 3);

        List<RepositoryStatus.Worktree> rows = List.copyOf(table.getItems());
        assertThat(rows.get(0).main()).isTrue();
        assertThat(rows.get(0).branch()).isEqualTo("main");
        assertThat(rows).extracting(RepositoryStatus.Worktree::branch).contains("feature/login");
        RepositoryStatus.Worktree detached = rows.stream()
                .filter(RepositoryStatus.Worktree::detached)
                .findFirst()
                .orElseThrow();
        assertThat(detached.locked()).isTrue();
        assertThat(detached.lockedReason()).isEqualTo("agent at work");
        assertThat(rows).allSatisfy(w -> assertThat(w.subject()).isEqualTo("Initial commit"));

        Label repoLabel = robot.lookup("#status-repository").queryAs(Label.class);
        assertThat(repoLabel.getText()).contains(repo.toRealPath().toString()).contains("base main");
        assertThat(robot.lookup("#tile-active").tryQuery()).isPresent();
        assertThat(robot.lookup("Worktrees (3)").tryQuery()).isPresent();
        assertThat(stage.getTitle()).isEqualTo("project — Paddock");
    }

    @Test
    void aWorktreeAddedFromATerminalAppearsAndIsRecordedAsAnEvent(FxRobot robot) throws Exception {
        show(repo);
        TableView<RepositoryStatus.Worktree> table = worktreeTable(robot);
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, () -> table.getItems().size() == 3);

        Path added = repo.resolveSibling("wt-new");
        project.addWorktree(added, "agent/fix-42");

        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> table.getItems().size() == 4);
        assertThat(table.getItems())
                .extracting(RepositoryStatus.Worktree::branch)
                .contains("agent/fix-42");
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> vm.dashboard().events().stream()
                        .anyMatch(e ->
                                e.kind().equals("worktree.added") && e.message().contains("agent/fix-42")));

        project.removeWorktree(added, false);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> table.getItems().size() == 3);
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> vm.dashboard().events().stream().anyMatch(e -> e.kind().equals("worktree.removed")));
    }

    @Test
    void outsideARepositoryItShowsTheWelcomePageAndWhyThePathWasRefused(FxRobot robot) throws Exception {
        Path notARepo = Files.createDirectories(repo.resolveSibling("plain-folder"));
        show(notARepo);

        assertThat(robot.lookup("#welcome").tryQuery()).isPresent();
        Label error = robot.lookup("#open-error").queryAs(Label.class);
        assertThat(error.getText()).contains("not inside a git repository");
        assertThat(robot.lookup("#open-repository").tryQuery()).isPresent();

        vm.open(repo).get(30, TimeUnit.SECONDS);
        TableView<RepositoryStatus.Worktree> table = worktreeTable(robot);
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, () -> table.getItems().size() == 3);
        assertThat(vm.recents())
                .extracting(r -> r.path().toString())
                .contains(repo.toRealPath().toString());
    }

    @Test
    void switchesBetweenRegisteredRepositories(FxRobot robot) throws Exception {
        Path other = repo.resolveSibling("other");
        TempRepo otherRepo = TempRepo.initEmpty(other);
        otherRepo.commitFile("a.txt", "a\n", "Other project");
        otherRepo.git("branch", "-m", "main", "trunk");

        show(repo);
        TableView<RepositoryStatus.Worktree> table = worktreeTable(robot);
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, () -> table.getItems().size() == 3);

        vm.open(other).get(30, TimeUnit.SECONDS);
        WaitForAsyncUtils.waitFor(
                15,
                TimeUnit.SECONDS,
                () -> table.getItems().size() == 1
                        && "trunk".equals(table.getItems().get(0).branch()));
        assertThat(vm.recents()).hasSize(2);

        vm.select(vm.recents().stream()
                        .filter(r -> r.name().equals("project"))
                        .findFirst()
                        .orElseThrow())
                .get(30, TimeUnit.SECONDS);
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, () -> table.getItems().size() == 3);
    }

    @Test
    void untilTheStoreOpensTheWindowShowsOnlyTheHeaderAndTheStatusBarAndBuildsTheRestWhenItIsOpen(FxRobot robot)
            throws Exception {
        vm = new ShellViewModel(h -> dev.paddock.Host.start(h, "panel").panel());
        MainWindow[] window = new MainWindow[1];
        WaitForAsyncUtils.asyncFx(() -> {
                    window[0] = new MainWindow(vm, Theme.LIGHT);
                    Scene scene = new Scene(window[0], 1280, 800);
                    Theme.LIGHT.apply(scene);
                    stage.setScene(scene);
                    stage.show();
                })
                .get(10, TimeUnit.SECONDS);
        WaitForAsyncUtils.waitForFxEvents();
        // The first frame: header with a disabled stand-in for the switcher, "Opening Paddock's store…", status bar.
        assertThat(robot.lookup("#starting").tryQuery()).isPresent();
        assertThat(robot.lookup("#repository-switcher-placeholder")
                        .queryButton()
                        .isDisabled())
                .isTrue();
        assertThat(robot.lookup("#repository-switcher").tryQuery()).isEmpty();
        assertThat(robot.lookup("#status-bar").tryQuery()).isPresent();
        assertThat(robot.lookup("#tab-sandboxes").tryQuery()).isEmpty();

        WaitForAsyncUtils.sleep(
                300, TimeUnit.MILLISECONDS); // pulses go by: nothing more is built while the store opens
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(robot.lookup("#repository-switcher").tryQuery()).isEmpty();
        assertThat(robot.lookup("#tab-sandboxes").tryQuery()).isEmpty();

        vm.start(home, repo).get(30, TimeUnit.SECONDS);
        TableView<RepositoryStatus.Worktree> table = worktreeTable(robot);
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, () -> table.getItems().size() == 3);
        WaitForAsyncUtils.waitForFxEvents();
        @SuppressWarnings("unchecked")
        ComboBox<RepoRecord> switcher = robot.lookup("#repository-switcher").queryAs(ComboBox.class);
        assertThat(robot.lookup("#repository-switcher-placeholder").tryQuery()).isEmpty();
        assertThat(switcher.isDisabled()).isFalse();
        assertThat(switcher.getSelectionModel().getSelectedItem())
                .extracting(RepoRecord::name)
                .isEqualTo("project");
    }

    @Test
    void theThemeToggleSwitchesToDarkAndBack(FxRobot robot) throws Exception {
        show(repo);
        robot.clickOn("#theme-toggle");
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(stage.getScene().getRoot().getStyleClass()).contains("dark");
        robot.clickOn("#theme-toggle");
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(stage.getScene().getRoot().getStyleClass()).doesNotContain("dark");
    }

    @Test
    void aStoreHeldByAnotherPaddockGivesAClearMessageNamingItAndAFocusedQuitButton(FxRobot robot) throws Exception {
        // LC_ALL=C.UTF-8 (ChildJvm): the server does not relaunch itself, its pid is the child's.
        try (dev.paddock.testing.ChildJvm other = dev.paddock.testing.ChildJvm.start(
                home.dir().resolveSibling("other"),
                Map.of(),
                "dev.paddock.Paddock",
                List.of("--home", home.dir().toString(), "serve"))) {
            other.awaitStdout("Paddock serving on", java.time.Duration.ofSeconds(60));
            show(repo);
            assertThat(vm.phaseProperty().get()).isEqualTo(ShellViewModel.Phase.FAILED);
            Label message = robot.lookup("#startup-error").queryAs(Label.class);
            assertThat(message.getText())
                    .startsWith("Another Paddock (`paddock serve`, pid " + other.pid() + ")"
                            + " is running on this home (" + home + ")")
                    .contains("--home");
            // Nothing else to do but quit: the Quit button has the focus, and Enter as well as Escape press it.
            WaitForAsyncUtils.waitForFxEvents();
            assertThat(stage.getScene().getFocusOwner())
                    .isSameAs(robot.lookup("#startup-quit").queryButton());
            robot.type(javafx.scene.input.KeyCode.ENTER);
            WaitForAsyncUtils.waitForFxEvents();
            assertThat(stage.isShowing()).as("Enter quits").isFalse();
            assertThat(stage.getScene().getRoot().getStyleClass())
                    .as("Enter did not switch the theme")
                    .doesNotContain("dark");
            robot.interact(stage::show);
            WaitForAsyncUtils.waitForFxEvents();
            robot.type(javafx.scene.input.KeyCode.ESCAPE);
            WaitForAsyncUtils.waitForFxEvents();
            assertThat(stage.isShowing()).as("Escape quits").isFalse();
        }
    }
}
