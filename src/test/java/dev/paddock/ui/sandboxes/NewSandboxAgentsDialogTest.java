package dev.paddock.ui.sandboxes;

import static dev.paddock.ui.sandboxes.Panel.fx;
import static dev.paddock.ui.sandboxes.Panel.node;
import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.agent.AgentPreset;
import dev.paddock.agent.PassThrough;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.Tier;
import dev.paddock.settings.SettingsStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.Spinner;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
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

/**
 * The New Sandbox dialog's agent choice in the real panel at 1366×768: a preset picked from the list runs the task,
 * the program's place and the variables it takes are shown (names only), and counts per agent make the same fan-out as
 * {@code --agents claude:2,codex:1}. Claude Code's program is a script named by its setting, so what runs is known;
 * Codex is the one on PATH when there is one.
 */
@ExtendWith(ApplicationExtension.class)
class NewSandboxAgentsDialogTest {
    @TempDir
    Path temp;

    private Stage stage;
    private Panel panel;
    private Path claude;

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @BeforeEach
    void openPanel() throws Exception {
        panel = Panel.start(temp, stage);
        // A claude that writes what it was asked into its worktree and ends.
        claude = temp.resolve("bin/claude");
        Files.createDirectories(claude.getParent());
        Files.writeString(claude, "#!/bin/sh\nprintf '%s\\n' \"$@\" > args.txt\nexit 0\n");
        Files.setPosixFilePermissions(claude, PosixFilePermissions.fromString("rwxr-xr-x"));
        panel.host.wiring().settings().set(SettingsStore.AGENTS_CLAUDE_EXECUTABLE.name(), claude.toString(), "test");
        panel.show(1366, 768);
    }

    @AfterEach
    void closePanel() throws Exception {
        if (panel != null) {
            panel.close();
        }
    }

