package dev.paddock.approval;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.Set;

/**
 * What an agent asks the broker: may it use this tool on this input?
 *
 * @param sandboxId the sandbox whose agent asks (required: it names the repository and its policy)
 * @param tool Claude Code's tool name, e.g. {@code Bash}
 * @param input the tool's main input as the policy sees it (see {@link #mainInput})
 * @param cwd the agent's working directory (absolute), or null for the sandbox's worktree
 * @param sessionId the Claude Code session, or null
 * @param toolUseId the tool call's id in that session (the hook's {@code tool_use_id}), or null
 * @param outsideSandbox whether the call asks to run outside the agent's own sandbox (Claude Code's
 *     {@code dangerouslyDisableSandbox}): the policy's allow is then only an ask
 */
public record ApprovalRequest(
        String sandboxId,
        String tool,
        String input,
        Path cwd,
        String sessionId,
        String toolUseId,
        boolean outsideSandbox) {
    /** A request that asks nothing of the agent's own sandbox. */
    public ApprovalRequest(String sandboxId, String tool, String input, Path cwd, String sessionId, String toolUseId) {
        this(sandboxId, tool, input, cwd, sessionId, toolUseId, false);
    }

    private static final Set<String> FILE_TOOLS = Set.of("Read", "Edit", "Write", "MultiEdit", "NotebookEdit");

    public ApprovalRequest {
        input = input == null ? "" : input;
    }

    /**
     * The part of Claude Code's {@code tool_input} the policy judges: {@code command} for Bash,
     * {@code file_path} for Read, Edit, Write and MultiEdit ({@code notebook_path} for NotebookEdit),
     * {@code path} for Grep, Glob and LS (absent: "", the working directory), {@code url} for WebFetch, nothing
     * ("") for other tools, which are judged by name. Shapes from Claude
     * Code's hooks reference ("PreToolUse input").
     *
     * @param toolInput the {@code tool_input} object; null or a missing field gives ""
     */
    public static String mainInput(String tool, JsonNode toolInput) {
        if (toolInput == null || !toolInput.isObject() || tool == null) {
            return "";
        }
        String field = switch (tool) {
            case "Bash" -> "command";
            case "WebFetch" -> "url";
            case "NotebookEdit" -> toolInput.has("notebook_path") ? "notebook_path" : "file_path";
            case "Grep", "Glob", "LS" -> "path"; // the folder searched, judged as a Read of it
            default -> FILE_TOOLS.contains(tool) ? "file_path" : null;
        };
        if (field == null) {
            return "";
        }
        JsonNode v = toolInput.get(field);
        return v == null || v.isNull() ? "" : v.isTextual() ? v.asText() : v.toString();
    }
}
