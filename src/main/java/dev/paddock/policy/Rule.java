package dev.paddock.policy;

import java.nio.file.Path;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One permission rule in Claude Code's notation, {@code Tool} or {@code Tool(specifier)}
 * (https://code.claude.com/docs/en/permissions; also https://docs.anthropic.com/en/docs/claude-code/iam):
 * a bare tool name matches every use of the tool; {@code Bash(...)} takes a command pattern
 * ({@link BashPattern}); {@code Read}, {@code Edit}, {@code Write}, {@code MultiEdit},
 * {@code NotebookEdit}, {@code Glob}, {@code Grep}, {@code LS} take a gitignore-style path
 * ({@link PathPattern}); {@code WebFetch(domain:HOST)} a host ({@link DomainPattern}); other tools take
 * their input as text, with {@code *} as a wildcard. {@code Edit} rules cover every tool that edits files,
 * {@code Read} rules every tool that reads them; {@code mcp__server} covers every tool of that MCP server.
 * Build one with {@link RuleParser#parse(String)}.
 */
public final class Rule {
    static final Set<String> EDIT_TOOLS = Set.of("Edit", "Write", "MultiEdit", "NotebookEdit");
    static final Set<String> READ_TOOLS = Set.of("Read", "Glob", "Grep", "LS", "NotebookRead");

    private final String text;
    private final String tool;
    private final String specifier;
    private final BashPattern bash;
    private final PathPattern path;
    private final DomainPattern domain;
    private final Pattern other;

    Rule(
            String text,
            String tool,
            String specifier,
            BashPattern bash,
            PathPattern path,
            DomainPattern domain,
            Pattern other) {
        this.text = text;
        this.tool = tool;
        this.specifier = specifier;
        this.bash = bash;
        this.path = path;
        this.domain = domain;
        this.other = other;
    }

    /** The rule as written (trimmed), e.g. {@code Bash(git push:*)}. */
    public String text() {
        return text;
    }

    /** The tool name, e.g. {@code Bash}. */
    public String tool() {
        return tool;
    }

    /** The text between the parentheses, or null for a bare tool name (which matches every use). */
    public String specifier() {
        return specifier;
    }

    /** Whether this rule speaks about requests of tool {@code requestTool}. */
    boolean appliesTo(String requestTool) {
        if (tool.equals(requestTool)) {
            return true;
        }
        if (tool.equals("Edit")) {
            return EDIT_TOOLS.contains(requestTool);
        }
        if (tool.equals("Read")) {
            return READ_TOOLS.contains(requestTool);
        }
        if (EDIT_TOOLS.contains(tool)) {
            return requestTool.equals("Edit"); // a Bash redirection is an Edit; Write(...) rules cover it too
        }
        if (tool.startsWith("mcp__")) {
            if (tool.endsWith("__*")) {
                return requestTool.startsWith(tool.substring(0, tool.length() - 1));
            }
            boolean wholeServer = tool.indexOf("__", 5) < 0;
            return wholeServer && requestTool.startsWith(tool + "__");
        }
        return false;
    }

    /**
     * For a {@code Bash(...)} rule that is not a wildcard: the program (first word) a command must run to
     * match it; null when the rule may match any program (a bare tool name, a wildcard, another tool).
     */
    String bashProgram() {
        return bash == null ? null : bash.program();
    }

    /** Whether this rule matches a program run of a Bash command ({@code broad} for deny and ask lists). */
    boolean matchesCommand(Invocation inv, boolean broad) {
        return specifier == null || bash != null && bash.matches(inv, broad);
    }

    /** Whether this Bash rule could match {@code inv} once its run-time words are known. */
    boolean couldMatchCommand(Invocation inv) {
        return bash != null && bash.couldMatch(inv);
    }

    /** Whether this rule matches a file (absolute, normalised). */
    boolean matchesPath(PathPattern.Target file) {
        return specifier == null || path != null && path.matches(file);
    }

    /** Whether this rule matches every entry of directory {@code dir} ({@code Read(./secrets/**)} for secrets). */
    boolean coversAllUnder(PathPattern.Target dir) {
        return specifier == null || path != null && path.coversAllUnder(dir);
    }

    /** Whether this rule could match {@code dir} or a file inside it (see {@link PathPattern#couldMatchUnder}). */
    boolean couldMatchUnder(Path dir, Path cwd, Path project, Path home) {
        return specifier == null || path != null && path.couldMatchUnder(dir, cwd, project, home);
    }

    /** Whether this rule could match a file the shell glob {@code glob} names. */
    boolean couldMatchGlob(Path glob, Path cwd, Path project, Path home) {
        return specifier == null || path != null && path.couldMatchGlob(glob, cwd, project, home);
    }

    /**
     * {@link #matchesInput(String)} with the input's host already worked out ({@link DomainPattern#host},
     * computed once per request rather than once per rule).
     */
    boolean matchesInput(String input, String host) {
        if (specifier == null) {
            return true;
        }
        if (domain != null) {
            return domain.matchesHost(host);
        }
        return other != null && other.matcher(input).matches();
    }

    /** Whether this rule matches a request's input that is neither a command nor a path (URL, query...). */
    boolean matchesInput(String input) {
        if (specifier == null) {
            return true;
        }
        if (domain != null) {
            return domain.matches(input);
        }
        return other != null && other.matcher(input).matches();
    }

    @Override
    public String toString() {
        return text;
    }
}
