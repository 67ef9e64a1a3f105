package dev.paddock.ui.sandboxes;

import static dev.paddock.ui.sandboxes.Panel.fx;
import static dev.paddock.ui.sandboxes.Panel.node;
import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.approval.Approval;
import dev.paddock.approval.ApprovalState;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.Tier;
import dev.paddock.testing.ClaudeCli;
import dev.paddock.testing.ScriptedAnthropic;
import dev.paddock.testing.ScriptedAnthropic.Reply;
import dev.paddock.testing.ScriptedAnthropic.Turn;
import dev.paddock.testing.TempRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.TextField;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * A Claude Code agent end to end in the real panel: the real {@code claude} CLI, started by Paddock's supervisor in
 * the worktree tier against a {@link ScriptedAnthropic}, whose scripted model (a) runs a command the policy allows,
 * (b) asks for a {@code git push}, which waits in the approval queue until a click on Approve, (c) tries a denied
 * command and is told why, and (d) writes a file and commits it. Then the Transcript tab shows the calls with their
 * decisions, the Stop hook makes the sandbox wait for you, a follow-up typed in the details pane resumes the same
 * session, and nothing Paddock wrote for the hooks is in any commit. Without the CLI it fails when
 * {@code PADDOCK_REQUIRE_CLAUDE=1} (as in CI), else it is skipped ({@link ClaudeCli#require}).
 */
@ExtendWith(ApplicationExtension.class)
class ClaudeAgentPanelTest {
    private static final String POLICY = "{\"permissions\": {\"allow\": [\"Bash(git status)\", \"Bash(git add:*)\","
            + " \"Bash(git commit:*)\", \"Edit(./**)\"], \"deny\": [\"Bash(rm -rf:*)\"],"
            + " \"ask\": [\"Bash(git push:*)\"]}}";
    private static final String TASK = "Write the release notes and publish the branch.";
    private static final String FOLLOW_UP = "Say what you did, in one line.";

    @TempDir
    Path temp;

    private Stage stage;
    private Panel panel;

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @AfterEach
    void closePanel() throws Exception {
        if (panel != null) {
            panel.close();
        }
    }

    @Test
    void allowedAskedDeniedAndACommitShowInTheTranscriptAndAFollowUpResumesTheSession(FxRobot robot) throws Exception {
        Path bin = ClaudeCli.require();
        AtomicReference<Path> worktree = new AtomicReference<>();
        try (ScriptedAnthropic api = ScriptedAnthropic.start(t -> reply(t, worktree.get()))) {
            panel = Panel.start(temp, stage, environment(bin, api));
            TempRepo repo = panel.repo;
            Path origin = TempRepo.initBare(temp.resolve("origin.git"), false);
            repo.git("remote", "add", "origin", origin.toString());
            Files.createDirectories(repo.dir().resolve(".paddock"));
            Files.writeString(repo.dir().resolve(".paddock/policy.json"), POLICY);
            repo.git("add", ".paddock/policy.json");
            repo.git("commit", "-q", "-m", "Add the policy");
            panel.show(1366, 768);

            SandboxRecord s = panel.host
                    .wiring()
                    .sandboxService()
                    .create(NewSandbox.custom(repo.dir(), TASK, null)
                            .agent("claude")
                            .tier(Tier.WORKTREE)
                            .maxRetries(0)
                            .build());
            worktree.set(s.workspace().worktree());

            // (b) The push waits in the approval queue; a click on Approve lets Claude Code run it.
            Approval push = await(
                    "the push to wait for a person",
                    90,
                    () -> panel.host.wiring().approvals().list(ApprovalState.PENDING, 10).stream()
                            .filter(a -> a.request().startsWith("git push"))
                            .findFirst()
                            .orElse(null));
            assertThat(push.sandboxId()).isEqualTo(s.id());
            robot.clickOn(approveButton(robot, push.id()));
            waitFor(
                    "the click to approve the push",
                    20,
                    () -> panel.host
                                    .wiring()
                                    .approvals()
                                    .find(push.id())
                                    .orElseThrow()
                                    .state()
                            == ApprovalState.APPROVED,
                    () -> String.valueOf(
                            panel.host.wiring().approvals().find(push.id()).orElseThrow()));
            waitFor(
                    "the run to end",
                    120,
                    () -> !panel.host
                            .wiring()
                            .sandboxes()
                            .find(s.id())
                            .orElseThrow()
                            .state()
                            .mayHaveProcess(),
                    () -> "model turns: " + api.turns().size() + ", last results: "
                            + api.turns().get(api.turns().size() - 1).lastToolResults() + "\n--- log ---\n"
                            + Files.readString(
                                    panel.host.wiring().sandboxService().logFile(s.id())));
            panel.waitForState(s.id(), "done", 10);

            // The model was given the task, each command's output, and the deny's reason.
            assertThat(api.turns().get(0).prompt()).isEqualTo(TASK);
            List<String> results = api.turns().stream()
                    .flatMap(t -> t.lastToolResults().stream())
                    .toList();
            assertThat(results).anySatisfy(r -> assertThat(r).contains("On branch"));
            assertThat(results).anySatisfy(r -> assertThat(r).contains("Bash(rm -rf:*)"));
            assertThat(TempRepo.run(
                                    origin,
                                    "rev-parse",
                                    "--verify",
                                    "refs/heads/" + s.workspace().branch())
                            .exitCode())
                    .as("the approved push reached origin")
                    .isZero();
            // (d) The commit holds the notes and nothing Paddock wrote for the hooks, in any commit.
            assertThat(repo.git("show", s.workspace().branch() + ":NOTES.md")).isEqualTo("Release notes\n");
            String everyFile = repo.git("log", "--all", "--name-only", "--format=");
            assertThat(everyFile)
                    .contains("NOTES.md")
                    .doesNotContain(".claude/")
                    .doesNotContain("turn.json");
            assertThat(panel.host
                            .wiring()
                            .approvals()
                            .find(push.id())
                            .orElseThrow()
                            .state())
                    .isEqualTo(ApprovalState.APPROVED);

            // The Transcript tab: each call with what was decided about it.
            panel.select(robot, s.id());
            @SuppressWarnings("unchecked")
            ListView<TranscriptRow> list = node(robot, "#" + TranscriptPane.LIST_ID, ListView.class);
            String who = fx(() -> panel.vm.dashboard().approvals().who());
            Map<String, String> expected = Map.of(
                    "git status",
                    "allowed",
                    "git push origin HEAD",
                    "asked · approved by " + who,
                    "rm -rf build",
                    "denied",
                    "NOTES.md",
                    "allowed",
                    "git add NOTES.md && git commit -q -m 'Add release notes'",
                    "allowed");
            waitFor(
                    "the transcript shows every call with its decision",
                    20,
                    () -> fx(() -> expected.entrySet().stream()
                            .allMatch(e -> list.getItems().stream()
                                    .anyMatch(r -> r.kind() == TranscriptRow.Kind.TOOL_CALL
                                            && r.text().contains(e.getKey())
                                            && r.decision() != null
                                            && r.decision().text().equals(e.getValue())))));
            TranscriptRow denied = fx(() -> list.getItems().stream()
                    .filter(r ->
                            r.kind() == TranscriptRow.Kind.TOOL_CALL && r.text().contains("rm -rf build"))
                    .findFirst()
                    .orElseThrow());
            assertThat(denied.decision().reason()).contains("Bash(rm -rf:*)");

            // The Stop hook: it waits for you, and a follow-up from the details pane resumes the same session.
            Path turnFile = repo.dir()
                    .resolve(".worktrees")
                    .resolve(s.id())
                    .resolve(".paddock")
                    .resolve("turn.json");
            waitFor(
                    "the sandbox waits for you",
                    20,
                    () -> panel.row(s.id()).map(r -> r.waitingForYou()).orElse(false),
                    () -> panel.row(s.id()) + "\nturn file: "
                            + (Files.exists(turnFile) ? Files.readString(turnFile) : "none"));
            String session = panel.host
                    .wiring()
                    .sandboxes()
                    .find(s.id())
                    .orElseThrow()
                    .run()
                    .agentSession();
            TextField field = node(robot, "#sandbox-follow-up", TextField.class);
            robot.clickOn(field).write(FOLLOW_UP);
            waitFor(
                    "the follow-up can be sent",
                    20,
                    () -> fx(() -> !node(robot, "#sandbox-follow-up-send", Button.class)
                            .isDisabled()),
                    () -> fx(field::getText));
            robot.clickOn("#sandbox-follow-up-send");
            waitFor(
                    "the model is asked the follow-up",
                    60,
                    () -> api.turns().stream().anyMatch(t -> FOLLOW_UP.equals(t.prompt())));
            Turn resumed = api.turns().stream()
                    .filter(t -> FOLLOW_UP.equals(t.prompt()))
                    .findFirst()
                    .orElseThrow();
            assertThat(resumed.request().get("messages").toString())
                    .as("the same conversation")
                    .contains(TASK);
            waitFor(
                    "the follow-up's turn ends",
                    60,
                    () -> panel.row(s.id())
                            .map(r -> "done".equals(r.state()) && r.waitingForYou())
                            .orElse(false));
            assertThat(panel.host
                            .wiring()
                            .sandboxes()
                            .find(s.id())
                            .orElseThrow()
                            .run()
                            .agentSession())
                    .isEqualTo(session);
            assertThat(Files.readString(panel.host.wiring().sandboxService().logFile(s.id())))
                    .doesNotContain(ScriptedAnthropic.API_KEY);
        }
    }

    /** The scripted model: the four calls, one per turn, then a last word; the follow-up gets one line. */
    private static Reply reply(Turn t, Path worktree) {
        if (FOLLOW_UP.equals(t.prompt())) {
            return Reply.text("Wrote NOTES.md, committed it and pushed the branch.");
        }
        return switch (t.turnsSincePrompt()) {
            case 0 -> Reply.bash("git status");
            case 1 -> Reply.bash("git push origin HEAD");
            case 2 -> Reply.bash("rm -rf build");
            case 3 -> Reply.write(worktree.resolve("NOTES.md").toString(), "Release notes\n");
            case 4 -> Reply.bash("git add NOTES.md && git commit -q -m 'Add release notes'");
            default -> Reply.text("The notes are committed and the branch is published.");
        };
    }

    /** Paddock's own environment: Claude Code on PATH, the scripted API, a private config, nothing phoning home. */
    private Map<String, String> environment(Path bin, ScriptedAnthropic api) throws Exception {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("PATH", bin.getParent() + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        env.put("ANTHROPIC_BASE_URL", api.baseUrl());
        env.put("ANTHROPIC_API_KEY", ScriptedAnthropic.API_KEY);
        env.remove("ANTHROPIC_AUTH_TOKEN");
        env.remove("CLAUDE_CODE_OAUTH_TOKEN");
        env.put(
                "CLAUDE_CONFIG_DIR",
                Files.createDirectories(temp.resolve("agent-config")).toString());
        env.put("DISABLE_TELEMETRY", "1");
        env.put("DISABLE_ERROR_REPORTING", "1");
        env.put("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
        return env;
    }

    /** The Approve button of request {@code id} in the approval queue, once its row shows. */
    private static Node approveButton(FxRobot robot, long id) throws Exception {
        waitFor(
                "the request shows in the approval queue",
                20,
                () -> fx(() -> robot.lookup("#approval-list")
                        .lookup((Node n) -> n instanceof ListCell<?> c
                                && c.isVisible()
                                && c.getItem() instanceof Approval a
                                && a.id() == id)
                        .lookup("#approval-approve")
                        .tryQuery()
                        .isPresent()));
        return fx(() -> robot.lookup("#approval-list")
                .lookup((Node n) -> n instanceof ListCell<?> c
                        && c.isVisible()
                        && c.getItem() instanceof Approval a
                        && a.id() == id)
                .lookup("#approval-approve")
                .query());
    }

    private static <T> T await(String what, int seconds, Callable<T> value) throws Exception {
        AtomicReference<T> got = new AtomicReference<>();
        waitFor(what, seconds, () -> {
            got.set(value.call());
            return got.get() != null;
        });
        return got.get();
    }

    private static void waitFor(String what, int seconds, Callable<Boolean> condition) throws Exception {
        waitFor(what, seconds, condition, () -> "");
    }

    private static void waitFor(String what, int seconds, Callable<Boolean> condition, Callable<String> then)
            throws Exception {
        try {
            WaitForAsyncUtils.waitFor(seconds, TimeUnit.SECONDS, condition);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("timed out waiting for " + what + "; " + then.call(), e);
        }
    }
}
