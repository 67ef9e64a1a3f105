package dev.paddock.agent;

import static dev.paddock.testing.AgentRuns.awaitEnd;
import static dev.paddock.testing.AgentRuns.paddock;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.common.Json;
import dev.paddock.testing.AgentRuns.Run;
import dev.paddock.testing.ClaudeCli;
import dev.paddock.testing.ScriptedAnthropic;
import dev.paddock.testing.ScriptedAnthropic.Reply;
import dev.paddock.testing.ScriptedAnthropic.Script;
import dev.paddock.testing.ServeProcess;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code paddock sandbox new --agent claude --task TEXT} end to end: a real {@code paddock serve} (child JVM) whose
 * environment points Claude Code at a {@link ScriptedAnthropic}, the real Claude Code CLI started by the supervisor
 * in the worktree tier, its PreToolUse hook answered by Paddock's broker from the repository's policy
 * ({@code Bash(git status)} allowed), and the sandbox ending done. Without the CLI it fails when
 * {@code PADDOCK_REQUIRE_CLAUDE=1} (as in CI), else it is skipped ({@link ClaudeCli#require}).
 */
class ClaudeAgentSandboxTest {
    private static final String TASK = "-check the tree's status (a task that starts with a dash)";

    @TempDir
    Path tmp;

    @Test
    void theClaudeAgentGetsTheTaskAsksPaddockBeforeItsToolCallAndEndsDone() throws Exception {
        Path bin = ClaudeCli.require();
        Path agentHome = Files.createDirectories(tmp.resolve("agent-home"));
        try (ScriptedAnthropic api = ScriptedAnthropic.start(
                        Script.steps(Reply.bash("git status"), Reply.text("The tree is clean.")));
                ServeProcess serve = ServeProcess.start(tmp, ClaudeCli.serveEnvironment(bin, agentHome, api))) {
            Run created = paddock(
                    "--home",
                    serve.home().toString(),
                    "sandbox",
                    "new",
                    "--repo",
                    serve.repo().dir().toString(),
                    "--agent",
                    "claude",
                    "--task",
                    TASK,
                    "--json");
            assertThat(created.exit()).as(created.err() + serve.report()).isZero();
            JsonNode view = Json.mapper().readTree(created.out());
            String id = view.get("id").asText();
            assertThat(view.get("agent").asText()).isEqualTo("claude");

            JsonNode s = awaitEnd(serve, id, ClaudeCli.TIMEOUT);
            String log = serve.call("GET", "/v1/sandboxes/" + id + "/log", null).body();
            assertThat(s.get("state").asText())
                    .as(s + "\n--- log ---\n" + log + serve.report())
                    .isEqualTo("done");
            assertThat(s.get("exitCode").asInt()).isZero();

            // The CLI got the task as its prompt, one argument (a leading dash is no option).
            assertThat(api.turns()).hasSizeGreaterThanOrEqualTo(2);
            assertThat(api.turns().get(0).prompt()).isEqualTo(TASK);
            // Its PreToolUse hook reached Paddock's broker, which allowed git status by the repository's policy,
            // and the command's output went back to the model.
            JsonNode approvals = Json.mapper()
                    .readTree(serve.call("GET", "/v1/approvals", null).body())
                    .get("approvals");
            String session = s.get("agentSession").asText();
            assertThat(UUID.fromString(session).toString()).isEqualTo(session);
            assertThat(approvals)
                    .filteredOn(a -> a.get("sandboxId").asText().equals(id))
                    .singleElement()
                    .satisfies(a -> {
                        assertThat(a.get("tool").asText()).isEqualTo("Bash");
                        assertThat(a.get("request").asText()).contains("git status");
                        assertThat(a.get("state").asText()).isEqualTo("approved");
                        assertThat(a.get("sessionId").asText()).isEqualTo(session);
                    });
            assertThat(api.turns().get(1).lastToolResults())
                    .singleElement()
                    .asString()
                    .contains("On branch");

            // The session id Paddock chose and stored is the one the agent's stream names.
            HttpResponse<String> transcript = serve.call("GET", "/v1/sandboxes/" + id + "/transcript", null);
            assertThat(transcript.statusCode()).as(transcript.body()).isEqualTo(200);
            JsonNode t = Json.mapper().readTree(transcript.body());
            assertThat(t.get("sessionId").asText()).isEqualTo(session);
            assertThat(t.get("entries").findValuesAsText("type"))
                    .contains("session_started", "tool_call", "tool_result", "usage");
            assertThat(t.get("entries"))
                    .anySatisfy(e -> assertThat(e.path("text").asText()).isEqualTo("The tree is clean."));
            // The approval is stored with the id of the tool call it decided: the panel's transcript joins on it.
            String callId = null;
            for (JsonNode e : t.get("entries")) {
                if (e.path("type").asText().equals("tool_call")) {
                    callId = e.path("id").asText();
                }
            }
            assertThat(callId).startsWith("toolu_");
            String expectedId = callId;
            assertThat(approvals)
                    .filteredOn(a -> a.get("sandboxId").asText().equals(id))
                    .singleElement()
                    .satisfies(a -> assertThat(a.get("toolUseId").asText()).isEqualTo(expectedId));
            Run text = paddock("--home", serve.home().toString(), "sandbox", "transcript", id);
            assertThat(text.exit()).as(text.err()).isZero();
            assertThat(text.out())
                    .contains("session " + session)
                    .contains("-> Bash")
                    .contains("assistant: The tree is clean.");

            // The settings Paddock wrote are in the worktree but not in git's view of it; no key reached the log.
            Path worktree = Path.of(s.get("worktreePath").asText());
            JsonNode settings = Json.mapper()
                    .readTree(worktree.resolve(ClaudeSettingsWriter.RELATIVE).toFile());
            assertThat(settings.at("/hooks/PreToolUse/0/hooks/0/command").asText())
                    .contains("paddock-hook-claude");
            assertThat(git(worktree, "status", "--porcelain")).doesNotContain(".claude");
            assertThat(log).doesNotContain(ScriptedAnthropic.API_KEY);
            // The Stop hook wrote the turn's end for the supervisor.
            TurnSignal stop = TurnSignal.parse(Files.readString(serve.repo()
                            .dir()
                            .resolve(".worktrees")
                            .resolve(id)
                            .resolve(".paddock")
                            .resolve(PresetPrograms.TURN_FILE)))
                    .orElseThrow();
            assertThat(stop.kind()).isEqualTo(TurnSignal.Kind.TURN_ENDED);
            assertThat(stop.sessionId()).isEqualTo(session);
        }
    }

    /**
     * The namespace tier (bubblewrap: Paddock's home not shown), with a network for the model's API alone: the real
     * CLI's PreToolUse hook is the program Paddock shows it at {@code /run/paddock/bin}, which reaches the broker
     * through the sandbox's API socket; the broker allows {@code git status} by the policy and the run ends done.
     */
    @Test
    void inTheNamespaceTierTheHookReachesPaddockThroughTheSandboxSocket() throws Exception {
        Path bin = ClaudeCli.require();
        ClaudeCli.requireSandboxTools();
        Path agentHome = Files.createDirectories(tmp.resolve("agent-home"));
        try (ScriptedAnthropic api = ScriptedAnthropic.start(
                        Script.steps(Reply.bash("git status"), Reply.text("The tree is clean.")));
                ServeProcess serve = ServeProcess.start(tmp, ClaudeCli.serveEnvironment(bin, agentHome, api))) {
            Run created = paddock(
                    "--home",
                    serve.home().toString(),
                    "sandbox",
                    "new",
                    "--repo",
                    serve.repo().dir().toString(),
                    "--agent",
                    "claude",
                    "--tier",
                    "namespace",
                    "--network",
                    "--task",
                    "Look at the tree.",
                    "--json");
            assertThat(created.exit()).as(created.err() + serve.report()).isZero();
            String id = Json.mapper().readTree(created.out()).get("id").asText();

            JsonNode s = awaitEnd(serve, id, ClaudeCli.TIMEOUT);
            String log = serve.call("GET", "/v1/sandboxes/" + id + "/log", null).body();
            assertThat(s.get("state").asText())
                    .as(s + "\n--- log ---\n" + log + serve.report())
                    .isEqualTo("done");
            Path worktree = Path.of(s.get("worktreePath").asText());
            JsonNode settings = Json.mapper()
                    .readTree(worktree.resolve(ClaudeSettingsWriter.RELATIVE).toFile());
            assertThat(settings.at("/hooks/PreToolUse/0/hooks/0/command").asText())
                    .startsWith(dev.paddock.isolation.SandboxApi.BIN + "/paddock-hook-claude --timeout ");
            assertThat(settings.at("/hooks/Stop/0/hooks/0/command").asText())
                    .isEqualTo(dev.paddock.isolation.SandboxApi.BIN + "/" + TurnHook.NAME);
            JsonNode approvals = Json.mapper()
                    .readTree(serve.call("GET", "/v1/approvals", null).body())
                    .get("approvals");
            assertThat(approvals)
                    .filteredOn(a -> a.get("sandboxId").asText().equals(id))
                    .singleElement()
                    .satisfies(a -> {
                        assertThat(a.get("request").asText()).contains("git status");
                        assertThat(a.get("state").asText()).isEqualTo("approved");
                    });
            assertThat(api.turns()).hasSizeGreaterThanOrEqualTo(2);
            assertThat(api.turns().get(1).lastToolResults())
                    .singleElement()
                    .asString()
                    .contains("On branch");
        }
    }

    /**
     * "Waiting for you" and a follow-up, end to end: the Stop hook of the real CLI makes the done sandbox wait for
     * you; {@code paddock sandbox say} resumes the same session (the model is sent the earlier conversation with the
     * follow-up), the wait ends as the follow-up starts, and a second follow-up is refused while the agent is at work.
     */
    @Test
    void theStopHookMakesItWaitForYouAndSandboxSayResumesTheSameSession() throws Exception {
        Path bin = ClaudeCli.require();
        Path agentHome = Files.createDirectories(tmp.resolve("agent-home"));
        String followUp = "Now say it once more, louder.";
        try (ScriptedAnthropic api = ScriptedAnthropic.start(t -> t.prompt().equals(followUp)
                        ? Reply.text("THE TREE IS CLEAN.")
                        : Reply.text("The tree is clean."));
                ServeProcess serve = ServeProcess.start(tmp, ClaudeCli.serveEnvironment(bin, agentHome, api))) {
            String home = serve.home().toString();
            Run created = paddock(
                    "--home",
                    home,
                    "sandbox",
                    "new",
                    "--repo",
                    serve.repo().dir().toString(),
                    "--agent",
                    "claude",
                    "--task",
                    "Look at the tree.",
                    "--json");
            assertThat(created.exit()).as(created.err() + serve.report()).isZero();
            String id = Json.mapper().readTree(created.out()).get("id").asText();

            JsonNode s = awaitEnd(serve, id, ClaudeCli.TIMEOUT);
            assertThat(s.get("state").asText()).as(s + serve.report()).isEqualTo("done");
            String session = s.get("agentSession").asText();
            JsonNode first = detail(serve, id);
            assertThat(first.at("/waiting/kind").asText()).as(first.toString()).isEqualTo("turn_ended");
            assertThat(first.at("/waiting/sessionId").asText()).isEqualTo(session);
            assertThat(first.at("/waiting/detail").asText()).isEqualTo("The tree is clean.");
            assertThat(first.get("history").findValuesAsText("kind")).containsOnlyOnce("agent.turn_ended");
            int turnsBefore = api.turns().size();

            Run said = paddock("--home", home, "sandbox", "say", id, followUp);
            assertThat(said.exit()).as(said.err()).isZero();
            assertThat(said.out()).contains("Sent the follow-up to " + id).contains("session " + session);
            JsonNode asked = detail(serve, id);
            // The wait ended as the follow-up was taken; the agent is at work again, so another one is refused.
            assertThat(asked.get("waiting").isNull()).as(asked.toString()).isTrue();
            assertThat(asked.at("/sandbox/state").asText()).isIn("retrying", "running", "done");
            assertThat(asked.at("/followUp/text").asText()).isEqualTo(followUp);
            if (!asked.at("/sandbox/state").asText().equals("done")) {
                Run busy = paddock("--home", home, "sandbox", "say", id, "and one more thing");
                assertThat(busy.exit()).isNotZero();
                assertThat(busy.err()).contains("its agent is still at work");
            }

            JsonNode again = awaitEnd(serve, id, ClaudeCli.TIMEOUT);
            assertThat(again.get("state").asText()).as(again + serve.report()).isEqualTo("done");
            assertThat(again.get("iteration").asInt()).isEqualTo(2);
            assertThat(again.get("agentSession").asText()).isEqualTo(session);
            // The same session: the model saw the first prompt and answer before the follow-up.
            ScriptedAnthropic.Turn resumed = api.turns().get(api.turns().size() - 1);
            assertThat(api.turns().size()).isGreaterThan(turnsBefore);
            assertThat(resumed.prompt()).isEqualTo(followUp);
            assertThat(resumed.request().get("messages").toString())
                    .contains("Look at the tree.")
                    .contains("The tree is clean.");
            TurnSignal stop = TurnSignal.parse(Files.readString(serve.repo()
                            .dir()
                            .resolve(".worktrees")
                            .resolve(id)
                            .resolve(".paddock")
                            .resolve(PresetPrograms.TURN_FILE)))
                    .orElseThrow();
            assertThat(stop.sessionId()).isEqualTo(session);
            JsonNode second = detail(serve, id);
            assertThat(second.at("/waiting/run").asInt()).isEqualTo(2);
            assertThat(second.at("/waiting/detail").asText()).isEqualTo("THE TREE IS CLEAN.");
            assertThat(second.get("history").findValuesAsText("kind"))
                    .containsSubsequence(
                            "agent.turn_ended",
                            "sandbox.follow_up",
                            "sandbox.running",
                            "agent.turn_ended",
                            "sandbox.done");
        }
    }

    private static JsonNode detail(ServeProcess serve, String id) throws Exception {
        return Json.mapper()
                .readTree(serve.call("GET", "/v1/sandboxes/" + id, null).body());
    }

    private static String git(Path dir, String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of("git", "-C", dir.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isZero();
        return out;
    }
}
