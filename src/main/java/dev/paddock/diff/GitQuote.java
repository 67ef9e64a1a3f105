package dev.paddock.diff;

import java.nio.charset.StandardCharsets;

/**
 * A path as git prints it with {@code core.quotePath} on (its default): unchanged unless it holds a control character,
 * a double quote, a backslash or a non-ASCII byte; then in double quotes, with {@code \t}, {@code \n}, {@code \"},
 * {@code \\} and the like, and other such bytes as three octal digits. JGit's own quoting also quotes {@code [}, {@code {}
 * and others that git leaves alone.
 */
public final class GitQuote {
    private GitQuote() {}

    public static String path(String path) {
        byte[] bytes = path.getBytes(StandardCharsets.UTF_8);
        boolean needed = false;
        for (byte b : bytes) {
            int c = b & 0xff;
            if (c < 0x20 || c == '"' || c == '\\' || c >= 0x7f) {
                needed = true;
                break;
            }
        }
        if (!needed) {
            return path;
        }
        StringBuilder out = new StringBuilder("\"");
        for (byte b : bytes) {
            int c = b & 0xff;
            switch (c) {
                case 0x07 -> out.append("\\a");
                case '\b' -> out.append("\\b");
                case '\t' -> out.append("\\t");
                case '\n' -> out.append("\\n");
                case 0x0b -> out.append("\\v");
                case '\f' -> out.append("\\f");
                case '\r' -> out.append("\\r");
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                default -> {
                    if (c < 0x20 || c >= 0x7f) {
                        out.append('\\')
                                .append((char) ('0' + (c >> 6)))
                                .append((char) ('0' + ((c >> 3) & 7)))
                                .append((char) ('0' + (c & 7)));
                    } else {
                        out.append((char) c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
