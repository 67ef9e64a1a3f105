package dev.paddock.policy.shell;

import java.util.ArrayList;
import java.util.List;

/**
 * Judges text that bash evaluates as arithmetic: {@code $((...))}, {@code $[...]}, {@code ((...))},
 * {@code for ((...))}, array subscripts, {@code ${x:offset:length}}, {@code let}, {@code declare -i} values and
 * the operands of {@code [[ a -eq b ]]}.
 *
 * <p>Arithmetic is where bash runs code hidden in data: a variable named in it is expanded and its value
 * evaluated as an expression in turn, so a value such as {@code a[$(rm -rf x)]} (an array subscript) runs the
 * command substitution. {@code ls 'a[$(touch x)]'; ls $((_))} runs {@code touch x}. So an expression is
 * clean only when it holds nothing but numbers and operators; any variable (named or {@code $x}), any
 * parameter expansion except a length ({@code ${#x}}), and any command substitution (whose output is
 * evaluated the same way) is a problem. Command substitutions are also collected so their commands are
 * judged.
 */
public final class Arithmetic {
    /** Deeper nesting of expansions inside one another than this is a problem, not a deep recursion. */
    public static final int MAX_DEPTH = 16;

    private Arithmetic() {}

    /**
     * Checks {@code text}.
     *
     * @param shown how the expression appears in the source, for the problem's wording
     * @param subs where the sources of command substitutions found in it are added
     * @param problems where what makes it unjudgeable is added (nothing when it is clean)
     * @param depth how deep in other expansions this one is
     */
    public static void check(String text, String shown, List<String> subs, List<String> problems, int depth) {
        if (depth > MAX_DEPTH) {
            problems.add("expansions nested more than " + MAX_DEPTH + " levels deep in `" + Snippet.of(shown) + "`");
            return;
        }
        ShellScan scan = new ShellScan(text);
        String variable = null;
        boolean substitution = false;
        int n = text.length();
        int i = 0;
        while (i < n) {
            char c = text.charAt(i);
            if (c >= '0' && c <= '9') {
                i++;
                while (i < n && (Character.isLetterOrDigit(text.charAt(i)) || "#@_".indexOf(text.charAt(i)) >= 0)) {
                    i++; // 0x1F, 16#ff, 64#_@: the letters are digits
                }
            } else if (Character.isLetter(c) || c == '_') {
                int start = i;
                while (i < n && (Character.isLetterOrDigit(text.charAt(i)) || text.charAt(i) == '_')) {
                    i++;
                }
                variable = variable != null ? variable : text.substring(start, i);
            } else if (c == '\\') {
                i += 2;
            } else if (c == '`') {
                int end = i + 1;
                while (end < n && text.charAt(end) != '`') {
                    end += text.charAt(end) == '\\' ? 2 : 1;
                }
                subs.add(unescapeBackticks(text.substring(i + 1, Math.min(end, n))));
                substitution = true;
                i = end + 1;
            } else if (c == '$') {
                char d = i + 1 < n ? text.charAt(i + 1) : '\0';
                if (d == '(' && i + 2 < n && text.charAt(i + 2) == '(' && scan.arithmeticEnd(i + 2) >= 0) {
                    int end = scan.arithmeticEnd(i + 2);
                    check(text.substring(i + 3, end), shown, subs, problems, depth + 1);
                    i = end + 2;
                } else if (d == '(') {
                    int end = scan.closeParen(i + 2);
                    subs.add(end < 0 ? text.substring(i + 2) : text.substring(i + 2, end));
                    substitution = true;
                    i = end < 0 ? n : end + 1;
                } else if (d == '{') {
                    int end = scan.closeBrace(i + 2);
                    String body = end < 0 ? text.substring(i + 2) : text.substring(i + 2, end);
                    ParameterExpansion.check(body, subs, problems, depth + 1);
                    if (!body.startsWith("#") || body.length() < 2) {
                        variable = variable != null ? variable : "${" + body + "}";
                    }
                    i = end < 0 ? n : end + 1;
                } else if (d == '[') {
                    int end = scan.closeBracket(i + 2);
                    check(
                            end < 0 ? text.substring(i + 2) : text.substring(i + 2, end),
                            shown,
                            subs,
                            problems,
                            depth + 1);
                    i = end < 0 ? n : end + 1;
                } else {
                    int start = i++;
                    if (i < n && (Character.isLetter(text.charAt(i)) || text.charAt(i) == '_')) {
                        while (i < n && (Character.isLetterOrDigit(text.charAt(i)) || text.charAt(i) == '_')) {
                            i++;
                        }
                    } else if (i < n && (Character.isDigit(text.charAt(i)) || "@*#?$!-".indexOf(text.charAt(i)) >= 0)) {
                        i++;
                    }
                    if (i > start + 1) {
                        variable = variable != null ? variable : text.substring(start, i);
                    }
                }
            } else {
                i++;
            }
        }
        if (substitution) {
            problems.add("command substitution inside arithmetic `" + Snippet.of(shown)
                    + "`: bash evaluates its output as an expression, which can run more commands");
        }
        if (variable != null) {
            problems.add("arithmetic `" + Snippet.of(shown) + "` evaluates `" + Snippet.of(variable)
                    + "`, whose value bash evaluates as an expression in turn (an array subscript in it runs"
                    + " `$(...)`)");
        }
    }

    /** Whether {@code text} is an integer literal (optionally signed, spaces allowed around it). */
    public static boolean isLiteralInteger(String text) {
        String t = text.strip();
        int i = t.startsWith("-") || t.startsWith("+") ? 1 : 0;
        if (i >= t.length()) {
            return false;
        }
        for (; i < t.length(); i++) {
            if (!Character.isDigit(t.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    static String unescapeBackticks(String body) {
        StringBuilder b = new StringBuilder(body.length());
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c == '\\' && i + 1 < body.length() && "`$\\".indexOf(body.charAt(i + 1)) >= 0) {
                b.append(body.charAt(++i));
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    /**
     * For an element {@code [expr]=value} of an array assignment: checks its subscript as arithmetic (an indexed
     * array evaluates it), adding what it finds to {@code problems}; other elements are left alone.
     */
    static void checkSubscript(String raw, List<String> problems, int depth) {
        int end = raw.startsWith("[") ? new ShellScan(raw).closeBracket(1) : -1;
        if (end > 0 && (raw.startsWith("=", end + 1) || raw.startsWith("+=", end + 1))) {
            String sub = raw.substring(1, end);
            if (!isLiteralInteger(sub)) {
                check(sub, "[" + sub + "]=", new ArrayList<>(), problems, depth);
            }
        }
    }
}
