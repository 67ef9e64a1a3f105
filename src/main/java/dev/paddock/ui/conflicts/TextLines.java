package dev.paddock.ui.conflicts;

import java.util.Arrays;
import java.util.List;

/**
 * A text as lines: split on {@code \n} (a {@code \r} stays in its line), with whether the text ended
 * with a line break. Joining gives the text back exactly; the paragraphs of a code area showing the
 * text are the lines, plus one empty paragraph when {@code trailingNewline}. (The classifier's
 * {@code merge.conflict.Lines} drops {@code \r} instead, as JGit counts lines; the editor must keep every byte.)
 *
 * @param lines           the lines without their {@code \n}
 * @param trailingNewline whether the last line ended with {@code \n}
 */
record TextLines(List<String> lines, boolean trailingNewline) {
    TextLines {
        lines = List.copyOf(lines);
    }

    /** The lines of {@code text}; {@code null} (an absent version) and "" have none. */
    static TextLines of(String text) {
        if (text == null || text.isEmpty()) {
            return new TextLines(List.of(), false);
        }
        boolean trailing = text.endsWith("\n");
        String body = trailing ? text.substring(0, text.length() - 1) : text;
        return new TextLines(Arrays.asList(body.split("\n", -1)), trailing);
    }

    /** The text of {@code lines}. */
    static String join(List<String> lines, boolean trailingNewline) {
        if (lines.isEmpty()) {
            return "";
        }
        String body = String.join("\n", lines);
        return trailingNewline ? body + "\n" : body;
    }

    /** The text again. */
    String text() {
        return join(lines, trailingNewline);
    }

    /** Lines {@code [start, end)}. */
    List<String> range(int start, int end) {
        return lines.subList(start, end);
    }

    /** Number of {@code \n} in {@code s} before {@code end}. */
    static int breaks(CharSequence s, int start, int end) {
        int n = 0;
        for (int i = start; i < end; i++) {
            if (s.charAt(i) == '\n') {
                n++;
            }
        }
        return n;
    }
}
