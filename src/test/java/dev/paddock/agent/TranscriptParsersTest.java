package dev.paddock.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.agent.TranscriptEntry.Error;
import dev.paddock.agent.TranscriptEntry.Message;
import dev.paddock.agent.TranscriptEntry.Output;
import dev.paddock.agent.TranscriptEntry.SessionStarted;
import dev.paddock.agent.TranscriptEntry.ToolCall;
import dev.paddock.agent.TranscriptEntry.ToolResult;
import dev.paddock.agent.TranscriptEntry.Usage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The transcript parsers on output captured from the real agents: Claude Code 2.1.332 ({@code claude-stream.jsonl},
 * from {@link ClaudeCodeCliTest}'s first run), Gemini CLI 0.61.0 ({@code gemini-stream.jsonl}, run against a local
 * endpoint with a shell call) and Codex 0.171.0 ({@code codex-exec-offline.jsonl}: its first events with no model
 * reachable), plus Codex item events in the shape its documentation gives.
 */
class TranscriptParsersTest {
    private static String fixture(String name) {
        try (InputStream in = TranscriptParsersTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<TranscriptEntry> whole(TranscriptFormat f, String text) {
        TranscriptParser p = f.newParser();
        List<TranscriptEntry> out = new ArrayList<>(p.feed(text));
        out.addAll(p.finish());
        return out;
    }

    @Test
    void claudeStreamJsonFromTheRealCli() {
        List<TranscriptEntry> e = whole(TranscriptFormat.CLAUDE_STREAM_JSON, fixture("claude-stream.jsonl"));
        assertThat(e.get(0)).isInstanceOfSatisfying(SessionStarted.class, s -> {
            assertThat(s.sessionId()).matches("[0-9a-f-]{36}");
            assertThat(s.model()).isNotBlank();
            assertThat(s.cwd()).startsWith("/");
        });
        assertThat(e)
                .extracting(x -> x.getClass().getSimpleName())
                .containsExactly("SessionStarted", "Message", "ToolCall", "ToolResult", "Message", "Usage");
        ToolCall call = (ToolCall) e.get(2);
        assertThat(call.name()).isEqualTo("Bash");
        assertThat(call.inputJson()).contains("printf 'hello from bash'");
        assertThat(e.get(3)).isEqualTo(new ToolResult(call.id(), "hello from bash", false));
        assertThat(e.get(4)).isEqualTo(new Message("assistant", "All done.", false));
        assertThat((Usage) e.get(5)).satisfies(u -> {
            assertThat(u.failed()).isFalse();
            assertThat(u.costUsd()).isPositive();
            assertThat(u.turns()).isEqualTo(2);
        });
    }

    @Test
    void anySplitOfTheOutputGivesTheSameEntries() {
        for (TranscriptFormat f : List.of(TranscriptFormat.CLAUDE_STREAM_JSON, TranscriptFormat.GEMINI_STREAM_JSON)) {
            String text =
                    fixture(f == TranscriptFormat.CLAUDE_STREAM_JSON ? "claude-stream.jsonl" : "gemini-stream.jsonl");
            List<TranscriptEntry> expected = whole(f, text);
            Random r = new Random(42);
            for (int round = 0; round < 20; round++) {
                TranscriptParser p = f.newParser();
                List<TranscriptEntry> got = new ArrayList<>();
                int i = 0;
                while (i < text.length()) {
                    int n = Math.min(text.length() - i, 1 + r.nextInt(200));
                    got.addAll(p.feed(text.substring(i, i + n)));
                    i += n;
                }
                got.addAll(p.finish());
                assertThat(got).as("%s round %d", f, round).isEqualTo(expected);
            }
        }
    }

    @Test
    void unknownEventsAreSkippedAndStrayLinesKept() {
        String text = "{\"type\":\"system\",\"subtype\":\"hook_started\",\"hook_id\":\"x\"}\n"
                + "{\"type\":\"stream_event\",\"event\":{}}\n"
                + "{\"type\":\"brand_new_event\",\"x\":1}\n"
                + "Warning: something printed on stdout\n"
                + "{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"thinking\",\"thinking\":\"...\"},"
                + "{\"type\":\"text\",\"text\":\"hi\"}]}}\n"
                + "{not json\n\n"
                + "{\"type\":\"result\",\"subtype\":\"error_max_turns\",\"is_error\":true,\"num_turns\":3}";
        List<TranscriptEntry> e = whole(TranscriptFormat.CLAUDE_STREAM_JSON, text);
        assertThat(e)
                .containsExactly(
                        new Output("Warning: something printed on stdout"),
                        new Message("assistant", "hi", false),
                        new Output("{not json"),
                        new Error("the run ended with error_max_turns"),
                        new Usage(true, null, null, null, null, 3));
    }

    @Test
    void aToolResultWithBlocksIsCollapsedToText() {
        String line = "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\","
                + "\"tool_use_id\":\"t1\",\"is_error\":true,\"content\":[{\"type\":\"text\",\"text\":\"a\"},"
                + "{\"type\":\"image\",\"source\":{}},{\"type\":\"text\",\"text\":\"b\"}]}]}}\n";
        assertThat(whole(TranscriptFormat.CLAUDE_STREAM_JSON, line))
                .containsExactly(new ToolResult("t1", "a\n[image]\nb", true));
    }

    @Test
    void aHugeResultIsCutWithANote() {
        String big = "x".repeat(TranscriptEntry.MAX_TEXT + 10);
        ToolResult r = new ToolResult("t", big, false);
        assertThat(r.text())
                .hasSize(TranscriptEntry.MAX_TEXT + "\n… (10 more characters)".length())
                .endsWith("(10 more characters)");
    }

    @Test
    void geminiStreamJsonFromTheRealCli() {
        List<TranscriptEntry> e = whole(TranscriptFormat.GEMINI_STREAM_JSON, fixture("gemini-stream.jsonl"));
        assertThat(e.get(0)).isEqualTo(new SessionStarted("11111111-2222-3333-4444-cccccccccccc", "auto", null));
        assertThat(e.get(1)).isEqualTo(new Message("user", "say hi", false));
        assertThat(e.get(2)).isEqualTo(new Message("assistant", "I'll run it.", true));
        assertThat(e.get(3)).isInstanceOfSatisfying(ToolCall.class, c -> {
            assertThat(c.name()).isEqualTo("run_shell_command");
            assertThat(c.inputJson()).contains("\"command\":\"echo hello\"");
        });
        assertThat(e.get(4)).isEqualTo(new ToolResult(((ToolCall) e.get(3)).id(), "hello", false));
        assertThat(e.get(6)).isEqualTo(new Usage(false, 25L, 11L, null, 1437L, null));
        // Pieces of one message are joined in the transcript.
        String pieces = "{\"type\":\"message\",\"role\":\"assistant\",\"content\":\"Hel\",\"delta\":true}\n"
                + "{\"type\":\"message\",\"role\":\"assistant\",\"content\":\"lo\",\"delta\":true}\n"
                + "{\"type\":\"tool_result\",\"tool_id\":\"t\",\"status\":\"error\",\"error\":{\"message\":\"denied\"}}\n";
        Transcript t = Transcript.EMPTY.plus(whole(TranscriptFormat.GEMINI_STREAM_JSON, pieces));
        assertThat(t.entries())
                .containsExactly(new Message("assistant", "Hello", true), new ToolResult("t", "denied", true));
    }

    @Test
    void codexExecJson() {
        List<TranscriptEntry> real = whole(TranscriptFormat.CODEX_JSON, fixture("codex-exec-offline.jsonl"));
        assertThat(real.get(0)).isEqualTo(new SessionStarted("01a2471c-ea1e-7fe0-8c29-86a9287eac43", null, null));
        assertThat(real).hasSize(3).allSatisfy(x -> assertThat(x).isInstanceOfAny(SessionStarted.class, Error.class));
        assertThat(Transcript.EMPTY.plus(real).sessionId()).isEqualTo("01a2471c-ea1e-7fe0-8c29-86a9287eac43");

        String documented = """
                {"type":"item.started","item":{"id":"item_1","type":"command_execution","command":"bash -lc ls","aggregated_output":"","exit_code":null,"status":"in_progress"}}
                {"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"bash -lc ls","aggregated_output":"README.md\\n","exit_code":0,"status":"completed"}}
                {"type":"item.completed","item":{"id":"item_2","type":"command_execution","command":"false","aggregated_output":"","exit_code":1,"status":"failed"}}
                {"type":"item.completed","item":{"id":"item_3","type":"reasoning","text":"thinking"}}
                {"type":"item.completed","item":{"id":"item_4","type":"agent_message","text":"Listed."}}
                {"type":"turn.completed","usage":{"input_tokens":24763,"cached_input_tokens":24448,"output_tokens":122}}
                {"type":"turn.failed","error":{"message":"stream error"}}
                """;
        List<TranscriptEntry> e = whole(TranscriptFormat.CODEX_JSON, documented);
        assertThat(e)
                .containsExactly(
                        new ToolCall("item_1", "command_execution", "{\"command\":\"bash -lc ls\"}"),
                        new ToolResult("item_1", "README.md\n", false),
                        new ToolCall("item_2", "command_execution", "{\"command\":\"false\"}"),
                        new ToolResult("item_2", "", true),
                        new Message("assistant", "Listed.", false),
                        new Usage(false, 24763L, 122L, null, null, null),
                        new Error("stream error"),
                        new Usage(true, null, null, null, null, null));
    }

    @Test
    void plainTextOutputIsKeptLineByLine() {
        assertThat(whole(TranscriptFormat.TEXT, "Aider v0.86.2\n{\"looks\":\"like json\"}\nlast"))
                .containsExactly(
                        new Output("Aider v0.86.2"), new Output("{\"looks\":\"like json\"}"), new Output("last"));
    }
}
