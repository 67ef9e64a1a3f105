package dev.paddock.ui.sandboxes;

import dev.paddock.Host;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.settings.PaddockHome;
import dev.paddock.status.RepositoryStatus;
import dev.paddock.testing.TempRepo;
import dev.paddock.ui.shell.MainWindow;
import dev.paddock.ui.shell.ShellViewModel;
import dev.paddock.ui.theme.Theme;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.ComboBox;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The whole panel on a real repository, for TestFX tests: a temp repository (TempRepo), a real Host
 * (store, supervisor, API) with its own home, and the main window in the test's stage.
 */
final class Panel implements AutoCloseable {
    final TempRepo repo;
    final Host host;
    final ShellViewModel vm = new ShellViewModel();
    private final Stage stage;

    private Panel(TempRepo repo, Host host, Stage stage) {
        this.repo = repo;
        this.host = host;
        this.stage = stage;
    }

    /** A repository with two commits and a second branch, and a running Paddock (nothing shown yet). */
    static Panel start(Path dir, Stage stage) throws Exception {
        return start(dir, stage, System.getenv());
    }

    /** {@link #start(Path, Stage)} with {@code environment} as the Paddock's own (what agents take theirs from). */
    static Panel start(Path dir, Stage stage, Map<String, String> environment) throws Exception {
        TempRepo repo = TempRepo.init(dir.resolve("project"));
        repo.commitFile("src/App.java", "class App {}\n", "Add App");
        repo.branch("feature/payments");
        PaddockHome home = PaddockHome.resolve(dir.resolve("home"), Map.of());
        return new Panel(repo, Host.start(home, "panel", environment), stage);
    }

    /** Creates a sandbox through the service (as the CLI would). */
    SandboxRecord create(String task, String command) throws Exception {
        return host.wiring().sandboxService().create(NewSandbox.of(repo.dir(), task, command));
    }

    /** Shows the main window on the repository and waits until the dashboard shows it. */
    Panel show() throws Exception {
        return show(1280, 800);
    }

    /** {@link #show()} in a window of {@code width} × {@code height}. */
    Panel show(double width, double height) throws Exception {
        WaitForAsyncUtils.asyncFx(() -> {
                    MainWindow window = new MainWindow(vm, Theme.LIGHT);
                    Scene scene = new Scene(window, width, height);
                    Theme.LIGHT.apply(scene);
                    window.installShortcuts(scene);
                    stage.setScene(scene);
                    // The stage is shared with the tests run before: its size is set, not left from theirs.
                    stage.setWidth(width);
                    stage.setHeight(height);
                    stage.show();
                    stage.toFront();
                })
                .get(30, TimeUnit.SECONDS);
        vm.start(CompletableFuture.completedFuture(host.panel()), repo.dir()).get(30, TimeUnit.SECONDS);
        WaitForAsyncUtils.waitFor(
                15,
                TimeUnit.SECONDS,
                () -> fx(() -> vm.dashboard().latestProperty().get() != null));
        return this;
    }

    /** Runs on the FX thread and returns the result. */
    static <T> T fx(Callable<T> c) throws Exception {
        return WaitForAsyncUtils.asyncFx(c).get(10, TimeUnit.SECONDS);
    }

    /** The dashboard row of a sandbox, if it is listed. */
    Optional<RepositoryStatus.Sandbox> row(String id) throws Exception {
        return fx(() -> vm.dashboard().sandboxes().stream()
                .filter(s -> s.id().equals(id))
                .findFirst());
    }

    /** Waits until the row of {@code id} is in {@code state}. */
    void waitForState(String id, String state, int seconds) throws Exception {
        try {
            WaitForAsyncUtils.waitFor(
                    seconds,
                    TimeUnit.SECONDS,
                    () -> row(id).map(r -> r.state().equals(state)).orElse(false));
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError(
                    id + " did not reach " + state + " within " + seconds + " s; it is "
                            + row(id).map(RepositoryStatus.Sandbox::state).orElse("not listed"),
                    e);
        }
    }

