package dev.paddock.approval;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.paddock.approval.ApprovalException.Kind;
import dev.paddock.common.Json;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * Claude Code's PreToolUse hook protocol (Claude Code hooks reference, "PreToolUse"): the JSON it writes
 * on the hook's stdin and the JSON the hook prints on stdout.
 *
 * <p>Input: {@code {"session_id", "transcript_path", "cwd", "permission_mode", "hook_event_name":
 * "PreToolUse", "tool_name", "tool_input": {...}, "tool_use_id"}}; only {@code tool_name},
 * {@code tool_input}, {@code cwd}, {@code session_id}, {@code tool_use_id} and {@code hook_event_name} are used.
 *
 * <p>Output: {@code {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision":
 * "allow"|"deny", "permissionDecisionReason": "..."}}} with exit code 0; on deny the hook also exits 2 with
 * the reason on stderr (exit 2 blocks the call and shows stderr to Claude even where the JSON is not read).
 * Any other exit code is a "non-blocking error" to Claude Code and lets the call through, so Paddock's hooks
 * never use one.
 */
public final class ClaudeHook {
    /** The event this hook answers for each tool call. */
    public static final String EVENT = "PreToolUse";
    /**
     * The event Claude Code raises where it would ask a person in a dialog; in a sandbox it comes for a Bash call
     * that is to run outside Claude Code's own sandbox, and Paddock lets it through only after a person approved
     * that very command ({@link ApprovalBroker#permitOutsideSandbox}).
     */
    public static final String PERMISSION_REQUEST = "PermissionRequest";
    /** The Bash tool's input field that asks to run a command outside Claude Code's own sandbox. */
    public static final String OUTSIDE_SANDBOX = "dangerouslyDisableSandbox";
    /** Longest {@code tool_use_id} kept (Claude Code's are {@code toolu_} and 24 characters); a longer one is dropped. */
    static final int MAX_TOOL_USE_ID = 256;

    private ClaudeHook() {}

    /**
     * What one PreToolUse payload asks.
     *
     * @param cwd absolute working directory, or null when the payload has none
     * @param sessionId Claude Code's session id, or null
     * @param toolInput the {@code tool_input} object as sent (for the API's {@code input})
     * @param toolUseId the tool call's id in the session (what the agent's stream-json names it), or null
     */
    public record Call(
            String event,
            String tool,
            JsonNode toolInput,
            Path cwd,
            String sessionId,
            String toolUseId,
            String client) {
        /** The clients: Claude Code, Codex (its payload has a {@code turn_id}), Gemini CLI. */
        public static final String CLAUDE = "claude";

        public static final String CODEX = "codex";
        public static final String GEMINI = "gemini";

        /**
         * The hook's stdout JSON for a decision, in its client's format: Gemini CLI's {@code decision}, a
         * PermissionRequest's {@code decision.behavior}, else PreToolUse's {@code permissionDecision}. A Bash call of
         * Claude Code's that a person allowed also gets {@value ClaudeHook#OUTSIDE_SANDBOX} set, so it runs outside
         * Claude Code's own sandbox (Codex and Gemini CLI have no such field).
         *
         * @param byPerson whether a person decided (not the policy)
         */
        public String output(boolean allow, String reason, boolean byPerson) {
            if (GEMINI.equals(client)) {
                return GeminiHook.output(allow, reason);
            }
            if (isPermissionRequest()) {
                return permissionOutput(allow, reason);
            }
            if (allow && byPerson && CLAUDE.equals(client) && "Bash".equals(tool)) {
                return outputOutsideSandbox(reason, toolInput);
            }
            return ClaudeHook.output(allow, reason);
        }

        /** The request for the broker of {@code sandboxId}. */
        public ApprovalRequest toRequest(String sandboxId) {
            return new ApprovalRequest(
                    sandboxId,
                    tool,
                    ApprovalRequest.mainInput(tool, toolInput),
                    cwd,
                    sessionId,
                    toolUseId,
                    outsideSandbox());
        }

        /** Whether Claude Code's own sandbox is asked to step aside ({@code "dangerouslyDisableSandbox": true}). */
        public boolean outsideSandbox() {
            return toolInput.path(OUTSIDE_SANDBOX).asBoolean(false);
        }

        /** Whether this is a {@link #PERMISSION_REQUEST} rather than a PreToolUse call. */
        public boolean isPermissionRequest() {
            return PERMISSION_REQUEST.equals(event);
        }
    }

