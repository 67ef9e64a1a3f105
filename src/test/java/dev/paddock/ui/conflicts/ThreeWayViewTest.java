package dev.paddock.ui.conflicts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.testing.ConflictScenarios;
import dev.paddock.testing.GitConflictBackend;
import dev.paddock.testing.TempRepo;
import dev.paddock.ui.common.UiExecutor;
import dev.paddock.ui.theme.Theme;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
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
 * The three-way view on a real conflicting merge in a real repository ({@link ConflictScenarios}: a
 * delete/modify file and a Java file with four conflict hunks), resolved through a backend that writes
 * the results into the work tree and commits the merge when every path is resolved.
 */
@ExtendWith(ApplicationExtension.class)
class ThreeWayViewTest {
    private static final long ID = 7;

    @TempDir
    Path temp;

    private Stage stage;
    private TempRepo repo;
    private GitConflictBackend backend;
    private ThreeWayViewModel vm;
    private ThreeWayView view;

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @BeforeEach
    void open() throws Exception {
        repo = ConflictScenarios.serviceAndNotes(temp.resolve("repo"));
        backend = new GitConflictBackend(repo);
        vm = new ThreeWayViewModel(backend, ID, UiExecutor.io());
        WaitForAsyncUtils.asyncFx(() -> {
                    view = new ThreeWayView(vm);
                    Scene scene = new Scene(view, 1280, 800);
                    Theme.LIGHT.apply(scene);
                    stage.setScene(scene);
                    stage.show();
                    stage.toFront();
                })
                .get(10, TimeUnit.SECONDS);
        fx(vm::load).get(10, TimeUnit.SECONDS);
        WaitForAsyncUtils.waitForFxEvents();
    }

    @AfterEach
    void close() throws Exception {
        WaitForAsyncUtils.asyncFx(() -> List.copyOf(Window.getWindows()).forEach(Window::hide))
                .get(10, TimeUnit.SECONDS);
    }

