package dev.paddock.agent;

import dev.paddock.common.PrivateFiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Claude Code's {@code Stop} and {@code Notification} hook: a small {@code sh} script, {@code paddock-turn-claude}
 * (resource beside this class), that Paddock writes to {@code <paddock home>/bin/} with mode 700 and
 * {@link ClaudeSettingsWriter} names in a sandbox's settings. It tells Paddock that a turn ended or that the agent
 * waits, and never changes what Claude Code does (no output, exit 0 always).
 *
 * <p>It sends the hook's input as is, by two channels, both best effort:
 * <ul>
 * <li>the file {@code $PADDOCK_TURN_FILE} ({@link #FILE_VARIABLE}), replaced atomically: no network, no secret,
 *     every tier (the supervisor reads it the way it reads the heartbeat file);</li>
 * <li>{@code POST $PADDOCK_API}{@value #ROUTE}{@code ?sandbox=ID}, signed with {@code PADDOCK_HOOK_KEY} exactly as
 *     {@code paddock-hook-claude} signs its PreToolUse requests ({@code Paddock-Auth}, see
 *     {@code dev.paddock.api.HookAuth}), so no token travels; the answer is not read. The route is this
 *     interface's other side: it checks the signature as for {@code /v1/hooks/claude}, parses the body with
 *     {@link TurnSignal#parse} and answers {@code 204}. In a namespace or container sandbox it goes through the
 *     sandbox's own socket, {@code $PADDOCK_API_SOCKET}, instead (signed for the address {@code unix}).</li>
 * </ul>
 */
public final class TurnHook {
    /** The script's file name under {@code <paddock home>/bin}. */
    public static final String NAME = "paddock-turn-claude";
    /** The API route the script posts to (with {@code ?sandbox=ID}). */
    public static final String ROUTE = "/v1/hooks/claude/turn";
    /** The variable naming the file the script writes. */
    public static final String FILE_VARIABLE = "PADDOCK_TURN_FILE";
    /** Largest hook input sent, in bytes (the API takes bodies up to 1 MiB). */
    public static final int MAX_BODY = 1024 * 1024 - 1024;
    /** Seconds curl may take for the whole request. */
    public static final int MAX_S = 4;
    /** Claude Code's {@code timeout} for the hook, in seconds: the script ends well before. */
    public static final int HOOK_TIMEOUT_S = 15;

    private static final String RESOURCE = "paddock-turn-claude.sh";

    private TurnHook() {}

    /** {@code <paddock home>/bin/paddock-turn-claude}. */
    public static Path path(Path paddockHome) {
        return paddockHome.toAbsolutePath().resolve("bin").resolve(NAME);
    }

    /**
     * Writes the script for {@code paddockHome} (mode 700) unless it is already there with this content.
     *
     * @return its path
     * @throws IOException when it cannot be written
     */
    public static Path write(Path paddockHome) throws IOException {
        Path file = path(paddockHome);
        String text = text();
        if (Files.isRegularFile(file)
                && Files.isExecutable(file)
                && Files.readString(file, StandardCharsets.UTF_8).equals(text)) {
            return file;
        }
        PrivateFiles.write(file, text.getBytes(StandardCharsets.UTF_8), PrivateFiles.DIR);
        if (!PrivateFiles.posix(file)) {
            file.toFile().setExecutable(true, true);
        }
        return file;
    }

    /** The script's text. */
    static String text() {
        try (InputStream in = TurnHook.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the hook script " + RESOURCE + " is missing from Paddock's jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .replace("@ROUTE@", ROUTE)
                    .replace("@MAX_BODY@", Integer.toString(MAX_BODY))
                    .replace("@MAX_S@", Integer.toString(MAX_S));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the hook script " + RESOURCE, e);
        }
    }
}
