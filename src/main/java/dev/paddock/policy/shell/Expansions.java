package dev.paddock.policy.shell;

import java.util.List;

/** Finds the expansions in text bash expands later than the command line is read. */
public final class Expansions {
    private Expansions() {}

    /**
     * Finds the expansions in {@code text} that bash performs on it later (an unquoted here-document body, the
     * word of <code>${x:-word}</code>, a quoted string an evaluating context may expand): command substitutions
     * are added to {@code subs}, problems of the expansions to {@code problems}. Quotes are not taken as
     * quoting, so a {@code $(...)} inside single quotes counts too (inside double quotes, where such words often
     * are, single quotes are plain characters).
     */
    public static void scan(String text, List<String> subs, List<String> problems, int depth) {
        ShellLexer inner = new ShellLexer(text, depth);
        int pos = 0;
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c == '\\') {
                pos += 2;
            } else if (c == '$' || c == '`') {
                pos = inner.expansionAt(pos, subs);
            } else {
                pos++;
            }
        }
        problems.addAll(inner.problems());
    }
}
