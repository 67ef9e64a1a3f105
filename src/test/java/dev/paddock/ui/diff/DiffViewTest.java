package dev.paddock.ui.diff;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.diff.ChangeKind;
import dev.paddock.diff.DiffRig;
import dev.paddock.diff.FileChange;
import dev.paddock.panel.ServiceDiffBackend;
import dev.paddock.review.ReviewComment;
import dev.paddock.ui.theme.Theme;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javafx.scene.Scene;
import javafx.scene.control.TreeView;
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
 * The diff view on a real sandbox's change (a real repository, Paddock's real diff and review services over a real
 * H2 file): its files as a tree, unified and side by side, the next file by key, and a comment on a line that is
 * stored, shown under its line, and still there for a view opened afterwards.
 */
@ExtendWith(ApplicationExtension.class)
class DiffViewTest {
    private static final String APP = "class App {\n    int a = 1;\n    int b = 2;\n    void run() {}\n}\n";

    @TempDir
    Path tmp;

    private Stage stage;
    private DiffRig rig;
    private DiffViewModel vm;
    private DiffView view;

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @BeforeEach
    void open() throws Exception {
        rig = DiffRig.open(tmp, "view-001", repo -> {
            repo.write("src/App.java", APP);
            repo.write("README.md", "# Demo\n");
            repo.write("lib/util.txt", "util\n".repeat(20));
        });
        rig.write("src/App.java", APP.replace("int b = 2;", "int b = 3;\n    int c = 4;"));
        rig.write("src/New.java", "class New {}\n");
        rig.git("rm", "-q", "README.md");
        rig.git("mv", "lib", "lib2");
        rig.commit("Change things");
        rig.write("notes.txt", "an untracked file\n");
        vm = new DiffViewModel(backend());
        WaitForAsyncUtils.asyncFx(() -> {
                    view = new DiffView(vm);
                    Scene scene = new Scene(view, 1366, 768);
                    Theme.LIGHT.apply(scene);
                    stage.setScene(scene);
                    stage.show();
                    stage.toFront();
                    vm.open("view-001");
                })
                .get(10, TimeUnit.SECONDS);
        WaitForAsyncUtils.waitFor(
                20, TimeUnit.SECONDS, () -> fx(() -> vm.shownProperty().get() != null));
    }

    private ServiceDiffBackend backend() {
        return new ServiceDiffBackend(rig.wiring.diffs(), rig.wiring.reviews(), "tester");
    }

    @AfterEach
    void close() throws Exception {
        WaitForAsyncUtils.asyncFx(() -> List.copyOf(Window.getWindows()).forEach(Window::hide))
                .get(10, TimeUnit.SECONDS);
        vm.close();
        rig.close();
    }

    private static <T> T fx(Callable<T> c) throws Exception {
        return WaitForAsyncUtils.asyncFx(c).get(10, TimeUnit.SECONDS);
    }

