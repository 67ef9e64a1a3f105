package dev.paddock.policy;

import java.nio.file.Path;

/**
 * A request an agent makes, as the policy sees it.
 *
 * @param tool the tool name as Claude Code names it: {@code Bash}, {@code Read}, {@code Edit},
 *     {@code Write}, {@code WebFetch}, {@code mcp__server__tool}...
 * @param input the command line for Bash, the file path for file tools, the URL for WebFetch, else the
 *     tool's main input as text
 * @param cwd the working directory (made absolute); relative paths resolve against it
 * @throws IllegalArgumentException when the tool name is blank or the working directory missing
 */
public record ToolRequest(String tool, String input, Path cwd) {
    public ToolRequest {
        if (tool == null || tool.isBlank()) {
            throw new IllegalArgumentException("a request needs a tool name");
        }
        if (cwd == null) {
            throw new IllegalArgumentException("a request needs its working directory");
        }
        input = input == null ? "" : input;
        cwd = cwd.toAbsolutePath().normalize();
    }

    /** A Bash request. */
    public static ToolRequest bash(String command, Path cwd) {
        return new ToolRequest("Bash", command, cwd);
    }
}
