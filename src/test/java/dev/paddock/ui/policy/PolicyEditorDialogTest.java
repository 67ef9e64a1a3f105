package dev.paddock.ui.policy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.Host;
import dev.paddock.common.Json;
import dev.paddock.policy.Decision;
import dev.paddock.policy.Policy;
import dev.paddock.policy.PolicyEngine;
import dev.paddock.policy.PolicyFile;
import dev.paddock.policy.ToolRequest;
import dev.paddock.policy.Verdict;
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
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
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

/** The Policy dialog in the real panel (a real Paddock, a real repository), opened with Ctrl+P. */
@ExtendWith(ApplicationExtension.class)
class PolicyEditorDialogTest {
    @TempDir
    Path temp;

    private Stage stage;
    private TempRepo repo;
    private Host host;
    private Path home;
    private final ShellViewModel vm = new ShellViewModel();

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @BeforeEach
    void openPanel() throws Exception {
        repo = TempRepo.init(temp.resolve("project"));
        repo.commitFile("src/App.java", "class App {}\n", "Add App");
        home = temp.resolve("home");
        host = Host.start(PaddockHome.resolve(home, Map.of()), "panel");
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
                15, TimeUnit.SECONDS, () -> fx(() -> vm.currentProperty().get() != null));
    }

    @AfterEach
    void closePanel() throws Exception {
        WaitForAsyncUtils.asyncFx(() -> {
                    for (Window w : List.copyOf(Window.getWindows())) {
                        // Edits a test left unsaved would ask "discard?" and wait for an answer: tear down without it.
                        javafx.scene.Node pane = w.getScene() == null
                                ? null
                                : w.getScene().getRoot().lookup("#policy-dialog");
                        if (pane != null && pane.getUserData() instanceof PolicyEditorDialog d) {
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

    private Path policyFile() {
        return PolicyFile.repositoryFile(repo.dir());
    }

    /** Opens the dialog with Ctrl+P and waits until the file is loaded and checked. */
    private PolicyEditorViewModel open(FxRobot robot) throws Exception {
        robot.press(KeyCode.CONTROL, KeyCode.P).release(KeyCode.P, KeyCode.CONTROL);
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> robot.lookup("#policy-dialog").tryQuery().isPresent());
        PolicyEditorViewModel model = fx(() ->
                ((PolicyEditorDialog) robot.lookup("#policy-dialog").query().getUserData()).viewModel());
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(() -> !model.busyProperty().get()
                        && !model.checkingProperty().get()
                        && model.validationProperty().get() != null));
        return model;
    }

    private void setText(FxRobot robot, String text) {
        TextArea editor = robot.lookup("#policy-editor").queryAs(TextArea.class);
        robot.interact(() -> editor.setText(text));
    }

    private static void waitChecked(PolicyEditorViewModel model) throws Exception {
        WaitForAsyncUtils.waitFor(
                10, TimeUnit.SECONDS, () -> fx(() -> !model.checkingProperty().get()));
    }

    @Test
    void aMissingFileStartsFromTheTemplateAndNamesTheGlobalFile(FxRobot robot) throws Exception {
        PolicyEditorViewModel model = open(robot);
        assertThat(fx(() ->
                        robot.lookup("#policy-editor").queryAs(TextArea.class).getText()))
                .isEqualTo(PolicyEditorViewModel.TEMPLATE);
        assertThat(fx(() -> robot.lookup("#policy-global").queryAs(Label.class).getText()))
                .contains(PolicyFile.globalFile(home).toString());
        assertThat(fx(() -> robot.lookup("#policy-check").queryAs(Label.class).getText()))
                .startsWith("Valid");
        assertThat(fx(() -> robot.lookup("#policy-save").queryAs(Button.class).isDisabled()))
                .isFalse();
        assertThat(model.file()).isEqualTo(policyFile());
    }

    @Test
    void theHeaderButtonOpensTheDialogAndCloseClosesIt(FxRobot robot) throws Exception {
        robot.clickOn("#header-policy");
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> robot.lookup("#policy-dialog").tryQuery().isPresent());
        robot.clickOn("#policy-close");
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> robot.lookup("#policy-dialog").tryQuery().isEmpty());
        open(robot); // and it opens again with Ctrl+P
        assertThat(fx(() -> robot.lookup("#policy-file").queryAs(Label.class).getText()))
                .isEqualTo(policyFile().toString());
    }

    @Test
    void closingWithUnsavedEditsAsksFirstAndKeepsThemUntilDiscarded(FxRobot robot) throws Exception {
        PolicyEditorViewModel model = open(robot);
        setText(robot, "{\"permissions\": {\"deny\": [\"Bash(rm -rf:*)\"]}}");
        assertThat(fx(() -> model.unsavedProperty().get())).isTrue();

        robot.clickOn("#policy-close");
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> robot.lookup("#" + PolicyEditorDialog.UNSAVED_ID)
                        .tryQuery()
                        .isPresent());
        robot.clickOn(PolicyEditorDialog.KEEP_EDITING.getText());
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(robot.lookup("#policy-dialog").tryQuery()).isPresent();
        assertThat(fx(() ->
                        robot.lookup("#policy-editor").queryAs(TextArea.class).getText()))
                .contains("rm -rf");

        robot.clickOn("#policy-close");
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> robot.lookup("#" + PolicyEditorDialog.UNSAVED_ID)
                        .tryQuery()
                        .isPresent());
        robot.clickOn(PolicyEditorDialog.DISCARD.getText());
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> robot.lookup("#policy-dialog").tryQuery().isEmpty());
        assertThat(policyFile()).doesNotExist();
    }

    @Test
    void enterOnTheUnsavedQuestionKeepsEditing(FxRobot robot) throws Exception {
        PolicyEditorViewModel model = open(robot);
        setText(robot, "{\"permissions\": {\"deny\": [\"Bash(rm -rf:*)\"]}}");
        assertThat(fx(() -> model.unsavedProperty().get())).isTrue();

        robot.clickOn("#policy-close");
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> robot.lookup("#" + PolicyEditorDialog.UNSAVED_ID)
                        .tryQuery()
                        .isPresent());
        javafx.scene.control.DialogPane question =
                robot.lookup("#" + PolicyEditorDialog.UNSAVED_ID).queryAs(javafx.scene.control.DialogPane.class);
        javafx.scene.control.Button keep =
                fx(() -> (javafx.scene.control.Button) question.lookupButton(PolicyEditorDialog.KEEP_EDITING));
        javafx.scene.control.Button discard =
                fx(() -> (javafx.scene.control.Button) question.lookupButton(PolicyEditorDialog.DISCARD));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> fx(keep::isFocused));
        assertThat(fx(keep::isDefaultButton)).isTrue();
        assertThat(fx(discard::isDefaultButton)).isFalse();
        robot.type(KeyCode.ENTER);
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> robot.lookup("#" + PolicyEditorDialog.UNSAVED_ID)
                        .tryQuery()
                        .isEmpty());
        assertThat(robot.lookup("#policy-dialog").tryQuery()).isPresent();
        assertThat(fx(() ->
                        robot.lookup("#policy-editor").queryAs(TextArea.class).getText()))
                .contains("rm -rf");
        assertThat(policyFile()).doesNotExist();
    }

    @Test
    void afterSavingCloseAsksNothing(FxRobot robot) throws Exception {
        PolicyEditorViewModel model = open(robot);
        setText(robot, "{\"permissions\": {\"allow\": [\"Bash(npm test)\"]}}");
        waitChecked(model);
        robot.clickOn("#policy-save");
        WaitForAsyncUtils.waitFor(
                10, TimeUnit.SECONDS, () -> fx(() -> !model.unsavedProperty().get()));

        robot.clickOn("#policy-close");
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> robot.lookup("#policy-dialog").tryQuery().isEmpty());
        assertThat(robot.lookup("#" + PolicyEditorDialog.UNSAVED_ID).tryQuery()).isEmpty();
        assertThat(policyFile()).content().contains("Bash(npm test)");
    }

    @Test
    void typingABadRuleDisablesSaveAndNamesIt(FxRobot robot) throws Exception {
        PolicyEditorViewModel model = open(robot);
        TextArea editor = robot.lookup("#policy-editor").queryAs(TextArea.class);
        // Typed for real: the cursor goes inside the empty deny list.
        int at = fx(() -> editor.getText().indexOf("\"deny\": [") + "\"deny\": [".length());
        robot.interact(() -> editor.positionCaret(at));
        robot.clickOn(editor);
        robot.interact(() -> editor.positionCaret(at));
        robot.write("\"Bash(rm\"");
        waitChecked(model);
        String check =
                fx(() -> robot.lookup("#policy-check").queryAs(Label.class).getText());
        assertThat(check).contains("line 5").contains("Bash(rm").contains("Save is disabled");
        assertThat(fx(() -> robot.lookup("#policy-save").queryAs(Button.class).isDisabled()))
                .isTrue();

        setText(robot, "{\"permissions\": {\"allow\": [\"Bash(ls)\",]}}");
        waitChecked(model);
        assertThat(fx(() -> robot.lookup("#policy-check").queryAs(Label.class).getText()))
                .containsPattern("line 1, column \\d+");
        assertThat(fx(() -> robot.lookup("#policy-save").queryAs(Button.class).isDisabled()))
                .isTrue();
        assertThat(policyFile()).doesNotExist();
    }

    @Test
    void aValidEditSavedIsWhatPolicyFileLoads(FxRobot robot) throws Exception {
        Files.createDirectories(policyFile().getParent());
        Files.writeString(policyFile(), "{\"permissions\": {\"allow\": [\"Bash(ls)\"]}}\n");
        PolicyEditorViewModel model = open(robot);
        setText(
                robot,
                "{\n  \"permissions\": {\n    \"allow\": [\"Bash(npm test)\"],\n"
                        + "    \"deny\": [\"Bash(git push:*)\"]\n  }\n}\n");
        waitChecked(model);
        assertThat(fx(() -> robot.lookup("#policy-save").queryAs(Button.class).isDisabled()))
                .isFalse();
        robot.clickOn("#policy-save");
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(() -> model.messageProperty().get() != null
                        && model.messageProperty().get().contains("saved")));

        assertThat(Files.readString(policyFile().resolveSibling("policy.json.bak")))
                .contains("Bash(ls)");
        Policy loaded = PolicyFile.load(List.of(policyFile()), repo.dir(), repo.dir());
        assertThat(loaded.isBroken()).isFalse();
        PolicyEngine engine = new PolicyEngine(loaded);
        assertThat(engine.decide(ToolRequest.bash("git push origin main", repo.dir()))
                        .verdict())
                .isEqualTo(Verdict.DENY);
        assertThat(engine.decide(ToolRequest.bash("npm test", repo.dir())).verdict())
                .isEqualTo(Verdict.ALLOW);
        assertThat(engine.decide(ToolRequest.bash("ls", repo.dir())).verdict()).isEqualTo(Verdict.ASK);
        assertThat(Files.list(policyFile().getParent()).map(p -> p.getFileName().toString()))
                .containsExactlyInAnyOrder("policy.json", "policy.json.bak");
    }

    @Test
    void theTryBoxShowsDenyAndTheRuleForRmRf(FxRobot robot) throws Exception {
        PolicyEditorViewModel model = open(robot);
        setText(robot, "{\"permissions\": {\"deny\": [\"Bash(rm -rf:*)\"], \"allow\": [\"Bash(ls:*)\"]}}");
        robot.clickOn("#policy-try-input").write("rm -rf /");
        waitChecked(model);
        Label verdict = robot.lookup("#policy-try-verdict").queryAs(Label.class);
        assertThat(fx(verdict::getText)).isEqualTo("deny");
        assertThat(fx(() -> verdict.getStyleClass().contains("pd-chip-danger"))).isTrue();
        assertThat(fx(() ->
                        robot.lookup("#policy-try-rule").queryAs(Label.class).getText()))
                .isEqualTo("deny rule Bash(rm -rf:*)");
        assertThat(fx(() ->
                        robot.lookup("#policy-try-reason").queryAs(Label.class).getText()))
                .isNotBlank();

        // Live: another command, another tool
        TextField input = robot.lookup("#policy-try-input").queryAs(TextField.class);
        robot.interact(() -> input.setText("ls -la src"));
        waitChecked(model);
        assertThat(fx(verdict::getText)).isEqualTo("allow");
        robot.interact(
                () -> robot.lookup("#policy-try-tool").queryAs(ComboBox.class).setValue("WebFetch"));
        robot.interact(() -> input.setText("https://example.com/x"));
        waitChecked(model);
        assertThat(fx(verdict::getText)).isEqualTo("ask");
        Decision d = fx(() -> model.decisionProperty().get());
        assertThat(d.rule()).isNull();
    }

    @Test
    void importMergesARealClaudeSettingsFileWithoutDuplicates(FxRobot robot) throws Exception {
        Path settings = repo.dir().resolve(".claude/settings.json");
        Files.createDirectories(settings.getParent());
        Files.writeString(settings, """
                {
                  "model": "opus",
                  "permissions": {
                    "allow": ["Bash(npm test)", "Bash(npm run lint:*)", "Read(./src/**)"],
                    "deny": ["Bash(git push:*)", "Bash(curl"]
                  }
                }
                """);
        PolicyEditorViewModel model = open(robot);
        setText(robot, "{\"permissions\": {\"allow\": [\"Bash(npm test)\"], \"ask\": [], \"deny\": []}}");
        waitChecked(model);
        robot.clickOn("#policy-import");
        WaitForAsyncUtils.waitFor(
                10, TimeUnit.SECONDS, () -> fx(() -> model.messageProperty().get() != null));
        waitChecked(model);
        String message =
                fx(() -> robot.lookup("#policy-message").queryAs(Label.class).getText());
        assertThat(message)
                .contains("Imported 3 rules")
                .contains("1 already here")
                .contains("skipped 1")
                .contains("line 5");
        JsonNode merged = Json.mapper()
                .readTree(fx(() ->
                        robot.lookup("#policy-editor").queryAs(TextArea.class).getText()));
        assertThat(merged.at("/permissions/allow").toString())
                .isEqualTo("[\"Bash(npm test)\",\"Bash(npm run lint:*)\",\"Read(./src/**)\"]");
        assertThat(merged.at("/permissions/deny").toString()).isEqualTo("[\"Bash(git push:*)\"]");
        assertThat(fx(() ->
                        robot.lookup("#policy-editor").queryAs(TextArea.class).getText()))
                .contains("\"ask\": []")
                .contains("\"allow\": [\n      \"Bash(npm test)\",\n");
        assertThat(fx(() -> robot.lookup("#policy-save").queryAs(Button.class).isDisabled()))
                .isFalse();

        robot.clickOn("#policy-import"); // twice: nothing more is added
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(() -> model.messageProperty().get() != null
                        && model.messageProperty().get().contains("Imported 0 rules")));
    }

    @Test
    void installHookWritesTheSettingsFileAndShowsAnError(FxRobot robot) throws Exception {
        Path settings = repo.dir().resolve(".claude/settings.json");
        Files.createDirectories(settings.getParent());
        Files.writeString(settings, "{\"model\": \"opus\"}\n");
        PolicyEditorViewModel model = open(robot);
        robot.clickOn("#policy-install-hook");
        WaitForAsyncUtils.waitFor(
                10, TimeUnit.SECONDS, () -> fx(() -> model.messageProperty().get() != null));
        assertThat(fx(() -> robot.lookup("#policy-message").queryAs(Label.class).getText()))
                .contains("Installed the PreToolUse hook")
                .contains(settings.toString());
        JsonNode written = Json.mapper().readTree(settings.toFile());
        assertThat(written.path("model").asText()).isEqualTo("opus");
        assertThat(written.at("/hooks/PreToolUse/0/hooks/0/command").asText())
                .endsWith("paddock-hook-claude --timeout "
                        + written.at("/hooks/PreToolUse/0/hooks/0/timeout").asInt());
        assertThat(home.resolve("bin/paddock-hook-claude")).isExecutable();
        assertThat(settings.resolveSibling("settings.json.bak")).exists();

        Files.writeString(settings, "{\"model\": ");
        robot.clickOn("#policy-install-hook");
        WaitForAsyncUtils.waitFor(
                10, TimeUnit.SECONDS, () -> fx(() -> model.errorProperty().get() != null));
        assertThat(fx(() -> model.errorProperty().get().message())).contains("line");
        assertThat(fx(() -> robot.lookup("#policy-error").query().isVisible())).isTrue();
        assertThat(Files.readString(settings)).isEqualTo("{\"model\": ");
    }
}
