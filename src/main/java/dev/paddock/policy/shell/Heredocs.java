package dev.paddock.policy.shell;

import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;

/** Reads the bodies of the here-documents opened on a line, after its newline. */
final class Heredocs {
    /** A here-document waiting for its body: its end marker, whether that was quoted, and {@code <<-}. */
    record Pending(String delimiter, boolean quoted, boolean stripTabs) {}

    private Heredocs() {}

    /**
     * Reads the bodies of {@code pending} (emptied) from {@code pos}, a line start; answers the position after
     * the last end marker. The body of each unquoted one goes to {@code unquotedBody} (bash expands it); a
     * missing end marker is a problem and the body runs to the end.
     */
    static int read(String s, int pos, Deque<Pending> pending, List<String> problems, Consumer<String> unquotedBody) {
        while (!pending.isEmpty()) {
            Pending h = pending.poll();
            boolean found = false;
            int bodyStart = pos;
            int bodyEnd = pos;
            while (pos < s.length()) {
                int eol = s.indexOf('\n', pos);
                int lineEnd = eol < 0 ? s.length() : eol;
                int lineStart = pos;
                if (h.stripTabs()) {
                    while (lineStart < lineEnd && s.charAt(lineStart) == '\t') {
                        lineStart++;
                    }
                }
                int next = eol < 0 ? s.length() : eol + 1;
                if (lineEnd - lineStart == h.delimiter().length() && s.startsWith(h.delimiter(), lineStart)) {
                    bodyEnd = pos;
                    pos = next;
                    found = true;
                    break;
                }
                pos = next;
            }
            if (!found) {
                problems.add("here-document without its end marker `" + Snippet.of(h.delimiter()) + "`");
                bodyEnd = s.length();
            }
            if (!h.quoted()) {
                unquotedBody.accept(s.substring(bodyStart, bodyEnd));
            }
        }
        return pos;
    }
}
