package dev.paddock.approval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.paddock.common.Json;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Gemini CLI's {@code BeforeTool} hook, answered by the same broker and policy as Claude Code's PreToolUse hook.
 * Gemini's tools are judged as the Claude Code tools they match ({@code run_shell_command} as {@code Bash},
 * {@code write_file} as {@code Write}, {@code replace} as {@code Edit}, ...), so one policy in Claude Code's notation
 * speaks for both; any other tool is judged by its own name.
 *
 * <p>Checked against Gemini CLI 0.61.0 with the real CLI and a scripted Gemini API: hooks in its user settings
 * ({@code $GEMINI_CLI_HOME/.gemini/settings.json}) run headless with no trust prompt. Input:
 * {@code {"session_id", "transcript_path", "cwd", "hook_event_name": "BeforeTool", "timestamp", "tool_name",
 * "tool_input"}} (no id of the call). Output {@code {"decision": "deny", "reason": "..."}} blocks the call and the
 * model is told {@code "Tool execution blocked: <reason>"}; exit code 2 blocks too, with stderr as the reason. Any
 * other exit code is only a warning and lets the call run, so Paddock's hook programs never use one.
 */
public final class GeminiHook {
    /** The event. */
    public static final String EVENT = "BeforeTool";

    /** Gemini CLI's tools that are Claude Code's under another name, and the field that holds their main input. */
    private static final Map<String, String[]> AS_CLAUDE = Map.of(
            "run_shell_command", new String[] {"Bash", "command", "command"},
            "write_file", new String[] {"Write", "file_path", "file_path"},
            "replace", new String[] {"Edit", "file_path", "file_path"},
            "read_file", new String[] {"Read", "file_path", "file_path"},
            "list_directory", new String[] {"LS", "dir_path", "path"},
            "glob", new String[] {"Glob", "dir_path", "path"},
            "grep_search", new String[] {"Grep", "dir_path", "path"},
            "google_web_search", new String[] {"WebSearch", "query", "query"});

    private static final Pattern URL = Pattern.compile("https?://[^\\s\"'<>]+");

    private GeminiHook() {}

    /**
     * The call a BeforeTool payload asks about, with the tool and input as the policy judges them.
     *
     * @param n the payload
     * @param tool its {@code tool_name}
     * @param input its {@code tool_input} (an object)
     * @throws ApprovalException when a shell command's {@code dir_path} is not a path
     */
    static ClaudeHook.Call call(JsonNode n, String tool, JsonNode input, Path cwd, String sessionId)
            throws ApprovalException {
        String[] as = AS_CLAUDE.get(tool);
        ObjectNode judged = Json.mapper().createObjectNode();
        String name = tool;
        if (as != null) {
            name = as[0];
            JsonNode v = input.get(as[1]);
            if (v != null && v.isTextual() && v.asText().startsWith("@") && !tool.equals("run_shell_command")) {
                // Gemini CLI drops a leading @ from a path that does not exist as written: the file it then uses
                judged.put(as[2], v.asText().substring(1));
            } else if (v != null && !v.isNull()) {
                judged.set(as[2], v);
            }
        } else if (tool.equals("web_fetch")) {
            // Its prompt names the pages to fetch: judged as a fetch of the first one.
            name = "WebFetch";
            Matcher m = URL.matcher(input.path("prompt").asText(""));
            judged.put("url", m.find() ? m.group() : "");
        } else {
            judged = input.deepCopy();
        }
        // A shell command may run in another folder than the session's: it is judged where it runs.
        Path where = cwd;
        String dir = tool.equals("run_shell_command") ? input.path("dir_path").asText("") : "";
        if (!dir.isBlank() && cwd != null) {
            try {
                where = cwd.resolve(dir).normalize();
            } catch (java.nio.file.InvalidPathException e) {
                throw new ApprovalException(ApprovalException.Kind.BAD_REQUEST, "dir_path is not a path: " + dir);
            }
        }
        return new ClaudeHook.Call(EVENT, name, judged, where, sessionId, null, ClaudeHook.Call.GEMINI);
    }

    /** The stdout JSON (one line) for a decision. */
    public static String output(boolean allow, String reason) {
        ObjectNode root = Json.mapper().createObjectNode();
        root.put("decision", allow ? "allow" : "deny");
        root.put("reason", reason == null ? "" : reason);
        return root.toString();
    }
}
