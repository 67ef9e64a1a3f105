package dev.paddock.agent;

import static dev.paddock.testing.AgentRuns.awaitEnd;
import static dev.paddock.testing.AgentRuns.filesHolding;
import static dev.paddock.testing.AgentRuns.paddock;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.common.Json;
import dev.paddock.testing.AgentRuns.Run;
import dev.paddock.testing.CodexCli;
import dev.paddock.testing.ScriptedOpenAI;
import dev.paddock.testing.ScriptedOpenAI.Reply;
import dev.paddock.testing.ScriptedOpenAI.Script;
import dev.paddock.testing.ServeProcess;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code paddock sandbox new --agent codex --task TEXT} end to end: a real {@code paddock serve} (child JVM) whose
 * user's Codex configuration makes a {@link ScriptedOpenAI} the model provider, the real Codex CLI started by the
 * supervisor in its default tier (namespace: bubblewrap, with a network so it reaches the loopback server), the
 * thread id Codex picked stored as the sandbox's agent session, and {@code paddock sandbox say} resuming that
 * thread. Without the CLI it fails when {@code PADDOCK_REQUIRE_CODEX=1} (as in CI), else it is skipped
 * ({@link CodexCli#require}).
 */
class CodexAgentSandboxTest {
    private static final String TASK = "-check the tree and leave a note (a task that starts with a dash)";
    private static final String FOLLOW_UP = "Now say it once more, louder.";

    @TempDir
    Path tmp;

    @Test
    void theCodexAgentRunsACommandAndAPatchThenSandboxSayResumesItsThread() throws Exception {
        Path bin = CodexCli.require();
        CodexCli.requireNamespaceTier();
        Path agentHome = Files.createDirectories(tmp.resolve("agent-home"));
        try (ScriptedOpenAI api = ScriptedOpenAI.start(t -> t.prompt().equals(FOLLOW_UP)
                        ? Reply.text("THE TREE IS CLEAN.")
                        : Script.steps(
                                        Reply.exec("git status"),
                                        Reply.exec("rm -rf build"),
                                        Reply.addFile("notes.txt", "checked by codex"),
                                        Reply.text("The tree is clean."))
                                .reply(t));
                ServeProcess serve = ServeProcess.start(tmp, serveEnvironment(bin, agentHome, api))) {
            CodexCli.configure(agentHome.resolve(".codex"), api);
            // The repository's policy: Codex's PreToolUse hook asks Paddock before each call.
            Files.createDirectories(serve.repo().dir().resolve(".paddock"));
            Files.writeString(
                    serve.repo().dir().resolve(".paddock/policy.json"),
                    "{\"permissions\": {\"allow\":"
                            + " [\"Bash(git status)\", \"Edit(./**)\"], \"deny\": [\"Bash(rm -rf:*)\"]}}");
            serve.repo().commitAll("policy");
            String home = serve.home().toString();
            Run created = paddock(
                    "--home",
                    home,
                    "sandbox",
                    "new",
                    "--repo",
                    serve.repo().dir().toString(),
                    "--agent",
                    "codex",
                    "--network",
                    "--task",
                    TASK,
                    "--json");
            assertThat(created.exit()).as(created.err() + serve.report()).isZero();
            JsonNode view = Json.mapper().readTree(created.out());
            String id = view.get("id").asText();
            assertThat(view.get("agent").asText()).isEqualTo("codex");
            assertThat(view.get("tier").asText()).isEqualTo("namespace");

            JsonNode s = awaitEnd(serve, id, CodexCli.TIMEOUT);
            String log = serve.call("GET", "/v1/sandboxes/" + id + "/log", null).body();
            assertThat(s.get("state").asText())
                    .as(s + "\n--- log ---\n" + log + serve.report())
                    .isEqualTo("done");
            // One turn per run, and no turn hook: the run's good end is its turn's end, so it waits for you.
            JsonNode waiting = Json.mapper()
                    .readTree(serve.call("GET", "/v1/sandboxes/" + id, null).body())
                    .get("waiting");
            assertThat(waiting.path("kind").asText()).as(waiting.toString()).isEqualTo("turn_ended");
            assertThat(waiting.path("sessionId").asText())
                    .isEqualTo(s.get("agentSession").asText());
            assertThat(s.get("exitCode").asInt()).isZero();

            // The task reached the model as the prompt (one argument: a leading dash is no option); the command ran
            // in the worktree and its output went back; the patch wrote the file.
            assertThat(api.turns()).hasSize(4);
            assertThat(api.turns().get(0).prompt()).isEqualTo(TASK);
            assertThat(api.turns().get(1).lastToolResults())
                    .singleElement()
                    .asString()
                    .contains("On branch");
            // The denied command was blocked by Paddock's hook, with the policy's reason.
            assertThat(api.turns().get(2).lastToolResults())
                    .singleElement()
                    .asString()
                    .contains("blocked by PreToolUse hook")
                    .contains("Bash(rm -rf:*)");
            JsonNode approvals = Json.mapper()
                    .readTree(serve.call("GET", "/v1/approvals", null).body())
                    .get("approvals");
            assertThat(approvals)
                    .filteredOn(a -> a.get("sandboxId").asText().equals(id))
                    .extracting(a -> a.get("tool").asText() + " "
                            + a.get("request").asText() + " " + a.get("state").asText() + " "
                            + a.path("toolUseId").asText().startsWith("call_"))
                    .containsExactlyInAnyOrder(
                            "Bash git status approved true",
                            "Bash rm -rf build denied true",
                            "Edit notes.txt approved true");
            Path worktree = Path.of(s.get("worktreePath").asText());
            assertThat(Files.readString(worktree.resolve("notes.txt"))).isEqualTo("checked by codex\n");

            // The thread Codex picked is stored as the agent session, and the transcript (from the real JSON lines)
            // names it and shows the message and the calls.
            String thread = s.get("agentSession").asText();
            assertThat(UUID.fromString(thread).toString()).isEqualTo(thread);
            HttpResponse<String> transcript = serve.call("GET", "/v1/sandboxes/" + id + "/transcript", null);
            assertThat(transcript.statusCode()).as(transcript.body()).isEqualTo(200);
            JsonNode t = Json.mapper().readTree(transcript.body());
            assertThat(t.get("sessionId").asText()).isEqualTo(thread);
            assertThat(t.get("entries").findValuesAsText("type"))
                    .contains("session_started", "tool_call", "tool_result", "usage");
            assertThat(t.get("entries"))
                    .anySatisfy(e -> assertThat(e.path("text").asText()).isEqualTo("The tree is clean."));
            Run text = paddock("--home", home, "sandbox", "transcript", id);
            assertThat(text.exit()).as(text.err()).isZero();
            assertThat(text.out())
                    .contains("session " + thread)
                    .contains("-> command_execution")
                    .contains("git status")
                    .contains("-> file_change")
                    .contains("notes.txt")
                    .contains("assistant: The tree is clean.");
            int turnsBefore = api.turns().size();

            // A follow-up resumes the same thread: Codex sends the earlier conversation with it.
            Run said = paddock("--home", home, "sandbox", "say", id, FOLLOW_UP);
            assertThat(said.exit()).as(said.err()).isZero();
            assertThat(said.out()).contains("Sent the follow-up to " + id).contains("session " + thread);
            JsonNode again = awaitEnd(serve, id, CodexCli.TIMEOUT);
            String log2 =
                    serve.call("GET", "/v1/sandboxes/" + id + "/log", null).body();
            assertThat(again.get("state").asText())
                    .as(again + "\n--- log ---\n" + log2 + serve.report())
                    .isEqualTo("done");
            assertThat(again.get("iteration").asInt()).isEqualTo(2);
            assertThat(again.get("agentSession").asText()).isEqualTo(thread);
            assertThat(api.turns().size()).isGreaterThan(turnsBefore);
            ScriptedOpenAI.Turn resumed = api.turns().get(api.turns().size() - 1);
            assertThat(resumed.prompt()).isEqualTo(FOLLOW_UP);
            assertThat(resumed.texts()).contains("user: " + TASK, "assistant: The tree is clean.");
            assertThat(log2).contains("\"thread_id\":\"" + thread + "\"").contains("THE TREE IS CLEAN.");

            // The key reached the model (the scripted server refuses any other) and nothing else: not the log, not
            // the sandbox's events, not a file of Paddock's home (its store) or of the sandbox's control directory.
            api.requests().stream()
                    .filter(r -> r.path().endsWith("/responses"))
                    .forEach(r ->
                            assertThat(r.headers().get("authorization")).isEqualTo("Bearer " + ScriptedOpenAI.API_KEY));
            assertThat(log2).doesNotContain(ScriptedOpenAI.API_KEY);
            assertThat(serve.call("GET", "/v1/sandboxes/" + id, null).body()).doesNotContain(ScriptedOpenAI.API_KEY);
            assertThat(filesHolding(serve.home(), ScriptedOpenAI.API_KEY)).isEmpty();
            assertThat(filesHolding(worktree.getParent(), ScriptedOpenAI.API_KEY))
                    .isEmpty();
        }
    }

    /** What {@code paddock serve} has in its environment: Codex on PATH, its key, a HOME whose Codex config is ours. */
    private static Map<String, String> serveEnvironment(Path bin, Path agentHome, ScriptedOpenAI api) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PATH", bin.getParent() + ":/usr/local/bin:/usr/bin:/bin");
        env.put("HOME", agentHome.toString());
        env.put("OPENAI_API_KEY", ScriptedOpenAI.API_KEY);
        env.put("CODEX_HOME", null);
        env.put("CODEX_API_KEY", null);
        env.put("OPENAI_BASE_URL", null);
        return env;
    }
}