    /**
     * Parses a payload.
     *
     * @throws ApprovalException (bad request) when it is not JSON, not a PreToolUse event, has no
     *     {@code tool_name}, a {@code tool_input} that is not an object, or a relative {@code cwd}
     */
    public static Call parse(String payload) throws ApprovalException {
        JsonNode n;
        try {
            n = payload == null || payload.isBlank() ? null : Json.mapper().readTree(payload);
        } catch (JsonProcessingException e) {
            throw bad("the hook's input is not JSON (" + e.getOriginalMessage() + ")");
        }
        if (n == null || !n.isObject()) {
            throw bad("the hook's input is not a JSON object (Claude Code sends one on stdin)");
        }
        String event = text(n, "hook_event_name");
        if (event != null
                && !event.equals(EVENT)
                && !event.equals(PERMISSION_REQUEST)
                && !event.equals(GeminiHook.EVENT)) {
            throw bad("this hook answers PreToolUse and PermissionRequest events (and Gemini CLI's BeforeTool), not "
                    + event);
        }
        String tool = text(n, "tool_name");
        if (tool == null || tool.isBlank()) {
            throw bad("the hook's input has no tool_name");
        }
        JsonNode input = n.get("tool_input");
        if (input != null && !input.isNull() && !input.isObject()) {
            throw bad("tool_input is not an object");
        }
        String cwd = text(n, "cwd");
        Path dir = null;
        if (cwd != null && !cwd.isBlank()) {
            try {
                dir = Path.of(cwd);
            } catch (InvalidPathException e) {
                throw bad("cwd is not a path: " + cwd);
            }
            if (!dir.isAbsolute()) {
                throw bad("cwd is not an absolute path: " + cwd);
            }
        }
        if (GeminiHook.EVENT.equals(event)) {
            return GeminiHook.call(
                    n,
                    tool,
                    input == null || input.isNull() ? Json.mapper().createObjectNode() : input,
                    dir,
                    text(n, "session_id"));
        }
        String toolUseId = text(n, "tool_use_id");
        JsonNode judged = input == null || input.isNull() ? Json.mapper().createObjectNode() : input;
        if (n.has("turn_id") && "Bash".equals(tool)) {
            // Codex's payload: its file edits come as an apply_patch "command", which Codex applies itself.
            java.util.Optional<String> file =
                    CodexPatch.onlyFile(judged.path("command").asText(""));
            if (file.isPresent()) {
                return new Call(
                        event == null ? EVENT : event,
                        "Edit",
                        Json.mapper().createObjectNode().put("file_path", file.get()),
                        dir,
                        text(n, "session_id"),
                        toolUseId == null || toolUseId.length() > MAX_TOOL_USE_ID ? null : toolUseId,
                        Call.CODEX);
            }
        }
        return new Call(
                event == null ? EVENT : event,
                tool,
                input == null || input.isNull() ? Json.mapper().createObjectNode() : input,
                dir,
                text(n, "session_id"),
                toolUseId == null || toolUseId.length() > MAX_TOOL_USE_ID ? null : toolUseId,
                n.has("turn_id") ? Call.CODEX : Call.CLAUDE);
    }

    /** The stdout JSON (one line) for a decision: {@code allow} when {@code allow}, else {@code deny}. */
    public static String output(boolean allow, String reason) {
        ObjectNode root = Json.mapper().createObjectNode();
        ObjectNode o = root.putObject("hookSpecificOutput");
        o.put("hookEventName", EVENT);
        o.put("permissionDecision", allow ? "allow" : "deny");
        o.put("permissionDecisionReason", reason == null ? "" : reason);
        return root.toString();
    }

    /**
     * The stdout JSON (one line) for a person's allow of a Bash call: {@code allow}, and the call's input with
     * {@value #OUTSIDE_SANDBOX} set, so the command a person approved (a push, a download) runs outside Claude Code's
     * own sandbox; Claude Code then raises a {@link #PERMISSION_REQUEST} for it.
     */
    static String outputOutsideSandbox(String reason, JsonNode toolInput) {
        ObjectNode root = Json.mapper().createObjectNode();
        ObjectNode o = root.putObject("hookSpecificOutput");
        o.put("hookEventName", EVENT);
        o.put("permissionDecision", "allow");
        o.put("permissionDecisionReason", reason == null ? "" : reason);
        ObjectNode updated = toolInput.isObject()
                ? ((ObjectNode) toolInput).deepCopy()
                : Json.mapper().createObjectNode();
        updated.put(OUTSIDE_SANDBOX, true);
        o.set("updatedInput", updated);
        return root.toString();
    }

    /** The stdout JSON (one line) for a {@link #PERMISSION_REQUEST}'s answer. */
    static String permissionOutput(boolean allow, String reason) {
        ObjectNode root = Json.mapper().createObjectNode();
        ObjectNode o = root.putObject("hookSpecificOutput");
        o.put("hookEventName", PERMISSION_REQUEST);
        ObjectNode d = o.putObject("decision");
        d.put("behavior", allow ? "allow" : "deny");
        if (!allow) {
            d.put("message", reason == null ? "" : reason);
        }
        return root.toString();
    }

    /** The exit code for a decision: 0 to allow, 2 to deny. */
    public static int exitCode(boolean allow) {
        return allow ? 0 : 2;
    }

    /** One line for stderr or a header: newlines and tabs become spaces. */
    public static String oneLine(String s) {
        return s == null ? "" : s.replaceAll("[\\r\\n\\t]+", " ").strip();
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    private static ApprovalException bad(String why) {
        return new ApprovalException(Kind.BAD_REQUEST, why);
    }
}
