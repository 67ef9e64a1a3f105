package dev.paddock.merge.conflict;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits text into lines the way JGit's {@code RawText} counts them (a line ends at {@code \n}; a last line
 * without one still counts; empty text has no line) and drops the terminators, {@code \r\n} included.
 */
final class Lines {
    private Lines() {}

    /** The lines of {@code text} without terminators; empty for {@code null} or empty text. */
    static List<String> split(String text) {
        List<String> lines = new ArrayList<>();
        if (text == null || text.isEmpty()) {
            return lines;
        }
        int start = 0;
        while (start < text.length()) {
            int nl = text.indexOf('\n', start);
            int end = nl < 0 ? text.length() : nl;
            lines.add(stripCr(text.substring(start, end)));
            start = nl < 0 ? text.length() : nl + 1;
        }
        return lines;
    }

    /** The line terminator the text uses: {@code \r\n} when its first line ends so, else {@code \n}. */
    static String terminator(String text) {
        if (text == null) {
            return "\n";
        }
        int nl = text.indexOf('\n');
        return nl > 0 && text.charAt(nl - 1) == '\r' ? "\r\n" : "\n";
    }

    /** Whether the text ends with a line terminator (true for empty text: nothing is missing). */
    static boolean endsWithTerminator(String text) {
        return text == null || text.isEmpty() || text.endsWith("\n");
    }

    static String stripCr(String line) {
        return line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
    }
}