    @Test
    void theFilesAreATreeAndAltDownShowsTheNextFile(FxRobot robot) throws Exception {
        List<FileChange> files = fx(() -> List.copyOf(vm.files()));
        assertThat(files)
                .extracting(FileChange::path)
                .contains("src/App.java", "src/New.java", "README.md", "lib2/util.txt", "notes.txt");
        assertThat(files)
                .filteredOn(f -> f.path().equals("lib2/util.txt"))
                .singleElement()
                .satisfies(f -> assertThat(f.kind()).isEqualTo(ChangeKind.RENAMED));
        TreeView<?> tree = robot.lookup("#diff-files").queryAs(TreeView.class);
        assertThat(fx(() -> tree.getRoot().getChildren().size()))
                .as("folders and top files")
                .isGreaterThan(1);
        assertThat(robot.lookup("#diff-summary").queryLabeled().getText()).contains("5 files");

        FileChange first = fx(() -> vm.selectedProperty().get());
        robot.clickOn("#" + DiffView.UNIFIED_ID);
        robot.press(KeyCode.ALT, KeyCode.DOWN).release(KeyCode.DOWN, KeyCode.ALT);
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(() -> {
                    DiffViewModel.Shown s = vm.shownProperty().get();
                    return s != null && !s.file().equals(first);
                }));
        assertThat(fx(() -> vm.selectedProperty().get())).isEqualTo(files.get(files.indexOf(first) + 1));
        assertThat(robot.lookup("#diff-caption").queryLabeled().getText())
                .contains(fx(() -> vm.selectedProperty().get().path()));
    }

    @Test
    void unifiedAndSideBySideShowTheSameLines(FxRobot robot) throws Exception {
        select("src/App.java");
        DiffDocument unified = fx(() -> vm.shownProperty().get().unified());
        assertThat(unified.rows())
                .extracting(DiffDocument.Row::text)
                .contains("    int b = 2;", "    int b = 3;", "    int c = 4;");
        assertThat(fx(() -> view.unifiedArea().area().getText())).contains("int c = 4;");

        robot.clickOn("#diff-mode-split");
        WaitForAsyncUtils.waitFor(
                10, TimeUnit.SECONDS, () -> fx(() -> vm.shownProperty().get().left() != null));
        DiffDocument left = fx(() -> vm.shownProperty().get().left());
        DiffDocument right = fx(() -> vm.shownProperty().get().right());
        assertThat(left.rows()).hasSameSizeAs(right.rows());
        assertThat(left.rows())
                .extracting(DiffDocument.Row::text)
                .contains("    int b = 2;")
                .doesNotContain("    int c = 4;");
        assertThat(right.rows()).extracting(DiffDocument.Row::text).contains("    int b = 3;", "    int c = 4;");
        assertThat(robot.lookup("#" + DiffView.LEFT_ID).tryQuery()).isPresent();

        robot.clickOn("#diff-mode-unified");
        WaitForAsyncUtils.waitFor(
                10, TimeUnit.SECONDS, () -> fx(() -> vm.shownProperty().get().unified() != null));
    }

    @Test
    void aCommentOnALineIsStoredShownUnderItAndKept(FxRobot robot) throws Exception {
        select("src/App.java");
        int p = fx(() -> vm.shownProperty()
                .get()
                .unified()
                .rows()
                .indexOf(new DiffDocument.Row(DiffDocument.Kind.ADDED, 0, 4, "    int c = 4;")));
        assertThat(p).isPositive();
        fx(() -> {
            view.unifiedArea().area().moveTo(p, 0);
            view.unifiedArea().area().requestFocus();
            return null;
        });
        robot.type(KeyCode.C);
        WaitForAsyncUtils.waitFor(
                5,
                TimeUnit.SECONDS,
                () -> robot.lookup("#" + CommentDialog.TEXT_ID).tryQuery().isPresent());
        robot.clickOn("#" + CommentDialog.TEXT_ID).write("Name it count.");
        robot.press(KeyCode.CONTROL, KeyCode.ENTER).release(KeyCode.ENTER, KeyCode.CONTROL);

        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> !rig.wiring.reviews().comments("view-001").isEmpty());
        ReviewComment c = rig.wiring.reviews().comments("view-001").get(0);
        assertThat(c.path()).isEqualTo("src/App.java");
        assertThat(c.line()).isEqualTo(4);
        assertThat(c.side()).isEqualTo(ReviewComment.Side.NEW);
        assertThat(c.body()).isEqualTo("Name it count.");
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(() -> {
                    List<DiffDocument.Row> rows =
                            vm.shownProperty().get().unified().rows();
                    return rows.size() > p + 1 && rows.get(p + 1).kind() == DiffDocument.Kind.COMMENT;
                }));
        assertThat(fx(() -> vm.shownProperty().get().unified().rows().get(p + 1).text()))
                .contains("tester", "Name it count.");

        // A view opened afterwards shows it from the store.
        try (DiffViewModel again = new DiffViewModel(backend())) {
            fx(() -> {
                again.open("view-001");
                return null;
            });
            WaitForAsyncUtils.waitFor(
                    20, TimeUnit.SECONDS, () -> fx(() -> again.comments().size() == 1));
        }
    }

    @Test
    void theWindowOpensOnTheFileAskedForAndEscapeClosesIt(FxRobot robot) throws Exception {
        javafx.stage.Stage window = WaitForAsyncUtils.asyncFx(
                        () -> DiffWindow.show(null, backend(), "view-001", "agent/view (view-001)", "src/App.java"))
                .get(10, TimeUnit.SECONDS);
        DiffViewModel opened = DiffWindow.modelOf(window);
        WaitForAsyncUtils.waitFor(
                20,
                TimeUnit.SECONDS,
                () -> fx(() -> opened.shownProperty().get() != null
                        && opened.shownProperty().get().file().path().equals("src/App.java")));

        robot.targetWindow(window).press(KeyCode.ESCAPE).release(KeyCode.ESCAPE);

        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> fx(() -> !window.isShowing()));
    }

    @Test
    void aSandboxThatIsGoneSaysSo(FxRobot robot) throws Exception {
        fx(() -> {
            vm.open("gone-404");
            return null;
        });
        WaitForAsyncUtils.waitFor(
                10, TimeUnit.SECONDS, () -> fx(() -> vm.errorProperty().get() != null));
        javafx.scene.control.Label problem = robot.lookup("#diff-problem").queryAs(javafx.scene.control.Label.class);
        assertThat(fx(problem::isVisible)).isTrue();
        assertThat(fx(problem::getText)).contains("gone-404");
    }

    private void select(String path) throws Exception {
        fx(() -> {
            vm.files().stream().filter(f -> f.path().equals(path)).findFirst().ifPresent(vm.selectedProperty()::set);
            return null;
        });
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(() -> {
                    DiffViewModel.Shown s = vm.shownProperty().get();
                    return s != null && s.file().path().equals(path);
                }));
    }
}
