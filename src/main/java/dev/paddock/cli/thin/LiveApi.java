package dev.paddock.cli.thin;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * The API of the Paddock running for a home, found as the full CLI finds it ({@code ApiClient.discover}): the home
 * of {@code --home}, else {@code PADDOCK_HOME}, else {@code ~/.paddock}; its {@code instance.json} kept only when
 * its process is alive and started before the file was written; the install token from {@code api-token}. Read
 * with the JDK alone (no Jackson): the instance file is a flat object Paddock writes itself, and anything this
 * reader does not expect makes it give up, so the full CLI then reads it and reports on it. Like the rest of the thin
 * client, it uses no lambda and no string concatenation with {@code +}: each would bootstrap an invokedynamic call
 * site at start, which costs more than the whole lookup.
 *
 * @param port the loopback port of the API
 * @param token the install token, sent as a bearer token like the full CLI sends it
 */
record LiveApi(int port, String token) {
    /** Longest instance or token file read; Paddock writes well under 1 KiB. */
    private static final int MAX_FILE_BYTES = 64 * 1024;

    /** The running Paddock's API for the home of {@code explicitHome} or {@code env}; empty when in any doubt. */
    static Optional<LiveApi> find(Path explicitHome, Map<String, String> env) throws IOException {
        Path home = home(explicitHome, env);
        Path instance = home.resolve("instance.json");
        Path tokenFile = home.resolve("api-token");
        if (!Files.isRegularFile(instance)
                || Files.size(instance) > MAX_FILE_BYTES
                || !Files.isRegularFile(tokenFile)
                || Files.size(tokenFile) > MAX_FILE_BYTES) {
            return Optional.empty();
        }
        String json = Files.readString(instance, StandardCharsets.UTF_8);
        long pid = number(json, "pid");
        long port = number(json, "port");
        String startedAt = string(json, "startedAt");
        if (pid <= 0 || port <= 0 || port > 65535 || !live(pid, startedAt)) {
            return Optional.empty();
        }
        String token = Files.readString(tokenFile, StandardCharsets.US_ASCII).strip();
        // A token is base64url; anything else could not go in a header as it is.
        if (token.isEmpty()) {
            return Optional.empty();
        }
        for (int i = 0; i < token.length(); i++) {
            if (token.charAt(i) <= 0x20 || token.charAt(i) >= 0x7f) {
                return Optional.empty();
            }
        }
        return Optional.of(new LiveApi((int) port, token));
    }

    /** As {@code PaddockHome.resolve} picks the home (without creating it). */
    static Path home(Path explicitHome, Map<String, String> env) {
        Path dir;
        if (explicitHome != null) {
            dir = explicitHome;
        } else if (env.get("PADDOCK_HOME") != null && !env.get("PADDOCK_HOME").isBlank()) {
            dir = Path.of(env.get("PADDOCK_HOME"));
        } else {
            dir = Path.of(System.getProperty("user.home"), ".paddock");
        }
        return dir.toAbsolutePath().normalize();
    }

    /**
     * As {@code InstanceFile.live}: the process is alive and is the one that wrote the file (a crashed Paddock
     * leaves it behind, and its pid may since belong to a program that started after the file was written).
     */
    private static boolean live(long pid, String startedAt) {
        Instant written;
        try {
            written = startedAt == null ? null : instant(startedAt);
        } catch (java.time.DateTimeException e) {
            return false;
        }
        Optional<ProcessHandle> p = ProcessHandle.of(pid);
        if (p.isEmpty() || !p.get().isAlive()) {
            return false;
        }
        Optional<Instant> start = p.get().info().startInstant();
        // Clock tick granularity and rounding: allow a little slack (as InstanceFile does).
        return written == null || start.isEmpty() || !start.get().isAfter(written.plusSeconds(2));
    }

    /**
     * {@code Instant.parse} of the time Paddock writes ({@code 2026-12-06T14:25:41.590335206Z}, 0 to 9 digits of
     * fraction), read without a {@code DateTimeFormatter}: building one spins up lambdas, a fifth of this lookup's
     * time. Any other form goes to {@code Instant.parse}.
     *
     * @throws java.time.DateTimeException when it is not a time
     */
    static Instant instant(String text) {
        int n = text.length();
        boolean plain = n >= 20
                && n <= 30
                && text.charAt(4) == '-'
                && text.charAt(7) == '-'
                && text.charAt(10) == 'T'
                && text.charAt(13) == ':'
                && text.charAt(16) == ':'
                && text.charAt(n - 1) == 'Z'
                && (n == 20 || text.charAt(19) == '.' && n > 21);
        for (int i = 0; plain && i < n - 1; i++) {
            plain = i == 4
                    || i == 7
                    || i == 10
                    || i == 13
                    || i == 16
                    || i == 19
                    || Character.isDigit(text.charAt(i)) && text.charAt(i) < 0x80;
        }
        if (!plain) {
            return Instant.parse(text);
        }
        long day = java.time.LocalDate.of(digits(text, 0, 4), digits(text, 5, 7), digits(text, 8, 10))
                .toEpochDay();
        int hour = digits(text, 11, 13);
        int minute = digits(text, 14, 16);
        int second = digits(text, 17, 19);
        if (hour > 23 || minute > 59 || second > 59) {
            return Instant.parse(text);
        }
        int nanos = 0;
        for (int i = 20; i < 29; i++) {
            nanos = nanos * 10 + (i < n - 1 ? text.charAt(i) - '0' : 0);
        }
        return Instant.ofEpochSecond(day * 86_400L + hour * 3600L + minute * 60L + second, nanos);
    }

    private static int digits(String text, int from, int to) {
        int v = 0;
        for (int i = from; i < to; i++) {
            v = v * 10 + text.charAt(i) - '0';
        }
        return v;
    }

    /** The value of {@code "key": 123} at the file's top level; -1 when absent or not a plain number. */
    static long number(String json, String key) {
        int at = valueStart(json, key);
        if (at < 0) {
            return -1;
        }
        int end = at;
        while (end < json.length() && Character.isDigit(json.charAt(end)) && end - at < 18) {
            end++;
        }
        if (end == at || end < json.length() && ",} \n\r\t".indexOf(json.charAt(end)) < 0) {
            return -1;
        }
        return Long.parseLong(json.substring(at, end));
    }

    /** The value of {@code "key": "text"} (text without escapes); null when absent, null or anything else. */
    static String string(String json, String key) {
        int at = valueStart(json, key);
        if (at < 0 || at >= json.length() || json.charAt(at) != '"') {
            return null;
        }
        int end = json.indexOf('"', at + 1);
        if (end < 0 || json.substring(at + 1, end).indexOf('\\') >= 0) {
            return null;
        }
        return json.substring(at + 1, end);
    }

    /** Where the value of {@code key} starts (after the colon and blanks), or -1 when the key appears not once. */
    private static int valueStart(String json, String key) {
        String quoted = new StringBuilder().append('"').append(key).append('"').toString();
        int k = json.indexOf(quoted);
        if (k < 0 || json.indexOf(quoted, k + 1) >= 0) {
            return -1;
        }
        int i = k + quoted.length();
        while (i < json.length() && Character.isWhitespace(json.charAt(i))) {
            i++;
        }
        if (i >= json.length() || json.charAt(i) != ':') {
            return -1;
        }
        i++;
        while (i < json.length() && Character.isWhitespace(json.charAt(i))) {
            i++;
        }
        return i;
    }
}
