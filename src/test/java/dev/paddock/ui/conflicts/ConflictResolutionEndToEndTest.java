package dev.paddock.ui.conflicts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.Host;
import dev.paddock.events.Event;
import dev.paddock.events.EventKinds;
import dev.paddock.merge.MergeEntry;
import dev.paddock.merge.MergeState;
import dev.paddock.settings.PaddockHome;
import dev.paddock.testing.TempRepo;
import dev.paddock.ui.shell.MainWindow;
import dev.paddock.ui.shell.ShellViewModel;
import dev.paddock.ui.theme.Theme;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.ListCell;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.fxmisc.richtext.CodeArea;
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
 * The whole conflict flow on the real merge queue: a real Paddock and panel, a real repository where base and an
 * agent branch changed the same lines of one file in two places. The entry lands in the dashboard's conflict
 * queue, opens in the three-way view, is resolved there (theirs for one hunk, typed by hand for the other), and the
 * queue finishes the merge: a two-parent merge commit on base with exactly that text.
 */
@ExtendWith(ApplicationExtension.class)
class ConflictResolutionEndToEndTest {
    private static final String FILE = "conf/settings.txt";
    private static final String BRANCH = "agent/tune";

    private static final String BASE = String.join(
                    "\n",
                    "# settings",
                    "color = red",
                    "l3",
                    "l4",
                    "l5",
                    "l6",
                    "l7",
                    "l8",
                    "size = 10",
                    "l10",
                    "l11",
                    "l12",
                    "l13",
                    "l14",
                    "l15",
                    "l16",
                    "l17",
                    "l18",
                    "# end")
            + "\n";
    /** Base (main) moves on: both conflicting lines, and a clean edit of its own. */
    private static final String OURS = BASE.replace("color = red", "color = blue")
            .replace("size = 10", "size = 20")
            .replace("l13\n", "l13 on main\n");
    /** The agent: the same two lines differently, and a clean edit of its own at the end. */
    private static final String THEIRS = BASE.replace("color = red", "color = green")
            .replace("size = 10", "size = 30")
            .replace("# end\n", "# end (agent)\n");
    /** Theirs for hunk 1, typed by hand for hunk 2, both sides' clean edits. */
    private static final String EXPECTED = BASE.replace("color = red", "color = green")
            .replace("size = 10", "size = 25 # agreed")
            .replace("l13\n", "l13 on main\n")
            .replace("# end\n", "# end (agent)\n");

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
        repo = TempRepo.init(temp.resolve("project")).excludeWorktreesDir();
        repo.commitFile(FILE, BASE, "Add settings");
        repo.git("branch", BRANCH, "main");
        repo.commitFile(FILE, OURS, "Tune settings on main");
        Path agent = repo.addWorktreeOnBranch(repo.dir().resolve(".worktrees").resolve("agent-tune"), BRANCH);
        TempRepo.write(agent, FILE, THEIRS);
        TempRepo.commitAll(agent, "Tune settings on the agent branch");

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
        WaitForAsyncUtils.asyncFx(() -> List.copyOf(Window.getWindows()).forEach(Window::hide))
                .get(10, TimeUnit.SECONDS);
        vm.close();
    }

    @Test
    void aConflictResolvedInTheThreeWayViewIsMergedIntoBase(FxRobot robot) throws Exception {
        String oursTip = repo.git("rev-parse", "main").strip();
        String theirsTip = repo.git("rev-parse", BRANCH).strip();
        long id = host.wiring()
                .merges()
                .enqueueBranch(repo.dir(), BRANCH, "tester")
                .id();
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> entry(id).state() == MergeState.CONFLICT);
        assertThat(entry(id).attempt().worktree()).isNotNull();

        // The dashboard's conflict queue shows it; Enter opens its three-way view.
        WaitForAsyncUtils.waitFor(
                30,
                TimeUnit.SECONDS,
                () -> fx(() -> robot.lookup("#" + ConflictQueueView.LIST_ID + " .pd-conflict-cell")
                        .match(n -> n.isVisible() && ((ListCell<?>) n).getItem() != null)
                        .tryQuery()
                        .isPresent()));
        Node cell = robot.lookup("#" + ConflictQueueView.LIST_ID + " .pd-conflict-cell")
                .match(n -> n.isVisible() && ((ListCell<?>) n).getItem() != null)
                .query();
        assertThat(fx(() -> ((ConflictQueueRow) ((ListCell<?>) cell).getItem()).mergeRequestId()))
                .isEqualTo(id);
        assertThat(fx(() -> ((ConflictQueueRow) ((ListCell<?>) cell).getItem()).branch()))
                .isEqualTo(BRANCH);
        robot.clickOn(cell);
        robot.type(KeyCode.ENTER);
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> fx(() -> threeWay() != null));
        ThreeWayView view = fx(this::threeWay);
        ThreeWayViewModel model = view.viewModel();
        WaitForAsyncUtils.waitFor(
                30, TimeUnit.SECONDS, () -> fx(() -> model.fileProperty().get() != null));
        fx(() -> {
            view.getScene().getWindow().requestFocus();
            return null;
        });
        assertThat(fx(() -> model.fileProperty().get().path())).isEqualTo(FILE);
        assertThat(hunkLabel(robot)).isEqualTo("Conflict 1 of 2 · 2 unresolved");

        // Hunk 1: theirs. Hunk 2: typed by hand in the result.
        robot.clickOn("#threeway-take-theirs");
        robot.type(KeyCode.F7);
        assertThat(hunkLabel(robot)).isEqualTo("Conflict 2 of 2 · 1 unresolved");
        CodeArea result = robot.lookup("#" + ThreeWayView.RESULT_ID).queryAs(CodeArea.class);
        int line = fx(() -> model.resultSpan(1)[0]);
        robot.clickOn(result);
        WaitForAsyncUtils.asyncFx(() -> result.selectRange(
                        line, 0, line, result.getParagraph(line).length()))
                .get(10, TimeUnit.SECONDS);
        robot.write("size = 25 # agreed");
        assertThat(hunkLabel(robot)).isEqualTo("Conflict 2 of 2 · 0 unresolved");
        assertThat(fx(() -> result.getText())).isEqualTo(EXPECTED);
        robot.clickOn("#" + ThreeWayView.MARK_ID);

        // The queue finishes the merge.
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> entry(id).state() == MergeState.MERGED);
        MergeEntry merged = entry(id);
        String main = repo.git("rev-parse", "main").strip();
        assertThat(main).isEqualTo(merged.attempt().mergeCommit());
        assertThat(List.of(
                        repo.git("rev-list", "--parents", "-n1", "main").strip().split(" ")))
                .containsExactly(main, oursTip, theirsTip);
        assertThat(repo.git("show", "main:" + FILE)).isEqualTo(EXPECTED);
        assertThat(repo.git("symbolic-ref", "--short", "HEAD").strip()).isEqualTo("main");
        assertThat(Files.readString(repo.dir().resolve(FILE), StandardCharsets.UTF_8))
                .isEqualTo(EXPECTED);
        assertThat(repo.git("status", "--porcelain")).isEmpty();
        long repoId = fx(() -> vm.currentProperty().get().id());
        List<Event> events = host.wiring().events().recent(repoId, 500);
        assertThat(events)
                .anyMatch(e -> e.kind().equals(EventKinds.MERGE_RESOLVED)
                        && e.message().contains(" resolved " + FILE));
        // It leaves the conflict queue, and the view shows it finished.
        WaitForAsyncUtils.waitFor(
                30,
                TimeUnit.SECONDS,
                () -> fx(() -> vm.dashboard().conflicts().rows().isEmpty()));
        WaitForAsyncUtils.waitFor(
                30, TimeUnit.SECONDS, () -> fx(() -> model.finishedProperty().get()));
        // The window follows the entry: merged, it says so and offers only Close.
        WaitForAsyncUtils.waitFor(
                30,
                TimeUnit.SECONDS,
                () -> fx(() -> model.progressProperty().get().stage() == ConflictBackend.Stage.MERGED));
        assertThat(fx(() -> model.statusProperty().get()))
                .isEqualTo("Merged as " + merged.attempt().mergeCommit().substring(0, 12)
                        + ": nothing is left to resolve here.");
        assertThat(fx(() -> view.lookup("#" + ThreeWayHeader.CLOSE_ID).isVisible()))
                .isTrue();
        assertThat(fx(() -> view.lookup("#" + ThreeWayView.MARK_ID).isVisible()))
                .isFalse();
        fx(() -> {
            ((javafx.scene.control.Button) view.lookup("#" + ThreeWayHeader.CLOSE_ID)).fire();
            return null;
        });
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> fx(() -> threeWay() == null));
    }

    private MergeEntry entry(long id) throws Exception {
        return host.wiring().merges().get(id);
    }

    private ThreeWayView threeWay() {
        return Window.getWindows().stream()
                .filter(w -> w.getScene() != null && w.getScene().getRoot() instanceof ThreeWayView)
                .map(w -> (ThreeWayView) w.getScene().getRoot())
                .findFirst()
                .orElse(null);
    }

    private static String hunkLabel(FxRobot robot) throws Exception {
        WaitForAsyncUtils.waitForFxEvents();
        return fx(() -> robot.lookup("#" + ThreeWayView.HUNK_LABEL_ID)
                .queryAs(javafx.scene.control.Label.class)
                .getText());
    }

    private static <T> T fx(Callable<T> c) throws Exception {
        return WaitForAsyncUtils.asyncFx(c).get(30, TimeUnit.SECONDS);
    }
}