    @Test
    void takingTheirsOnOneHunkAndEditingAnotherByHandCompletesTheMergeWithThatText(FxRobot robot) throws Exception {
        // notes.txt: deleted on ours, changed on theirs
        assertThat(fx(() -> vm.fileProperty().get().path())).isEqualTo("notes.txt");
        assertThat(text(robot, "#threeway-keep-theirs")).isEqualTo("Keep theirs");
        assertThat(text(robot, "#threeway-keep-ours")).isEqualTo("Keep ours (deleted)");
        robot.clickOn("#threeway-keep-theirs");
        WaitForAsyncUtils.waitFor(
                10, TimeUnit.SECONDS, () -> fx(() -> vm.fileIndexProperty().get() == 1));

        assertThat(fx(() -> vm.fileProperty().get().path())).isEqualTo("src/demo/Service.java");
        assertThat(hunkLabel(robot)).isEqualTo("Conflict 1 of 4 · 4 unresolved");
        robot.clickOn("#threeway-take-proposed"); // imports: the sorted union
        robot.type(KeyCode.F7);
        robot.clickOn("#threeway-take-theirs"); // greet: theirs
        robot.type(KeyCode.F7);
        robot.press(KeyCode.ALT).type(KeyCode.P).release(KeyCode.ALT); // retries: whitespace only, proposed
        robot.type(KeyCode.F7);
        assertThat(hunkLabel(robot)).isEqualTo("Conflict 4 of 4 · 1 unresolved");
        // bye: retyped by hand in the result
        CodeArea result = robot.lookup("#" + ThreeWayView.RESULT_ID).queryAs(CodeArea.class);
        int line = fx(() -> vm.resultSpan(3)[0]);
        robot.clickOn(result);
        WaitForAsyncUtils.asyncFx(() -> result.selectRange(
                        line, 0, line, result.getParagraph(line).length()))
                .get(5, TimeUnit.SECONDS);
        robot.write("        return \"Farewell \" + name;");
        assertThat(hunkLabel(robot)).isEqualTo("Conflict 4 of 4 · 0 unresolved");
        robot.press(KeyCode.CONTROL).type(KeyCode.S).release(KeyCode.CONTROL);

        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, () -> backend.mergeCommit() != null);
        List<GitConflictBackend.Resolution> sent = backend.resolutions();
        assertThat(sent)
                .extracting(GitConflictBackend.Resolution::path)
                .containsExactly("notes.txt", "src/demo/Service.java");
        assertThat(sent.get(0).text()).isEqualTo("first note\nsecond note from agent B\n");
        String service = sent.get(1).text();
        assertThat(service)
                .contains("import java.util.List;\nimport java.util.Optional;\nimport java.util.Set;\n")
                .contains("        return \"Hi \" + name.strip();\n")
                .contains("    int retries =  3;\n")
                .contains("        return \"Farewell \" + name;\n")
                .contains("        return 20;\n", "    // agent B was here\n") // the clean edits of both sides
                .doesNotContain("Goodbye", "See you", "Hello");
        assertThat(sent).allMatch(r -> r.who().equals("tester in the panel") && r.mergeRequestId() == ID);
        assertThat(Files.readString(repo.dir().resolve("src/demo/Service.java"), StandardCharsets.UTF_8))
                .isEqualTo(service);
        assertThat(repo.git("show", "HEAD:src/demo/Service.java")).isEqualTo(service);
        assertThat(repo.git("rev-list", "--parents", "-n", "1", "HEAD").strip().split(" "))
                .hasSize(3);
        assertThat(fx(() -> vm.finishedProperty().get())).isTrue();
        assertThat(fx(() ->
                        robot.lookup("#" + ThreeWayView.MARK_ID).queryButton().isDisabled()))
                .isTrue();
        // The file is written: nothing more to choose or type in this window.
        assertThat(fx(() -> robot.lookup("#threeway-take-theirs").queryButton().isDisabled()))
                .isTrue();
        assertThat(fx(() -> robot.lookup("#threeway-take-ours").queryButton().isDisabled()))
                .isTrue();
        assertThat(fx(() -> result.isEditable())).isFalse();
    }

    @Test
    void nextAndPreviousMoveThroughTheHunksAndScrollTheResultToThem(FxRobot robot) throws Exception {
        fx(() -> {
            vm.selectFile(1);
            return null;
        });
        CodeArea result = robot.lookup("#" + ThreeWayView.RESULT_ID).queryAs(CodeArea.class);
        assertThat(hunkLabel(robot)).startsWith("Conflict 1 of 4");
        robot.clickOn("#threeway-next");
        assertThat(hunkLabel(robot)).startsWith("Conflict 2 of 4");
        robot.type(KeyCode.F7);
        assertThat(hunkLabel(robot)).startsWith("Conflict 3 of 4");
        assertThat(fx(result::getCurrentParagraph)).isEqualTo(fx(() -> vm.resultSpan(2)[0]));
        robot.press(KeyCode.ALT).type(KeyCode.DOWN).release(KeyCode.ALT);
        assertThat(hunkLabel(robot)).startsWith("Conflict 4 of 4");
        robot.type(KeyCode.F7); // stays on the last
        assertThat(hunkLabel(robot)).startsWith("Conflict 4 of 4");
        robot.press(KeyCode.SHIFT).type(KeyCode.F7).release(KeyCode.SHIFT);
        assertThat(hunkLabel(robot)).startsWith("Conflict 3 of 4");
        robot.press(KeyCode.ALT).type(KeyCode.UP).release(KeyCode.ALT);
        robot.clickOn("#threeway-previous");
        assertThat(hunkLabel(robot)).startsWith("Conflict 1 of 4");
        assertThat(fx(result::getCurrentParagraph)).isEqualTo(fx(() -> vm.resultSpan(0)[0]));
        // the hunk shown is outlined in every pane, e.g. ours at its own line range
        CodeArea ours = robot.lookup("#" + ThreeWayView.OURS_ID).queryAs(CodeArea.class);
        int oursLine = fx(() -> vm.currentHunk().ours().start());
        assertThat(fx(() -> List.copyOf(ours.getParagraph(oursLine).getParagraphStyle())))
                .contains(ThreeWayView.UNRESOLVED, ThreeWayView.CURRENT);
        assertThat(robot.lookup("#threeway-why").queryAs(Label.class).getText())
                .isEqualTo(
                        "import block · proposal 100% sure: both sides changed the import block: the sorted union keeps both");
    }

    @Test
    void unresolvedHighlightsGoDownAsHunksAreResolved(FxRobot robot) throws Exception {
        fx(() -> {
            vm.selectFile(1);
            return null;
        });
        CodeArea result = robot.lookup("#" + ThreeWayView.RESULT_ID).queryAs(CodeArea.class);
        assertThat(styled(result, ThreeWayView.UNRESOLVED)).isEqualTo(4); // one base line per hunk
        assertThat(styled(result, ThreeWayView.RESOLVED)).isZero();
        robot.clickOn("#threeway-take-ours-theirs");
        assertThat(styled(result, ThreeWayView.UNRESOLVED)).isEqualTo(3);
        assertThat(styled(result, ThreeWayView.RESOLVED)).isEqualTo(2); // ours' and theirs' import line
        robot.type(KeyCode.F7).clickOn("#threeway-take-ours");
        assertThat(styled(result, ThreeWayView.UNRESOLVED)).isEqualTo(2);
        assertThat(styled(result, ThreeWayView.RESOLVED)).isEqualTo(3);
        // the human hunk has no proposed resolution: its button is disabled
        assertThat(robot.lookup("#threeway-take-proposed").queryButton().isDisabled())
                .isTrue();
        assertThat(fx(() -> vm.unresolvedProperty().get())).isEqualTo(2);
        assertThat(fx(() -> vm.files().get(1).unresolved())).isEqualTo(2);
    }

    @Test
    void markResolvedWithUnresolvedHunksAsksFirst(FxRobot robot) throws Exception {
        fx(() -> {
            vm.selectFile(1);
            return null;
        });
        robot.clickOn("#" + ThreeWayView.MARK_ID);
        Node cancel = dialogButton(robot, "Cancel");
        assertThat(dialogHeader(robot)).isEqualTo("Mark src/demo/Service.java resolved?");
        robot.clickOn(cancel);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(backend.resolutions()).isEmpty();
        robot.clickOn("#" + ThreeWayView.MARK_ID);
        robot.clickOn(dialogButton(robot, "Mark resolved"));
        WaitForAsyncUtils.waitFor(
                10, TimeUnit.SECONDS, () -> backend.resolutions().size() == 1);
        assertThat(backend.resolutions().get(0).text()).contains("    int retries = 3;\n"); // base's text kept
    }

    @Test
    void abortAsksThenRestoresTheRepository(FxRobot robot) throws Exception {
        robot.clickOn("#" + ThreeWayView.ABORT_ID);
        robot.clickOn(dialogButton(robot, "Cancel"));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(backend.aborts()).isEmpty();
        robot.clickOn("#" + ThreeWayView.ABORT_ID);
        assertThat(dialogHeader(robot)).isEqualTo("Abort this merge?");
        robot.clickOn(dialogButton(robot, "Abort merge"));
        WaitForAsyncUtils.waitFor(
                10, TimeUnit.SECONDS, () -> fx(() -> vm.abortedProperty().get()));
        assertThat(backend.aborts()).containsExactly(ID);
        assertThat(TempRepo.run(repo.dir(), "rev-parse", "-q", "--verify", "MERGE_HEAD")
                        .ok())
                .isFalse();
        assertThat(repo.git("status", "--porcelain")).isEmpty();
    }

    @Test
    void enterOnTheAbortQuestionCancels(FxRobot robot) throws Exception {
        robot.clickOn("#" + ThreeWayView.ABORT_ID);
        Node cancel = dialogButton(robot, "Cancel");
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> fx(cancel::isFocused));
        assertThat(fx(() -> ((Button) cancel).isDefaultButton())).isTrue();
        robot.type(KeyCode.ENTER);
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> robot.lookup(".dialog-pane").tryQuery().isEmpty());
        assertThat(backend.aborts()).isEmpty();
        assertThat(fx(() -> vm.abortedProperty().get())).isFalse();
    }

    @Test
    void aFailedResolutionShowsItsMessageAndDetailsAndKeepsTheFileOpen(FxRobot robot) throws Exception {
        backend.failNext("the merge request is no longer in conflict");
        robot.clickOn("#threeway-keep-theirs");
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(() -> robot.lookup("#threeway-error").query().isVisible()));
        assertThat(robot.lookup("#threeway-error .pd-error-message")
                        .queryAs(Label.class)
                        .getText())
                .isEqualTo("Cannot resolve notes.txt: the merge request is no longer in conflict");
        assertThat(fx(() -> vm.fileIndexProperty().get())).isZero();
        assertThat(fx(() -> vm.files().get(0).resolved())).isFalse();
        assertThat(backend.resolutions()).isEmpty();
    }

    @Test
    void altKeysInTheResultTakeASideWithoutTypingTheirLetterAndCtrlSWritesExactlyThatText(FxRobot robot)
            throws Exception {
        fx(() -> {
            vm.selectFile(1);
            return null;
        });
        CodeArea result = robot.lookup("#" + ThreeWayView.RESULT_ID).queryAs(CodeArea.class);
        robot.clickOn(result);
        assertThat(fx(result::isFocused)).isTrue();
        fx(() -> {
            vm.goTo(0);
            return null;
        });
        robot.press(KeyCode.ALT).type(KeyCode.T).release(KeyCode.ALT);
        fx(() -> {
            vm.goTo(1);
            return null;
        });
        robot.press(KeyCode.ALT).type(KeyCode.O).release(KeyCode.ALT);
        WaitForAsyncUtils.waitForFxEvents();

        FileResolution expected = fx(() -> new FileResolution(vm.fileProperty().get()));
        expected.choose(0, HunkState.THEIRS);
        expected.choose(1, HunkState.OURS);
        assertThat(fx(() -> result.getText())).isEqualTo(expected.text());
        assertThat(fx(() -> List.of(vm.choice(0), vm.choice(1)))).containsExactly(HunkState.THEIRS, HunkState.OURS);

        robot.press(KeyCode.CONTROL).type(KeyCode.S).release(KeyCode.CONTROL);
        robot.clickOn(dialogButton(robot, "Mark resolved")); // two hunks are still unresolved
        WaitForAsyncUtils.waitFor(
                10, TimeUnit.SECONDS, () -> backend.resolutions().size() == 1);
        assertThat(backend.resolutions().get(0).text()).isEqualTo(expected.text());
        assertThat(Files.readString(repo.dir().resolve("src/demo/Service.java"), StandardCharsets.UTF_8))
                .isEqualTo(expected.text());
    }

    @Test
    void unresolveReopensAResolvedFileWithItsResultAndCtrlUDoesTheSame(FxRobot robot) throws Exception {
        fx(() -> {
            vm.selectFile(1);
            return null;
        });
        robot.clickOn("#threeway-take-theirs");
        robot.clickOn("#" + ThreeWayView.MARK_ID);
        robot.clickOn(dialogButton(robot, "Mark resolved"));
        WaitForAsyncUtils.waitFor(
                10, TimeUnit.SECONDS, () -> backend.resolutions().size() == 1);
        String resolvedText = backend.resolutions().get(0).text();
        WaitForAsyncUtils.waitFor(
                10, TimeUnit.SECONDS, () -> fx(() -> vm.fileIndexProperty().get() == 0));
        assertThat(visible(robot, "#" + ThreeWayHeader.UNRESOLVE_ID)).isFalse(); // notes.txt is not resolved

        // Back to the resolved file: Unresolve takes Mark resolved's place; the result is read-only.
        robot.clickOn(
                robot.lookup("#" + ThreeWayView.FILES_ID + " .list-cell").nth(1).queryAs(Node.class));
        WaitForAsyncUtils.waitFor(
                10, TimeUnit.SECONDS, () -> fx(() -> vm.fileIndexProperty().get() == 1));
        CodeArea result = robot.lookup("#" + ThreeWayView.RESULT_ID).queryAs(CodeArea.class);
        assertThat(visible(robot, "#" + ThreeWayView.MARK_ID)).isFalse();
        assertThat(visible(robot, "#" + ThreeWayHeader.UNRESOLVE_ID)).isTrue();
        assertThat(fx(result::isEditable)).isFalse();
        assertThat(fx(() -> result.getText())).isEqualTo(resolvedText);

        robot.clickOn(result);
        robot.press(KeyCode.CONTROL).type(KeyCode.U).release(KeyCode.CONTROL);
        WaitForAsyncUtils.waitFor(
                10, TimeUnit.SECONDS, () -> fx(() -> !vm.files().get(1).resolved()));
        assertThat(backend.reopened()).containsExactly("src/demo/Service.java");
        assertThat(fx(result::isEditable)).isTrue();
        assertThat(fx(() -> result.getText())).isEqualTo(resolvedText);
        assertThat(fx(() -> vm.choice(0))).isEqualTo(HunkState.THEIRS); // how it was resolved is kept
        assertThat(hunkLabel(robot)).endsWith("3 unresolved");
        assertThat(visible(robot, "#" + ThreeWayView.MARK_ID)).isTrue();
        assertThat(fx(() -> robot.lookup("#threeway-take-ours").queryButton().isDisabled()))
                .isFalse();

        // Changed and marked resolved again: that text is handed over.
        robot.clickOn("#threeway-next");
        robot.clickOn("#threeway-take-ours");
        String edited = fx(() -> result.getText());
        assertThat(edited).isNotEqualTo(resolvedText);
        robot.press(KeyCode.CONTROL).type(KeyCode.S).release(KeyCode.CONTROL);
        robot.clickOn(dialogButton(robot, "Mark resolved"));
        WaitForAsyncUtils.waitFor(
                10, TimeUnit.SECONDS, () -> backend.resolutions().size() == 2);
        assertThat(backend.resolutions().get(1).text()).isEqualTo(edited);
    }

    @Test
    void aFileResolvedBeforeTheWindowOpenedIsListedResolvedWithItsTextAndCanBeReopened(FxRobot robot) throws Exception {
        fx(() -> {
            vm.selectFile(1);
            return null;
        });
        robot.clickOn("#threeway-take-theirs");
        robot.clickOn("#" + ThreeWayView.MARK_ID);
        robot.clickOn(dialogButton(robot, "Mark resolved"));
        WaitForAsyncUtils.waitFor(
                10, TimeUnit.SECONDS, () -> backend.resolutions().size() == 1);
        String resolvedText = backend.resolutions().get(0).text();

        // A new window on the same merge request.
        ThreeWayViewModel again = new ThreeWayViewModel(backend, ID, UiExecutor.io());
        WaitForAsyncUtils.asyncFx(() -> {
                    view = new ThreeWayView(again);
                    stage.getScene().setRoot(view);
                })
                .get(10, TimeUnit.SECONDS);
        fx(again::load).get(10, TimeUnit.SECONDS);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(() -> again.files().stream().map(FileRow::resolved).toList()))
                .containsExactly(false, true);
        assertThat(fx(() -> again.fileIndexProperty().get()))
                .as("opens on a file left to resolve")
                .isZero();
        fx(() -> {
            again.selectFile(1);
            return null;
        });
        CodeArea result = robot.lookup("#" + ThreeWayView.RESULT_ID).queryAs(CodeArea.class);
        assertThat(fx(() -> result.getText())).isEqualTo(resolvedText);
        robot.clickOn("#" + ThreeWayHeader.UNRESOLVE_ID);
        WaitForAsyncUtils.waitFor(
                10, TimeUnit.SECONDS, () -> fx(() -> !again.files().get(1).resolved()));
        assertThat(fx(() -> result.getText())).isEqualTo(resolvedText);
        // Its hunks count as resolved by hand, each found where it sits in that text.
        assertThat(fx(() -> again.choice(0))).isEqualTo(HunkState.EDITED);
        assertThat(hunkLabel(robot)).isEqualTo("Conflict 1 of 4 · 0 unresolved");
        int[] first = fx(() -> again.resultSpan(0));
        assertThat(fx(() -> result.getText(
                        first[0],
                        0,
                        first[1] - 1,
                        result.getParagraph(first[1] - 1).length())))
                .contains("import");
    }

    @Test
    void whenTheMergeFinishesTheViewSaysMergedAndOffersOnlyClose(FxRobot robot) throws Exception {
        assertThat(visible(robot, "#" + ThreeWayHeader.CLOSE_ID)).isFalse();
        backend.mergedElsewhere("0123456789abcdef0123");
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> fx(() -> visible(robot, "#" + ThreeWayHeader.CLOSE_ID)));
        assertThat(fx(() -> robot.lookup("#" + ThreeWayHeader.STATUS_ID)
                        .queryAs(Label.class)
                        .getText()))
                .isEqualTo("Merged as 0123456789ab: nothing is left to resolve here.");
        for (String id : List.of(ThreeWayView.MARK_ID, ThreeWayView.ABORT_ID, ThreeWayHeader.UNRESOLVE_ID)) {
            assertThat(visible(robot, "#" + id)).as(id).isFalse();
        }
        fx(() -> {
            vm.selectFile(1);
            return null;
        });
        assertThat(fx(() -> robot.lookup("#threeway-take-theirs").queryButton().isDisabled()))
                .isTrue();
        assertThat(fx(() -> robot.lookup("#" + ThreeWayView.RESULT_ID)
                        .queryAs(CodeArea.class)
                        .isEditable()))
                .isFalse();
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(() -> robot.lookup("#" + ThreeWayHeader.CLOSE_ID)
                        .queryButton()
                        .isFocused()));
        robot.type(KeyCode.ENTER);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> fx(() -> !stage.isShowing()));
    }

    @Test
    void theWindowOfAMergeThatFinishedClosesItselfAfterSayingSo(FxRobot robot) throws Exception {
        ThreeWayViewModel own = new ThreeWayViewModel(backend, ID, UiExecutor.io());
        Stage window = fx(() -> ThreeWayWindow.show(null, own, "agent/notes (sb-7)"));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> fx(window::isShowing));

        backend.mergedElsewhere("0123456789abcdef0123");

        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(() -> own.progressProperty().get() != null
                        && own.progressProperty().get().stage() == ConflictBackend.Stage.MERGED));
        assertThat(fx(window::isShowing))
                .as("it lingers so the person sees the merge happened")
                .isTrue();
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> fx(() -> !window.isShowing()));
    }

    private static boolean visible(FxRobot robot, String query) throws Exception {
        WaitForAsyncUtils.waitForFxEvents();
        return fx(() -> robot.lookup(query)
                .tryQuery()
                .map(n -> n.isVisible() && n.getScene() != null)
                .orElse(false));
    }

    private static long styled(CodeArea area, String style) throws Exception {
        WaitForAsyncUtils.waitForFxEvents();
        return fx(() -> area.getParagraphs().stream()
                .filter(p -> p.getParagraphStyle().contains(style))
                .count());
    }

    private static String hunkLabel(FxRobot robot) throws Exception {
        WaitForAsyncUtils.waitForFxEvents();
        return fx(() -> robot.lookup("#" + ThreeWayView.HUNK_LABEL_ID)
                .queryAs(Label.class)
                .getText());
    }

    private static String text(FxRobot robot, String query) throws Exception {
        return fx(() -> robot.lookup(query).queryAs(Button.class).getText());
    }

    private static Node dialogButton(FxRobot robot, String text) throws Exception {
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> robot.lookup(".dialog-pane .button")
                        .match((Button b) -> text.equals(b.getText()))
                        .tryQuery()
                        .isPresent());
        return robot.lookup(".dialog-pane .button")
                .match((Button b) -> text.equals(b.getText()))
                .query();
    }

    private static String dialogHeader(FxRobot robot) throws Exception {
        return fx(() -> robot.lookup(".dialog-pane")
                .queryAs(javafx.scene.control.DialogPane.class)
                .getHeaderText());
    }

    private static <T> T fx(Callable<T> c) throws Exception {
        return WaitForAsyncUtils.asyncFx(c).get(30, TimeUnit.SECONDS);
    }
}
