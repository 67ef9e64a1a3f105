package dev.paddock.review;

import static dev.paddock.testing.AgentRuns.awaitEnd;
import static dev.paddock.testing.AgentRuns.paddock;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.common.Json;
import dev.paddock.testing.AgentRuns.Run;
import dev.paddock.testing.ClaudeCli;
import dev.paddock.testing.ScriptedAnthropic;
import dev.paddock.testing.ScriptedAnthropic.Reply;
import dev.paddock.testing.ServeProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * "Request changes" to a real Claude Code agent: a real {@code paddock serve} runs the real CLI against a
 * {@link ScriptedAnthropic}; a comment on a line of the sandbox's change, then {@code paddock sandbox
 * request-changes}, resumes the agent's session with a prompt that names the file and line and quotes the line. Fails
 * without the CLI when {@code PADDOCK_REQUIRE_CLAUDE=1} (as in CI).
 */
class ClaudeReviewTest {
    @TempDir
    Path tmp;

    @Test
    void requestChangesResumesTheAgentWithTheCommentsFileLineAndQuote() throws Exception {
        Path bin = ClaudeCli.require();
        Path agentHome = Files.createDirectories(tmp.resolve("agent-home"));
        try (ScriptedAnthropic api = ScriptedAnthropic.start(t -> t.prompt().contains("Review comments")
                        ? Reply.text("I will make beta louder.")
                        : Reply.text("I looked at app.txt."));
                ServeProcess serve = ServeProcess.start(tmp, ClaudeCli.serveEnvironment(bin, agentHome, api))) {
            serve.repo().commitFile("app.txt", "alpha\nbeta\ngamma\n", "Add app.txt");
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
                    "Look at app.txt.",
                    "--json");
            assertThat(created.exit()).as(created.err() + serve.report()).isZero();
            String id = Json.mapper().readTree(created.out()).get("id").asText();
            JsonNode s = awaitEnd(serve, id, ClaudeCli.TIMEOUT);
            assertThat(s.get("state").asText()).as(s + serve.report()).isEqualTo("done");
            String session = s.get("agentSession").asText();

            Run commented = paddock(
                    "--home", home, "sandbox", "comment", id, "--file", "app.txt", "--line", "2", "Say", "it",
                    "louder.");
            assertThat(commented.exit()).as(commented.err()).isZero();
            Run requested = paddock("--home", home, "sandbox", "request-changes", id);
            assertThat(requested.exit()).as(requested.err() + serve.report()).isZero();

            JsonNode again = awaitEnd(serve, id, ClaudeCli.TIMEOUT);
            assertThat(again.get("iteration").asInt())
                    .as(again + serve.report())
                    .isEqualTo(2);
            assertThat(again.get("agentSession").asText())
                    .as("the same session, resumed")
                    .isEqualTo(session);
            ScriptedAnthropic.Turn resumed = api.turns().get(api.turns().size() - 1);
            assertThat(resumed.prompt())
                    .contains("Review comments")
                    .contains("`app.txt:2`")
                    .contains("> beta")
                    .contains("Say it louder.");
            assertThat(resumed.request().get("messages").toString())
                    .as("the earlier conversation came with it")
                    .contains("Look at app.txt.")
                    .contains("I looked at app.txt.");
        }
    }
}
