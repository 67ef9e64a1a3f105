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
        if (!Files.isRegularFile(instance) || Files.size(instance) > MAX_FILE_BYTES
                || !Files.isRegularFile(tokenFile) || Files.size(tokenFile) > MAX_FILE_BYTES) {
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
            written = startedAt == null ? null : Instant.parse(startedAt);
        } catch (java.time.format.DateTimeParseException e) {
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
