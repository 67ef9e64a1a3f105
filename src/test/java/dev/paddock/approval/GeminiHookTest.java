package dev.paddock.approval;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.paddock.common.Json;
import org.junit.jupiter.api.Test;

/** Gemini CLI's BeforeTool payloads, judged as the Claude Code tools they match. */
class GeminiHookTest {
    private static ClaudeHook.Call parse(String tool, ObjectNode input) throws Exception {
        ObjectNode n = Json.mapper()
                .createObjectNode()
                .put("session_id", "g-1")
                .put("hook_event_name", "BeforeTool")
                .put("cwd", "/work/repo")
                .put("tool_name", tool)
                .put("timestamp", "2026-12-06T11:45:44.706Z");
        n.set("tool_input", input);
        return ClaudeHook.parse(n.toString());
    }

    private static ObjectNode input() {
        return Json.mapper().createObjectNode();
    }

    @Test
    void geminisToolsAreJudgedAsTheClaudeCodeToolsTheyMatch() throws Exception {
        ClaudeHook.Call shell =
                parse("run_shell_command", input().put("command", "git push").put("description", "x"));
        assertThat(shell.client()).isEqualTo(ClaudeHook.Call.GEMINI);
        assertThat(shell.toRequest("s-1")).satisfies(r -> {
            assertThat(r.tool()).isEqualTo("Bash");
            assertThat(r.input()).isEqualTo("git push");
            assertThat(r.sessionId()).isEqualTo("g-1");
            assertThat(r.toolUseId()).isNull();
            assertThat(r.outsideSandbox()).isFalse();
        });
        assertThat(parse("write_file", input().put("file_path", "a.txt").put("content", "x"))
                        .toRequest("s")
                        .tool())
                .isEqualTo("Write");
        ClaudeHook.Call replace = parse(
                "replace",
                input().put("file_path", "/work/repo/.gemini/settings.json")
                        .put("old_string", "a")
                        .put("new_string", "b"));
        assertThat(replace.toRequest("s").tool()).isEqualTo("Edit");
        assertThat(replace.toRequest("s").input()).isEqualTo("/work/repo/.gemini/settings.json");
        assertThat(parse("read_file", input().put("file_path", "NOTES.md"))
                        .toRequest("s")
                        .input())
                .isEqualTo("NOTES.md");
        assertThat(parse("list_directory", input().put("dir_path", "src")).toRequest("s"))
                .satisfies(r -> {
                    assertThat(r.tool()).isEqualTo("LS");
                    assertThat(r.input()).isEqualTo("src");
                });
        assertThat(parse("web_fetch", input().put("prompt", "Summarise https://example.com/a?b=1 please"))
                        .toRequest("s"))
                .satisfies(r -> {
                    assertThat(r.tool()).isEqualTo("WebFetch");
                    assertThat(r.input()).isEqualTo("https://example.com/a?b=1");
                });
        // A shell command in another folder is judged there.
        ClaudeHook.Call elsewhere = parse(
                "run_shell_command", input().put("command", "rm -rf build").put("dir_path", "../.."));
        assertThat(elsewhere.toRequest("s").cwd()).isEqualTo(java.nio.file.Path.of("/"));
        assertThat(parse("run_shell_command", input().put("command", "ls"))
                        .toRequest("s")
                        .cwd())
                .isEqualTo(java.nio.file.Path.of("/work/repo"));
        // Any other tool is judged by its own name.
        assertThat(parse("write_todos", input()).toRequest("s").tool()).isEqualTo("write_todos");
    }

    @Test
    void aPathGeminiReadsWithoutItsLeadingAtIsJudgedSo() throws Exception {
        // Gemini CLI drops the @ of a path that does not exist as written
        assertThat(parse(
                                "write_file",
                                input().put("file_path", "@.gemini/settings.json")
                                        .put("content", "x"))
                        .toRequest("s")
                        .input())
                .isEqualTo(".gemini/settings.json");
        assertThat(parse("read_file", input().put("file_path", "@../home/api-token"))
                        .toRequest("s")
                        .input())
                .isEqualTo("../home/api-token");
    }

    @Test
    void theAnswerIsInGeminisFormat() {
        assertThat(GeminiHook.output(false, "Paddock: no"))
                .isEqualTo("{\"decision\":\"deny\",\"reason\":\"Paddock: no\"}");
        assertThat(GeminiHook.output(true, "ok")).startsWith("{\"decision\":\"allow\"");
    }
}
