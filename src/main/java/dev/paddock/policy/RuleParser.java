package dev.paddock.policy;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Parses permission rules written in Claude Code's notation ({@code Tool} or {@code Tool(specifier)},
 * https://code.claude.com/docs/en/permissions). Rules Claude Code would silently never match are refused
 * with a message saying why, so a typo does not quietly turn a deny rule off: a lower-case tool name
 * ({@code bash(...)}), a missing {@code )}, empty parentheses, {@code :*} anywhere but at the end of a Bash
 * rule or in a path rule, an operator inside a Bash rule ({@code Bash(a && b)}), a WebFetch rule without
 * {@code domain:}.
 */
public final class RuleParser {
    private static final Pattern TOOL = Pattern.compile("[A-Z][A-Za-z0-9_]*|mcp__[A-Za-z0-9_-]+(__[A-Za-z0-9_*-]+)?");
    private static final List<String> KNOWN = List.of(
            "Bash",
            "Read",
            "Edit",
            "Write",
            "MultiEdit",
            "NotebookEdit",
            "NotebookRead",
            "Glob",
            "Grep",
            "LS",
            "WebFetch",
            "WebSearch",
            "Task",
            "Agent",
            "TodoWrite");

    private RuleParser() {}

    /**
     * Parses {@code text}.
     *
     * @throws RuleSyntaxException naming the rule and what is wrong, e.g.
     *     {@code rule "Bash(git push": missing ")" at the end}
     */
    public static Rule parse(String text) throws RuleSyntaxException {
        if (text == null || text.isBlank()) {
            throw new RuleSyntaxException("empty rule");
        }
        String t = text.strip();
        try {
            return parseStripped(t);
        } catch (RuleSyntaxException e) {
            throw new RuleSyntaxException("rule \"" + t + "\": " + e.getMessage());
        }
    }

    private static Rule parseStripped(String t) throws RuleSyntaxException {
        int open = t.indexOf('(');
        String tool = open < 0 ? t : t.substring(0, open);
        checkTool(tool, t);
        if (open < 0) {
            return new Rule(t, tool, null, null, null, null, null);
        }
        if (!t.endsWith(")")) {
            throw new RuleSyntaxException(
                    t.indexOf(')') < 0 ? "missing \")\" at the end" : "text after the closing \")\"");
        }
        String spec = t.substring(open + 1, t.length() - 1);
        if (spec.isBlank()) {
            throw new RuleSyntaxException("empty \"()\": write " + tool + " alone to match every use of it");
        }
        if (spec.strip().equals("*")) {
            return new Rule(t, tool, null, null, null, null, null);
        }
        if (tool.equals("Bash")) {
            return new Rule(t, tool, spec, BashPattern.parse(spec), null, null, null);
        }
        if (Rule.EDIT_TOOLS.contains(tool) || Rule.READ_TOOLS.contains(tool)) {
            return new Rule(t, tool, spec, null, PathPattern.parse(spec), null, null);
        }
        if (tool.equals("WebFetch")) {
            return new Rule(t, tool, spec, null, null, DomainPattern.parse(spec), null);
        }
        String re = String.join(
                ".*",
                java.util.Arrays.stream(spec.split("\\*", -1))
                        .map(Pattern::quote)
                        .toList());
        return new Rule(t, tool, spec, null, null, null, Pattern.compile(re, Pattern.DOTALL));
    }

    private static void checkTool(String tool, String rule) throws RuleSyntaxException {
        if (TOOL.matcher(tool).matches()) {
            return;
        }
        if (tool.isEmpty()) {
            throw new RuleSyntaxException("no tool name before \"(\"");
        }
        for (String k : KNOWN) {
            if (k.equalsIgnoreCase(tool)) {
                throw new RuleSyntaxException("unknown tool \"" + tool + "\": tool names are case-sensitive; did you"
                        + " mean \"" + k + "\"?");
            }
        }
        if (tool.contains(" ") || tool.contains(")")) {
            throw new RuleSyntaxException("not a rule: write Tool or Tool(specifier), e.g. Bash(git status)");
        }
        throw new RuleSyntaxException("unknown tool \"" + tool + "\": tool names start with a capital letter (Bash,"
                + " Read, Edit, WebFetch...) or are MCP tools (mcp__server__tool)");
    }

    /** The tool names Paddock knows of, for suggestions in the panel. */
    public static List<String> knownTools() {
        return KNOWN;
    }
}
