package dev.paddock.publish;

import java.util.regex.Pattern;

/**
 * Takes credentials out of text that names a remote: the user information of a URL ({@code
 * https://user:token@host/...} becomes {@code https://***@host/...}), so a URL with a password or token in it is
 * never shown, stored in an event or logged by Paddock.
 */
public final class Redaction {
    /** A URL's scheme and user information: everything between {@code ://} and the first {@code @} of its host. */
    private static final Pattern USER_INFO = Pattern.compile("(?i)\\b([a-z][a-z0-9+.-]*://)[^/\\s@]+@");

    private Redaction() {}

    /** {@code text} with the user information of every URL in it replaced by {@code ***}; null stays null. */
    public static String redact(String text) {
        return text == null ? null : USER_INFO.matcher(text).replaceAll("$1***@");
    }
}
