package dev.paddock.policy.shell;

import java.util.List;

/**
 * Finds where a bracketed construct of a bash source ends: {@code $( )}, {@code ${ }}, a double-quoted part,
 * {@code $[ ]}, and the {@code ))} of an arithmetic command. Quotes, escapes, backticks and nested
 * substitutions are skipped. Also where a plain word ends, for the lexer's common case, and whether a word may be an extended glob.
 *
 * <p>Iterative (an explicit stack, never recursion), so input nested tens of thousands of levels deep
 * costs time linear in its length and cannot overflow the Java stack. The arithmetic end is answered from
 * a table of matching parentheses built once per source, so many {@code ((} on one line stay linear too.
 */
final class ShellScan {
    private static final char PAREN = '(';
    private static final char BRACE = '{';
    private static final char DOUBLE = '"';

    /** The ASCII characters that may stand in a plain word (any other character may): see {@link #plainWordEnd}. */
    private static final boolean[] PLAIN = new boolean[128];

    static {
        for (char c = 0; c < PLAIN.length; c++) {
            PLAIN[c] = !ShellLexer.isMeta(c) && "\\'\"$`*?[{".indexOf(c) < 0;
        }
    }

    private final String s;
    private int[] parenMatch;
    private int bracketScanFrom = -1;
    private int bracketScanEnd = -1;
    private boolean bracketFound;

    ShellScan(String source) {
        this.s = source;
    }

    /**
     * Where the word at {@code from} ends when it is plain, as most words are: no quote, escape, expansion, glob or
     * brace character in it, and not the name of an array assignment ({@code a=(...)}); then its value is its text.
     * -1 when it is not plain (or empty).
     */
    int plainWordEnd(int from) {
        int end = from;
        while (end < s.length() && (s.charAt(end) >= PLAIN.length || PLAIN[s.charAt(end)])) {
            end++;
        }
        boolean atMeta = end == s.length() || ShellLexer.isMeta(s.charAt(end)) && s.charAt(end) != '(';
        return end > from && atMeta ? end : -1;
    }

    /**
     * Whether an unquoted {@code ]} follows in the same word (then a {@code [} starts a glob class). The answer
     * of the last scan is kept, so a word of many {@code [} is scanned once, not once per bracket.
     */
    boolean closesBracket(int from) {
        if (from > bracketScanFrom && from <= bracketScanEnd) {
            return bracketFound; // the same stretch of the same word
        }
        int p = from;
        boolean found = false;
        for (; p < s.length() && !ShellLexer.isMeta(s.charAt(p)); p++) {
            char c = s.charAt(p);
            if (c == ']' || c == '\\' || c == '\'' || c == '"' || c == '$' || c == '`') {
                found = true; // quoting or expansions before a ]: keep the safe answer
                break;
            }
        }
        bracketScanFrom = from;
        bracketScanEnd = p;
        bracketFound = found;
        return found;
    }

    /** The index of the {@code )} closing a {@code (} whose body starts at {@code from}, or -1. */
    int closeParen(int from) {
        return close(from, PAREN);
    }

    /** The index of the {@code }} closing a <code>${</code> whose body starts at {@code from}, or -1. */
    int closeBrace(int from) {
        return close(from, BRACE);
    }

    /** The index after the closing quote of a double-quoted part whose body starts at {@code from}, or -1. */
    int skipDouble(int from) {
        int end = close(from, DOUBLE);
        return end < 0 ? -1 : end + 1;
    }

    /** The index of the {@code ]} closing a {@code [} whose body starts at {@code from} (counting nesting), or -1. */
    int closeBracket(int from) {
        int depth = 1;
        int p = from;
        while (p < s.length()) {
            char c = s.charAt(p);
            if (c == '\\') {
                p += 2;
            } else if (c == '\'') {
                int end = s.indexOf('\'', p + 1);
                if (end < 0) {
                    return -1;
                }
                p = end + 1;
            } else if (c == '"') {
                p = skipDouble(p + 1);
                if (p < 0) {
                    return -1;
                }
            } else if (c == '$' && p + 1 < s.length() && s.charAt(p + 1) == '(') {
                int end = closeParen(p + 2);
                if (end < 0) {
                    return -1;
                }
                p = end + 1;
            } else {
                if (c == '[') {
                    depth++;
                } else if (c == ']' && --depth == 0) {
                    return p;
                }
                p++;
            }
        }
        return -1;
    }

    /**
     * For {@code ((} or {@code $((} with the inner {@code (} at {@code open}: the index of the first {@code )}
     * of the {@code ))} that ends the arithmetic, or -1 when the parenthesis closing {@code open} (counted
     * plainly, within its line) is not followed by another {@code )} (then it is a subshell or a command
     * substitution, as bash decides too).
     */
    int arithmeticEnd(int open) {
        if (parenMatch == null) {
            parenMatch = matchParens(s);
        }
        int close = parenMatch[open];
        return close >= 0 && close + 1 < s.length() && s.charAt(close + 1) == ')' ? close : -1;
    }

