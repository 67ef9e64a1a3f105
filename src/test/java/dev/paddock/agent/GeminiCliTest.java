package dev.paddock.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.common.Json;
import dev.paddock.testing.GeminiCli;
import dev.paddock.testing.ScriptedGemini;
import dev.paddock.testing.TempRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real Gemini CLI against a scripted Gemini API, in a temporary git repository, driven by the command lines of
 * {@link AgentPreset#GEMINI} and read back with {@link GeminiStreamParser}.
 */
class GeminiCliTest {
    private static final String MODEL = "gemini-2.5-pro";

    @TempDir
    Path tmp;

    private static Transcript parse(String stdout) {
        TranscriptParser p = AgentPreset.GEMINI.format().newParser();
        return Transcript.EMPTY.plus(p.feed(stdout)).plus(p.finish());
    }

    /**
     * A task whose model reads a file, then a follow-up that resumes the same session; and what Gemini CLI 0.61.0
     * offers headless in its default approval mode: read-only tools, no shell.
     */
    @Test
    void readsAFileWithAScriptedCallAndResumesTheSameSession() throws Exception {
        Path bin = GeminiCli.require();
        Path repo = TempRepo.init(tmp.resolve("repo")).dir();
        Files.writeString(repo.resolve("NOTES.md"), "the answer is 42\n");
        Path home = GeminiCli.configure(tmp.resolve("home"));
        String task = "-read the notes (a task that starts with a dash)";
        String followUp = "Say it once more.";
        String session = UUID.randomUUID().toString();
        try (ScriptedGemini api = ScriptedGemini.start(t -> t.prompt().equals(followUp)
                ? ScriptedGemini.text("AGAIN.")
                : t.lastFunctionResponses().isEmpty()
                        ? ScriptedGemini.call(
                                "read_file", Json.mapper().createObjectNode().put("file_path", "NOTES.md"))
                        : ScriptedGemini.text("The notes say 42."))) {
            GeminiCli.Run run = GeminiCli.exec(
                    AgentPreset.GEMINI.startCommand(bin.toString(), new AgentTurn(task, session, MODEL)),
                    repo,
                    home,
                    api,
                    Map.of());
            assertThat(run.exitCode()).as(run.stdout() + run.stderr()).isZero();
            assertThat(api.turns()).as(run.stdout()).hasSize(2);
            assertThat(api.turns().get(0).prompt()).isEqualTo(task);
            assertThat(api.turns().get(0).tools())
                    .contains("read_file", "list_directory")
                    .doesNotContain("run_shell_command", "write_file", "replace");
            assertThat(api.turns().get(1).lastFunctionResponses())
                    .singleElement()
                    .asString()
                    .contains("the answer is 42");

            Transcript t = parse(run.stdout());
            assertThat(t.sessionId()).isEqualTo(session);
            assertThat(t.entries())
                    .anySatisfy(e -> assertThat(e).isInstanceOfSatisfying(TranscriptEntry.ToolCall.class, c -> {
                        assertThat(c.name()).isEqualTo("read_file");
                        assertThat(c.inputJson()).contains("NOTES.md");
                    }));
            assertThat(t.entries())
                    .anySatisfy(e -> assertThat(e)
                            .isInstanceOfSatisfying(
                                    TranscriptEntry.ToolResult.class,
                                    r -> assertThat(r.error()).isFalse()));
            assertThat(t.entries())
                    .anySatisfy(e -> assertThat(e)
                            .isInstanceOfSatisfying(
                                    TranscriptEntry.Message.class,
                                    m -> assertThat(m.text()).contains("The notes say 42.")));
            assertThat(t.entries())
                    .anySatisfy(e -> assertThat(e)
                            .isInstanceOfSatisfying(
                                    TranscriptEntry.Usage.class,
                                    u -> assertThat(u.failed()).isFalse()));

            GeminiCli.Run resumed = GeminiCli.exec(
                    AgentPreset.GEMINI
                            .followUpCommand(bin.toString(), new AgentTurn(followUp, session, MODEL))
                            .orElseThrow(),
                    repo,
                    home,
                    api,
                    Map.of());
            assertThat(resumed.exitCode())
                    .as(resumed.stdout() + resumed.stderr())
                    .isZero();
            ScriptedGemini.Turn last = api.turns().get(api.turns().size() - 1);
            assertThat(last.prompt()).isEqualTo(followUp);
            assertThat(last.texts()).contains("user: " + task, "model: The notes say 42.");
            assertThat(parse(resumed.stdout()).entries())
                    .anySatisfy(e -> assertThat(e)
                            .isInstanceOfSatisfying(
                                    TranscriptEntry.Message.class,
                                    m -> assertThat(m.text()).contains("AGAIN.")));
        }
    }

    /** Without --skip-trust Gemini CLI 0.61.0 refuses a folder not trusted before, as a new worktree is. */
    @Test
    void withoutSkipTrustItRefusesANewWorktree() throws Exception {
        Path bin = GeminiCli.require();
        Path repo = TempRepo.init(tmp.resolve("repo")).dir();
        Path home = GeminiCli.configure(tmp.resolve("home"));
        try (ScriptedGemini api = ScriptedGemini.start(t -> ScriptedGemini.text("Hello."))) {
            List<String> cmd = new java.util.ArrayList<>(AgentPreset.GEMINI.startCommand(
                    bin.toString(), new AgentTurn("hi", UUID.randomUUID().toString(), MODEL)));
            assertThat(cmd.remove("--skip-trust")).isTrue();
            GeminiCli.Run run = GeminiCli.exec(cmd, repo, home, api, Map.of());
            assertThat(run.stdout() + run.stderr()).contains("not running in a trusted directory");
            assertThat(api.turns()).isEmpty();
        }
    }
}
