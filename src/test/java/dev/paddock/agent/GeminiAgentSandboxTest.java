package dev.paddock.agent;

import static dev.paddock.testing.AgentRuns.awaitEnd;
import static dev.paddock.testing.AgentRuns.filesHolding;
import static dev.paddock.testing.AgentRuns.paddock;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.common.Json;
import dev.paddock.testing.AgentRuns.Run;
import dev.paddock.testing.GeminiCli;
import dev.paddock.testing.ScriptedGemini;
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
 * {@code paddock sandbox new --agent gemini --task TEXT} end to end: a real {@code paddock serve} (child JVM) with
 * the key and a {@link ScriptedGemini} as the Gemini API in its environment, and user settings that choose no auth
 * type; the real Gemini CLI started by the supervisor in its default tier (namespace: bubblewrap, no home of the
 * user's, a network so it reaches the loopback server) with its home in the control directory ({@link GeminiHome});
 * the model reads a file of the worktree, and {@code paddock sandbox say} resumes the same session. Without the CLI
 * it fails when {@code PADDOCK_REQUIRE_GEMINI=1} (as in CI), else it is skipped ({@link GeminiCli#require}).
 */
class GeminiAgentSandboxTest {
    private static final String TASK = "-read the notes and sum them up (a task that starts with a dash)";
    private static final String FOLLOW_UP = "Now say it once more, louder.";
    private static final String MODEL = "gemini-2.5-pro";

    @TempDir
    Path tmp;

    @Test
    void theGeminiAgentReadsAFileThenSandboxSayResumesItsSession() throws Exception {
        Path bin = GeminiCli.require();
        GeminiCli.requireNamespaceTier();
        Path agentHome = Files.createDirectories(tmp.resolve("agent-home"));
        // The user's settings choose no auth type: Paddock's copy chooses the key's.
        Path userGemini = Files.createDirectories(agentHome.resolve(".gemini"));
        Files.writeString(userGemini.resolve("settings.json"), "{\"ui\": {\"hideTips\": true}}");
        Files.writeString(userGemini.resolve("oauth_creds.json"), "{\"refresh_token\": \"not-for-sandboxes\"}");
        try (ScriptedGemini api = ScriptedGemini.start(t -> t.prompt().equals(FOLLOW_UP)
                        ? ScriptedGemini.text("THE NOTES SAY 42.")
                        : t.lastFunctionResponses().isEmpty()
                                ? ScriptedGemini.call(
                                        "read_file",
                                        Json.mapper().createObjectNode().put("file_path", "NOTES.md"))
                                : t.lastFunctionResponses().get(0).toString().contains("read_file")
                                        ? ScriptedGemini.call(
                                                "run_shell_command",
                                                Json.mapper().createObjectNode().put("command", "rm -rf build"))
                                        : ScriptedGemini.text("The notes say 42."));
                ServeProcess serve = ServeProcess.start(tmp, serveEnvironment(bin, agentHome, api))) {
            Path notes = serve.repo().dir().resolve("NOTES.md");
            Files.writeString(notes, "the answer is 42\n");
            // The repository's policy, in Claude Code's notation, judges Gemini's tools as the ones they match.
            Files.createDirectories(serve.repo().dir().resolve(".paddock"));
            Files.writeString(
                    serve.repo().dir().resolve(".paddock/policy.json"),
                    "{\"permissions\": {\"allow\":"
                            + " [\"Read(./**)\", \"Bash(git status)\"], \"deny\": [\"Bash(rm -rf:*)\"]}}");
            serve.repo().commitAll("notes");
            String home = serve.home().toString();
            Run created = paddock(
                    "--home",
                    home,
                    "sandbox",
                    "new",
                    "--repo",
                    serve.repo().dir().toString(),
                    "--agent",
                    "gemini",
                    "--model",
                    MODEL,
                    "--network",
                    "--task",
                    TASK,
                    "--json");
            assertThat(created.exit()).as(created.err() + serve.report()).isZero();
            JsonNode view = Json.mapper().readTree(created.out());
            String id = view.get("id").asText();
            assertThat(view.get("agent").asText()).isEqualTo("gemini");
            assertThat(view.get("tier").asText()).isEqualTo("namespace");

            JsonNode s = awaitEnd(serve, id, GeminiCli.TIMEOUT);
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

            // The task reached the model as the prompt (one argument: a leading dash is no option), with every tool
            // (Paddock's hook decides each call); the file was read in the worktree and its text went back, and the
            // shell command the policy denies was blocked with Paddock's reason.
            assertThat(api.turns()).hasSize(3);
            assertThat(api.turns().get(0).prompt()).isEqualTo(TASK);
            assertThat(api.turns().get(0).tools()).contains("read_file", "run_shell_command", "write_file");
            assertThat(api.turns().get(1).lastFunctionResponses())
                    .singleElement()
                    .asString()
                    .contains("the answer is 42");
            assertThat(api.turns().get(2).lastFunctionResponses())
                    .singleElement()
                    .asString()
                    .contains("blocked")
                    .contains("Paddock")
                    .contains("Bash(rm -rf:*)");
            JsonNode approvals = Json.mapper()
                    .readTree(serve.call("GET", "/v1/approvals", null).body())
                    .get("approvals");
            assertThat(approvals)
                    .filteredOn(a -> a.get("sandboxId").asText().equals(id))
                    .extracting(a -> a.get("tool").asText() + " "
                            + a.get("request").asText() + " " + a.get("state").asText())
                    .containsExactlyInAnyOrder("Read NOTES.md approved", "Bash rm -rf build denied");

            // The session Paddock chose is the one Gemini ran, and the transcript shows the call and the message.
            String session = s.get("agentSession").asText();
            assertThat(UUID.fromString(session).toString()).isEqualTo(session);
            HttpResponse<String> transcript = serve.call("GET", "/v1/sandboxes/" + id + "/transcript", null);
            assertThat(transcript.statusCode()).as(transcript.body()).isEqualTo(200);
            JsonNode t = Json.mapper().readTree(transcript.body());
            assertThat(t.get("sessionId").asText()).isEqualTo(session);
            assertThat(t.get("entries").findValuesAsText("type"))
                    .contains("session_started", "tool_call", "tool_result", "usage");
            Run text = paddock("--home", home, "sandbox", "transcript", id);
            assertThat(text.exit()).as(text.err()).isZero();
            assertThat(text.out())
                    .contains("session " + session)
                    .contains("-> read_file")
                    .contains("NOTES.md")
                    .contains("assistant: The notes say 42.");

            // Its home is in the control directory: the user's settings with the key's auth type, the session
            // stored there; no Google login copied.
            Path geminiHome = Path.of(s.get("worktreePath").asText()).getParent();
            while (!geminiHome.resolve(".paddock").toFile().isDirectory()) {
                geminiHome = geminiHome.getParent();
            }
            geminiHome = geminiHome.resolve(".paddock").resolve("gemini-home").resolve(".gemini");
            JsonNode settings =
                    Json.mapper().readTree(geminiHome.resolve("settings.json").toFile());
            assertThat(settings.at("/security/auth/selectedType").asText()).isEqualTo("gemini-api-key");
            assertThat(settings.at("/ui/hideTips").asBoolean()).isTrue();
            assertThat(settings.at("/hooks/BeforeTool/0/hooks/0/command").asText())
                    .startsWith(dev.paddock.isolation.SandboxApi.BIN + "/paddock-hook-claude --timeout ");
            assertThat(geminiHome.resolve("oauth_creds.json")).doesNotExist();
            assertThat(filesHolding(geminiHome.resolve("tmp"), session)).isNotEmpty();
            int turnsBefore = api.turns().size();

            // A follow-up resumes the same session: Gemini sends the earlier conversation with it.
            Run said = paddock("--home", home, "sandbox", "say", id, FOLLOW_UP);
            assertThat(said.exit()).as(said.err()).isZero();
            assertThat(said.out()).contains("Sent the follow-up to " + id).contains("session " + session);
            JsonNode again = awaitEnd(serve, id, GeminiCli.TIMEOUT);
            String log2 =
                    serve.call("GET", "/v1/sandboxes/" + id + "/log", null).body();
            assertThat(again.get("state").asText())
                    .as(again + "\n--- log ---\n" + log2 + serve.report())
                    .isEqualTo("done");
            assertThat(again.get("iteration").asInt()).isEqualTo(2);
            assertThat(again.get("agentSession").asText()).isEqualTo(session);
            assertThat(api.turns().size()).isEqualTo(turnsBefore + 1);
            ScriptedGemini.Turn resumed = api.turns().get(api.turns().size() - 1);
            assertThat(resumed.prompt()).isEqualTo(FOLLOW_UP);
            assertThat(resumed.texts()).contains("user: " + TASK, "model: The notes say 42.");
            assertThat(log2).contains("\"session_id\":\"" + session + "\"").contains("THE NOTES SAY 42.");

            // The key reached the API (the scripted server refuses any other) and nothing else: not the log, not
            // the sandbox's events, not a file of Paddock's home (its store) or of the sandboxes' folders.
            api.requests().stream()
                    .filter(r -> r.path().contains(":streamGenerateContent"))
                    .forEach(r -> assertThat(r.headers().get("x-goog-api-key")).isEqualTo(ScriptedGemini.API_KEY));
            assertThat(log2).doesNotContain(ScriptedGemini.API_KEY);
            assertThat(serve.call("GET", "/v1/sandboxes/" + id, null).body()).doesNotContain(ScriptedGemini.API_KEY);
            assertThat(serve.call("GET", "/v1/sandboxes/" + id + "/transcript", null)
                            .body())
                    .doesNotContain(ScriptedGemini.API_KEY);
            assertThat(filesHolding(serve.home(), ScriptedGemini.API_KEY)).isEmpty();
            assertThat(filesHolding(serve.repo().dir().resolve(".worktrees"), ScriptedGemini.API_KEY))
                    .isEmpty();
        }
    }

    /**
     * What {@code paddock serve} has in its environment: Gemini CLI on PATH, its key and the scripted API, a HOME
     * whose Gemini settings are ours.
     */
    private static Map<String, String> serveEnvironment(Path bin, Path agentHome, ScriptedGemini api) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PATH", bin.getParent() + ":/usr/local/bin:/usr/bin:/bin");
        env.put("HOME", agentHome.toString());
        env.put("GEMINI_API_KEY", ScriptedGemini.API_KEY);
        env.put("GOOGLE_GEMINI_BASE_URL", api.baseUrl());
        env.put("GEMINI_CLI_HOME", null);
        env.put("GOOGLE_API_KEY", null);
        env.put("GEMINI_MODEL", null);
        return env;
    }
}