    /** For every {@code (}: the index of its {@code )} on the same line, counted plainly; -1 when unmatched. */
    private static int[] matchParens(String s) {
        int[] match = new int[s.length()];
        int[] stack = new int[16];
        int top = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            match[i] = -1;
            if (c == '(') {
                if (top == stack.length) {
                    stack = java.util.Arrays.copyOf(stack, top * 2);
                }
                stack[top++] = i;
            } else if (c == ')' && top > 0) {
                match[stack[--top]] = i;
            } else if (c == '\n') {
                top = 0; // what is open at the end of a line stays unmatched
            }
        }
        return match;
    }

    private int close(int from, char initial) {
        char[] stack = new char[16];
        int top = 0;
        stack[top++] = initial;
        int p = from;
        int n = s.length();
        java.util.ArrayDeque<String> heredocs = new java.util.ArrayDeque<>();
        while (p < n) {
            char c = s.charAt(p);
            char ctx = stack[top - 1];
            char next = p + 1 < n ? s.charAt(p + 1) : '\0';
            if (ctx != DOUBLE && c == '<' && next == '<') {
                p = heredocOperator(p + 2, heredocs);
                continue;
            }
            if (ctx != DOUBLE && c == '\n' && !heredocs.isEmpty()) {
                p = skipHeredocBodies(p + 1, heredocs);
                continue;
            }
            if (c == '\\') {
                p += 2;
                continue;
            }
            if (c == '`') {
                p = skipBacktick(p + 1);
                if (p < 0) {
                    return -1;
                }
                continue;
            }
            if (c == '$' && (next == '(' || next == '{')) {
                if (top == stack.length) {
                    stack = java.util.Arrays.copyOf(stack, top * 2);
                }
                stack[top++] = next == '(' ? PAREN : BRACE;
                p += 2;
                continue;
            }
            char closer = ctx == PAREN ? ')' : ctx == BRACE ? '}' : '"';
            if (c == closer) {
                if (--top == 0) {
                    return p;
                }
                p++;
                continue;
            }
            if (ctx == DOUBLE) {
                p++;
                continue;
            }
            if (c == '\'') {
                int end = s.indexOf('\'', p + 1);
                if (end < 0) {
                    return -1;
                }
                p = end + 1;
                continue;
            }
            char push = c == '"' ? DOUBLE : c == '(' && ctx == PAREN ? PAREN : c == '{' && ctx == BRACE ? BRACE : 0;
            if (push != 0) {
                if (top == stack.length) {
                    stack = java.util.Arrays.copyOf(stack, top * 2);
                }
                stack[top++] = push;
            }
            p++;
        }
        return -1;
    }

    /**
     * After {@code <<} at {@code from}: a here-string ({@code <<<}) is skipped; otherwise the end marker is read
     * (quotes removed; {@code <<-} marked with a leading tab) and queued, and the index after it answered.
     */
    private int heredocOperator(int from, java.util.ArrayDeque<String> heredocs) {
        int p = from;
        if (p < s.length() && s.charAt(p) == '<') {
            return p + 1;
        }
        boolean strip = p < s.length() && s.charAt(p) == '-';
        if (strip) {
            p++;
        }
        while (p < s.length() && (s.charAt(p) == ' ' || s.charAt(p) == '\t')) {
            p++;
        }
        StringBuilder marker = new StringBuilder();
        while (p < s.length() && " \t\n;&|()<>".indexOf(s.charAt(p)) < 0) {
            char c = s.charAt(p);
            if (c == '\'' || c == '"') {
                int end = s.indexOf(c, p + 1);
                if (end < 0) {
                    return p;
                }
                marker.append(s, p + 1, end);
                p = end + 1;
            } else if (c == '\\' && p + 1 < s.length()) {
                marker.append(s.charAt(p + 1));
                p += 2;
            } else {
                marker.append(c);
                p++;
            }
        }
        if (marker.length() > 0) {
            heredocs.add((strip ? "\t" : "") + marker);
        }
        return p;
    }

    /** Skips the bodies of {@code heredocs} starting at line start {@code from}; answers the index after them. */
    private int skipHeredocBodies(int from, java.util.ArrayDeque<String> heredocs) {
        int p = from;
        while (!heredocs.isEmpty()) {
            String h = heredocs.poll();
            boolean strip = h.startsWith("\t");
            String marker = strip ? h.substring(1) : h;
            while (p < s.length()) {
                int eol = s.indexOf('\n', p);
                int end = eol < 0 ? s.length() : eol;
                int start = p;
                while (strip && start < end && s.charAt(start) == '\t') {
                    start++;
                }
                p = eol < 0 ? s.length() : eol + 1;
                if (end - start == marker.length() && s.startsWith(marker, start)) {
                    break;
                }
            }
        }
        return p;
    }

    /** The index after the backtick closing one whose body starts at {@code from}, or -1. */
    private int skipBacktick(int from) {
        int p = from;
        while (p < s.length() && s.charAt(p) != '`') {
            p += s.charAt(p) == '\\' ? 2 : 1;
        }
        return p >= s.length() ? -1 : p + 1;
    }

    /**
     * The end of the backtick substitution at {@code start} (just after its closing backtick), with its body
     * appended to {@code body} (a backslash before a backtick, dollar or backslash undone); -1 when it is not closed.
     */
    int backtickEnd(int start, StringBuilder body) {
        int p = start + 1;
        while (p < s.length() && s.charAt(p) != '`') {
            char c = s.charAt(p);
            if (c == '\\' && p + 1 < s.length() && "`$\\".indexOf(s.charAt(p + 1)) >= 0) {
                body.append(s.charAt(p + 1));
                p += 2;
            } else {
                body.append(c);
                p++;
            }
        }
        return p >= s.length() ? -1 : p + 1;
    }

    /**
     * Adds a problem when {@code text}, a word ending at {@code pos} in {@code s}, ends in {@code ? * + @ !} right
     * before a {@code (}: with {@code shopt -s extglob} on, bash reads {@code .cla@(u)de} as one pattern where the
     * lexer would see a word and a subshell, so the command is not judged.
     */
    static void extendedGlob(String s, int pos, String text, List<String> problems) {
        if (pos < s.length()
                && s.charAt(pos) == '('
                && !text.isEmpty()
                && "?*+@!".indexOf(text.charAt(text.length() - 1)) >= 0) {
            problems.add("`" + Snippet.of(text) + "(` may be an extended glob (shopt -s extglob), which this analysis"
                    + " does not read");
        }
    }
}