    private static void pick(FxRobot robot, String agent) throws Exception {
        @SuppressWarnings("unchecked")
        ComboBox<String> box = node(robot, "#new-sandbox-agent", ComboBox.class);
        robot.clickOn(box);
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> fx(box::isShowing));
        // Down the list to the agent, and Enter, as a person does with the keyboard.
        int steps = AgentChoiceViewModel.agents().indexOf(agent)
                - AgentChoiceViewModel.agents().indexOf(fx(box::getValue));
        for (int i = 0; i < Math.abs(steps); i++) {
            robot.type(steps > 0 ? KeyCode.DOWN : KeyCode.UP);
        }
        robot.type(KeyCode.ENTER);
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> fx(() -> agent.equals(box.getValue())));
    }

    /** Whether the node and every parent of it are visible. */
    private static boolean shown(FxRobot robot, String query) throws Exception {
        return fx(() -> {
            for (Node n = robot.lookup(query).query(); n != null; n = n.getParent()) {
                if (!n.isVisible()) {
                    return false;
                }
            }
            return true;
        });
    }

    private List<SandboxRecord> made() throws Exception {
        return panel.host
                .wiring()
                .sandboxService()
                .listOpen(panel.vm.currentProperty().get().id());
    }

    @Test
    void claudeCodePickedFromTheListRunsTheTaskAsItsPromptAndSaysWhereItsProgramIs(FxRobot robot) throws Exception {
        NewSandboxViewModel vm = Panel.openNewSandboxDialog(robot);
        assertThat(shown(robot, "#new-sandbox-command")).isTrue();
        assertThat(shown(robot, "#new-sandbox-model")).isFalse();
        Label program = node(robot, "#new-sandbox-agent-program", Label.class);
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(program::getText)
                        .equals("Runs your command with"
                                + " /bin/sh -c in the worktree; the task is in PADDOCK_TASK."));

        pick(robot, "claude");

        // A preset builds its own command line: the command field gives way to the model.
        assertThat(shown(robot, "#new-sandbox-command")).isFalse();
        assertThat(shown(robot, "#new-sandbox-model")).isTrue();
        assertThat(fx(() -> vm.tierProperty().get())).isEqualTo(Tier.WORKTREE);
        WaitForAsyncUtils.waitFor(
                10, TimeUnit.SECONDS, () -> fx(program::getText).startsWith("Runs /"));
        assertThat(fx(program::getText)).isEqualTo("Runs " + claude + " (the setting agents.claude.executable).");
        Label env = node(robot, "#new-sandbox-agent-env", Label.class);
        List<String> passes =
                PassThrough.from(AgentPreset.CLAUDE, System.getenv()).names();
        assertThat(fx(env::getText))
                .isEqualTo(
                        passes.isEmpty()
                                ? "Takes nothing from Paddock's environment: none of"
                                        + " its "
                                        + AgentPreset.CLAUDE.passThrough().size() + " variables (ANTHROPIC_API_KEY,"
                                        + " ANTHROPIC_AUTH_TOKEN, …) is set there."
                                : "Takes from Paddock's environment: " + String.join(", ", passes) + ".");
        for (String name : passes) {
            assertThat(fx(env::getText)).doesNotContain(System.getenv(name));
        }

        robot.clickOn("#new-sandbox-task").write("Explain the build");
        robot.clickOn("#new-sandbox-model").write("sonnet");
        Button create = node(robot, "#new-sandbox-create", Button.class);
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> fx(() -> !create.isDisabled()));
        robot.press(KeyCode.CONTROL, KeyCode.ENTER).release(KeyCode.ENTER, KeyCode.CONTROL);

        WaitForAsyncUtils.waitFor(
                20,
                TimeUnit.SECONDS,
                () -> fx(() -> robot.lookup("#new-sandbox-dialog").tryQuery().isEmpty()));
        SandboxRecord s = made().get(0);
        assertThat(made()).hasSize(1);
        assertThat(s.spec().agent()).isEqualTo("claude");
        assertThat(s.spec().task()).isEqualTo("Explain the build");
        assertThat(s.spec().model()).isEqualTo("sonnet");
        assertThat(s.spec().tier()).isEqualTo(Tier.WORKTREE);
        assertThat(s.spec().group()).isNull();
        // The script ran as Claude Code, with the task as its prompt after "--".
        Path args = s.workspace().worktree().resolve("args.txt");
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> Files.exists(args) && Files.size(args) > 0);
        List<String> argv = Files.readAllLines(args);
        assertThat(argv)
                .startsWith("-p", "--output-format", "stream-json")
                .contains("--model", "sonnet")
                .endsWith("--", "Explain the build");
    }

    @Test
    void twoClaudesAndOneCodexMakeOneGroupAsAgentsClaude2Codex1Would(FxRobot robot) throws Exception {
        NewSandboxViewModel vm = Panel.openNewSandboxDialog(robot);
        pick(robot, "claude");
        robot.clickOn("#new-sandbox-task").write("Speed up the tests");
        robot.interact(() -> {
            robot.lookup("#new-sandbox-count")
                    .queryAs(Spinner.class)
                    .getValueFactory()
                    .setValue(2);
            robot.lookup("#new-sandbox-count-codex")
                    .queryAs(Spinner.class)
                    .getValueFactory()
                    .setValue(1);
        });
        // The chosen agent has no second count.
        assertThat(shown(robot, "#new-sandbox-count-claude")).isFalse();
        assertThat(fx(() -> vm.agent().counts(vm.sandboxes()).toString())).isEqualTo("claude:2,codex:1");
        // Nobody picked a tier: each agent gets its own default, as with --agents.
        assertThat(fx(() -> vm.request().tier())).isNull();
        assertThat(fx(() -> robot.lookup("#new-sandbox-tier-note")
                        .queryAs(Label.class)
                        .getText()))
                .isEqualTo("Each"
                        + " agent runs on its own default tier unless you pick one: Claude Code on worktree, Codex on "
                        + AgentPreset.CODEX.defaultTier().id() + ".");
        assertThat(shown(robot, "#new-sandbox-tier-note")).isTrue();
        assertThat(fx(() -> vm.request().agentCommand())).isNull();
        Label check = node(robot, "#new-sandbox-branch-check", Label.class);
        WaitForAsyncUtils.waitFor(
                10,
                TimeUnit.SECONDS,
                () -> fx(check::getText)
                        .equals(
                                "3 sandboxes will start at"
                                        + " main, each on a branch of its own: agent/speed-up-tests-claude-1 to agent/speed-up-tests-codex-1."));

        // A model is one agent's: with two agents it keeps Create off and says why.
        robot.clickOn("#new-sandbox-model").write("sonnet");
        Label problem = node(robot, "#new-sandbox-agent-problem", Label.class);
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> fx(problem::isVisible));
        assertThat(fx(problem::getText)).startsWith("A model is one agent's: this fan-out runs claude, codex.");
        Button create = node(robot, "#new-sandbox-create", Button.class);
        assertThat(fx(create::isDisabled)).isTrue();
        robot.interact(() ->
                robot.lookup("#new-sandbox-model").queryAs(TextField.class).clear());
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> fx(() -> !create.isDisabled()));

        robot.clickOn(create);

        WaitForAsyncUtils.waitFor(
                30,
                TimeUnit.SECONDS,
                () -> fx(() -> robot.lookup("#new-sandbox-dialog").tryQuery().isEmpty()));
        List<SandboxRecord> made = made();
        assertThat(made).hasSize(3);
        String group = made.get(0).spec().group();
        assertThat(group).matches("speed-up-tests-\\d{8}-\\d{3}");
        assertThat(made).extracting(rec -> rec.spec().group()).containsOnly(group);
        assertThat(made).extracting(rec -> rec.spec().task()).containsOnly("Speed up the tests");
        assertThat(made)
                .extracting(SandboxRecord::id)
                .containsExactlyInAnyOrder(group + "-claude-1", group + "-claude-2", group + "-codex-1");
        assertThat(made).extracting(rec -> rec.spec().agent()).containsExactlyInAnyOrder("claude", "claude", "codex");
        assertThat(made)
                .filteredOn(s -> s.spec().agent().equals("claude"))
                .extracting(rec -> rec.spec().tier())
                .containsOnly(Tier.WORKTREE);
        assertThat(made)
                .filteredOn(s -> s.spec().agent().equals("codex"))
                .extracting(rec -> rec.spec().tier())
                .containsOnly(AgentPreset.CODEX.defaultTier());
    }

    @Test
    void aProgramThatIsGoneIsSaidWithItsFixAndFoundAgainOnceBack(FxRobot robot) throws Exception {
        Panel.openNewSandboxDialog(robot);
        Path moved = temp.resolve("claude.away");
        Files.move(claude, moved);
        // From an agent on another tier: the window is fitted to the tier's change before the program is known.
        pick(robot, "gemini");
        pick(robot, "claude");
        Label program = node(robot, "#new-sandbox-agent-program", Label.class);
        WaitForAsyncUtils.waitFor(
                10, TimeUnit.SECONDS, () -> fx(program::getText).startsWith("Not found"));
        assertThat(fx(program::getText))
                .isEqualTo("Not found: the setting agents.claude.executable names a program"
                        + " where there is no such file. Fix it with paddock config set agents.claude.executable"
                        + " /path/to/claude, or reset it (paddock config reset agents.claude.executable) to use claude on"
                        + " PATH.");
        assertThat(fx(() -> program.getStyleClass().contains("pd-field-warning")))
                .isTrue();
        Node again = node(robot, "#new-sandbox-agent-recheck", Node.class);
        assertThat(fx(again::isVisible)).isTrue();
        // The lines added under the agent grow the window (up to its screen) rather than push the form out of view.
        javafx.scene.control.ScrollPane scroll =
                robot.lookup(".pd-dialog-scroll").queryAs(javafx.scene.control.ScrollPane.class);
        javafx.stage.Window w = fx(() -> scroll.getScene().getWindow());
        javafx.geometry.Rectangle2D screen = fx(() ->
                javafx.stage.Screen.getScreensForRectangle(w.getX(), w.getY(), w.getWidth(), w.getHeight()).stream()
                        .findFirst()
                        .orElse(javafx.stage.Screen.getPrimary())
                        .getVisualBounds());
        WaitForAsyncUtils.waitFor(
                5,
                TimeUnit.SECONDS,
                () -> fx(() -> scroll.getViewportBounds().getHeight() + 0.5
                                >= scroll.getContent().getLayoutBounds().getHeight()
                        || w.getY() + w.getHeight() >= screen.getMaxY() - 1));

        Files.move(moved, claude);
        robot.clickOn(again);

        WaitForAsyncUtils.waitFor(
                10, TimeUnit.SECONDS, () -> fx(program::getText).startsWith("Runs "));
        assertThat(fx(again::isVisible)).isFalse();
        assertThat(fx(() -> program.getStyleClass().contains("pd-field-ok"))).isTrue();
    }

    @Test
    void tabReachesEveryFieldInOrderAndEscapeCancelsAnUntouchedForm(FxRobot robot) throws Exception {
        Panel.openNewSandboxDialog(robot);
        pick(robot, "codex");
        robot.clickOn("#new-sandbox-task");
        List<String> seen = new java.util.ArrayList<>();
        for (int i = 0; i < 30; i++) {
            robot.press(KeyCode.TAB).release(KeyCode.TAB);
            String id = fx(() -> {
                Node n = robot.lookup("#new-sandbox-dialog").query().getScene().getFocusOwner();
                while (n != null && n.getId() == null) {
                    n = n.getParent();
                }
                return n == null ? "" : n.getId();
            });
            if (!seen.contains(id)) {
                seen.add(id);
            }
        }
        assertThat(seen)
                .containsSubsequence(
                        "new-sandbox-model",
                        "new-sandbox-base",
                        "new-sandbox-branch",
                        "new-sandbox-count",
                        "new-sandbox-count-claude",
                        "new-sandbox-count-gemini",
                        "new-sandbox-count-aider",
                        "new-sandbox-cancel");
        // Create is off until a task is typed; Tab comes round to the agent.
        assertThat(seen).contains("new-sandbox-agent").doesNotContain("new-sandbox-command", "new-sandbox-count-codex");

        robot.press(KeyCode.ESCAPE).release(KeyCode.ESCAPE);
        WaitForAsyncUtils.waitFor(
                5,
                TimeUnit.SECONDS,
                () -> fx(() -> robot.lookup("#new-sandbox-dialog").tryQuery().isEmpty()));
        assertThat(made()).isEmpty();
    }
}