    /**
     * Opens the New Sandbox dialog with Ctrl+N and waits for its choices (branches, defaults, tiers), which load
     * in the background; returns the dialog's view model.
     */
    static NewSandboxViewModel openNewSandboxDialog(FxRobot robot) throws Exception {
        robot.press(KeyCode.CONTROL, KeyCode.N).release(KeyCode.N, KeyCode.CONTROL);
        Node pane = node(robot, "#new-sandbox-dialog", Node.class);
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(() -> robot.lookup("#new-sandbox-base")
                        .queryAs(ComboBox.class)
                        .getItems()
                        .contains("feature/payments")));
        return fx(() -> ((NewSandboxDialog) pane.getUserData()).viewModel());
    }

    /** Waits for a node to exist and returns it. */
    static <T extends Node> T node(FxRobot robot, String query, Class<T> type) throws Exception {
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(() -> robot.lookup(query).tryQuery().isPresent()));
        return fx(() -> robot.lookup(query).queryAs(type));
    }

    /** The table row (node) showing the sandbox {@code id}. */
    @SuppressWarnings("unchecked")
    static TableRow<RepositoryStatus.Sandbox> tableRow(FxRobot robot, String id) throws Exception {
        Predicate<Node> showsIt = n -> n instanceof TableRow<?> r
                && r.getItem() instanceof RepositoryStatus.Sandbox s
                && s.id().equals(id)
                && n.isVisible();
        // Looked up on the FX thread: a walk of the table while its rows are replaced can fail.
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(() -> robot.lookup("#sandbox-table").tryQuery().isPresent()
                        && robot.from(robot.lookup("#sandbox-table").queryAs(TableView.class))
                                .lookup(showsIt)
                                .tryQuery()
                                .isPresent()));
        return fx(() -> (TableRow<RepositoryStatus.Sandbox>)
                robot.from(robot.lookup("#sandbox-table").queryAs(TableView.class))
                        .lookup(showsIt)
                        .query());
    }

    /** Clicks the row of {@code id} until it is the one sandbox selected (a click can land while rows are replaced). */
    void select(FxRobot robot, String id) throws Exception {
        for (int attempt = 0; attempt < 5; attempt++) {
            robot.clickOn(tableRow(robot, id));
            try {
                WaitForAsyncUtils.waitFor(
                        2,
                        TimeUnit.SECONDS,
                        () -> fx(() ->
                                vm.dashboard().sandboxPanel().selectedIds().equals(List.of(id))));
                return;
            } catch (java.util.concurrent.TimeoutException missed) {
                // clicked while the rows were replaced: again
            }
        }
        throw new AssertionError("the row of " + id + " could not be selected");
    }

    /** Windows other than the main one that show (dialogs, menus). */
    List<Window> otherWindows() throws Exception {
        return fx(() -> Window.getWindows().stream()
                .filter(w -> w != stage && w.isShowing())
                .toList());
    }

    /** A file in the sandbox's worktree. */
    static Path inWorktree(SandboxRecord s, String relative) {
        return s.workspace().worktree().resolve(relative);
    }

    static boolean exists(Path p) {
        return Files.exists(p);
    }

    /** Hides the window and stops Paddock (agents still running are stopped first). */
    @Override
    public void close() throws Exception {
        // The host is stopped whatever fails before: a panel left running logs into later tests' output.
        try {
            WaitForAsyncUtils.asyncFx(() -> {
                        for (Window w : List.copyOf(Window.getWindows())) {
                            if (w != stage && w.isShowing()) {
                                w.hide();
                            }
                        }
                        stage.hide();
                    })
                    .get(10, TimeUnit.SECONDS);
            for (var s : host.wiring().sandboxes().listLive()) {
                if (s.state().mayHaveProcess()) {
                    try {
                        host.wiring().sandboxService().stop(s.id(), "test");
                    } catch (Exception ignored) {
                        // it ended meanwhile
                    }
                }
            }
        } finally {
            vm.close();
            host.close(); // also when the panel was never shown (then vm.close() does not reach it)
        }
    }
}
