package dev.paddock.policy;

import dev.paddock.policy.shell.Snippet;

/**
 * Reads an awk program for what reaches outside its input: {@code system(...)}, pipes ({@code print | "cmd"},
 * {@code "cmd" | getline}, {@code |&}), output redirection in a {@code print} or {@code printf}
 * ({@code print > "f"}), {@code getline < file}, and gawk's {@code @load} and {@code @include}. Each is a
 * problem: the command or file is an expression evaluated at run time. Strings, regular expressions (a
 * {@code /} where an operand is expected), comments and {@code ||} are skipped, so {@code $3 > 100} and
 * {@code /a|b/} are not mistaken for redirections.
 */
final class AwkProgram {
    private AwkProgram() {}

    static void check(String program, String text, ArgumentEffects fx) {
        String shown = program + " '" + Snippet.of(text) + "'";
        boolean operandBefore = false;
        boolean inPrint = false;
        int printDepth = 0;
        int depth = 0;
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c == '"') {
                i = skip(text, i + 1, '"');
                operandBefore = true;
            } else if (c == '/' && !operandBefore) {
                i = skipRegex(text, i + 1);
                operandBefore = true;
            } else if (c == '#') {
                int eol = text.indexOf('\n', i);
                i = eol < 0 ? n : eol - 1;
            } else if (Character.isLetter(c) || c == '_' || c == '@') {
                int start = i;
                while (i + 1 < n && (Character.isLetterOrDigit(text.charAt(i + 1)) || text.charAt(i + 1) == '_')) {
                    i++;
                }
                String word = text.substring(start, i + 1);
                switch (word) {
                    case "system" -> fx.problem("`" + shown + "` runs a command (system)");
                    case "print", "printf" -> {
                        inPrint = true;
                        printDepth = depth;
                    }
                    case "getline" -> {
                        if (text.indexOf('<', i) >= 0) {
                            fx.problem("`" + shown + "` reads a file named in the program (getline <)");
                        }
                    }
                    case "@load", "@include" ->
                        fx.problem("`" + shown + "` loads "
                                + (word.equals("@load") ? "a shared library" : "another program") + " (" + word + ")");
                    default -> {}
                }
                operandBefore = !word.equals("print")
                        && !word.equals("printf")
                        && !word.equals("return")
                        && !word.equals("in")
                        && !word.startsWith("@");
            } else if (Character.isDigit(c) || c == '$') {
                operandBefore = true;
            } else if (c == '|') {
                if (i + 1 < n && text.charAt(i + 1) == '|') {
                    i++;
                    operandBefore = false;
                } else {
                    fx.problem("`" + shown + "` pipes to or from a command (|)");
                    operandBefore = false;
                }
            } else if (c == '>' && inPrint && depth == printDepth) {
                fx.problem("`" + shown + "` writes to a file named in the program (print >)");
                operandBefore = false;
            } else if (c == '(' || c == '[') {
                depth++;
                operandBefore = false;
            } else if (c == ')' || c == ']') {
                depth--;
                operandBefore = true;
            } else if (c == ';' || c == '\n' || c == '{' || c == '}') {
                inPrint = false;
                operandBefore = false;
            } else if (!Character.isWhitespace(c)) {
                operandBefore = c == '+' && i + 1 < n && text.charAt(i + 1) == '+'
                        || c == '-' && i + 1 < n && text.charAt(i + 1) == '-';
                if (operandBefore) {
                    i++;
                }
            }
        }
    }

    private static int skip(String text, int from, char end) {
        int i = from;
        while (i < text.length() && text.charAt(i) != end) {
            i += text.charAt(i) == '\\' ? 2 : 1;
        }
        return Math.min(i, text.length());
    }

    private static int skipRegex(String text, int from) {
        int i = from;
        boolean inClass = false;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '\\') {
                i += 2;
                continue;
            }
            if (c == '[') {
                inClass = true;
            } else if (c == ']') {
                inClass = false;
            } else if (c == '/' && !inClass) {
                return i;
            } else if (c == '\n') {
                return i;
            }
            i++;
        }
        return text.length();
    }
}
