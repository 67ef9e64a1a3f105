package dev.paddock.approval;

import dev.paddock.common.PrivateFiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The light path of the Claude Code hook: a shell script (no JVM, no {@code jq}) that Paddock writes to
 * {@code <paddock home>/bin/paddock-hook-claude} with mode 700, from the resource
 * {@code paddock-hook-claude.sh} beside this class. It sends the hook's stdin as is to
 * {@code POST /v1/hooks/claude} and prints the broker's answer: line 1 of the answer is the verdict (exit 0 or
 * 2), line 2 the stdout JSON, line 3 the reason (stderr on deny).
 *
 * <p>Under bash (the shebang is {@code /bin/bash} where it exists) it speaks HTTP/1.0 through bash's
 * {@code /dev/tcp} and starts one process for an allowed call, {@code sha256sum}: starting curl alone took
 * ~12 ms here, more than the broker's answer. HTTP/1.0 because the JDK's server then ends a long-polled answer
 * by closing the connection instead of chunking it. Under another sh, or a bash built without
 * {@code /dev/tcp}, it uses curl.
 *
 * <p>Where it finds the broker: in a namespace or container sandbox, {@code PADDOCK_API_SOCKET} (the sandbox's own
 * Unix socket, through {@code curl --unix-socket}; see docs/decisions/0019-hook-channel-per-sandbox-socket.md);
 * else {@code PADDOCK_API}, {@code PADDOCK_SANDBOX_ID} and {@code PADDOCK_HOOK_KEY},
 * which Paddock gives every agent it starts; otherwise the running Paddock of the home it was written for
 * ({@code instance.json}, with {@code api-token} as its key). How it recognises the real Paddock without
 * sending any token: {@code dev.paddock.api.HookAuth}. The key never goes on a command line (where {@code ps}
 * would show it): it reaches {@code sha256sum} through a here-document.
 *
 * <p>In time: connecting, sending and the first answer must fit in {@value #ANSWER_S} s (a watchdog child
 * bounds the connect; every read has {@code read -t}); while a person decides, the broker sends a space every
 * half second and the hook denies after {@value #QUIET_S} s without one (curl: within 8 s), or when its
 * whole time is up: Claude Code's hook timeout (the script's {@code --timeout SECONDS}, which the installer
 * passes) less a margin of up to 15 s, or, without it, the approval timeout at the time of writing plus 30 s.
 *
 * <p>Fail-closed: no broker (and no curl to try), no key, an HTTP error, an answer without the proof or one it
 * cannot read all print a deny and exit 2. It never exits with another code: Claude Code takes any other code as
 * a non-blocking error and lets the call through (Claude Code hooks reference, "Exit code output").
 */
public final class HookScript {
    /** The script's file name under {@code <paddock home>/bin}. */
    public static final String NAME = "paddock-hook-claude";
    /** Seconds for connecting, sending and the broker's first answer. */
    public static final int ANSWER_S = 10;
    /**
     * Longest silence of the broker while a person decides, in seconds (it sends a sign twice a second). Under
     * curl, which takes its speed over its last 5 s, a silence is noticed 3 to 8 s after the last byte.
     */
    public static final int QUIET_S = 5;

    private static final String RESOURCE = "paddock-hook-claude.sh";

    private HookScript() {}

    /** {@code <paddock home>/bin/paddock-hook-claude}: the command Claude Code runs (the program, or the script). */
    public static Path path(Path paddockHome) {
        return paddockHome.resolve("bin").resolve(NAME);
    }

    /** {@code <paddock home>/bin/paddock-hook-claude.sh}: the shell script, written beside the program. */
    public static Path scriptPath(Path paddockHome) {
        return paddockHome.resolve("bin").resolve(NAME + ".sh");
    }

    /**
     * Writes the hook for {@code paddockHome} (mode 700) unless it is already there with this content: the native
     * program ({@link NativeHook}) where this jar has one for this machine, else the script; the script is written
     * to {@link #scriptPath} as well, either way.
     *
     * @param approvalTimeoutMs the approval timeout in force, in ms: bounds the hook's wait when Claude Code's
     *     timeout is not passed to it
     * @return the hook's path ({@link #path})
     * @throws IOException when it cannot be written
     */
    public static Path write(Path paddockHome, long approvalTimeoutMs) throws IOException {
        Path home = paddockHome.toAbsolutePath();
        byte[] script = text(home, approvalTimeoutMs).getBytes(StandardCharsets.UTF_8);
        writeIfChanged(scriptPath(home), script);
        byte[] hook = NativeHook.program(home, approvalSeconds(approvalTimeoutMs), ANSWER_S, QUIET_S)
                .orElse(script);
        return writeIfChanged(path(home), hook);
    }

    private static Path writeIfChanged(Path file, byte[] content) throws IOException {
        if (Files.isRegularFile(file)
                && Files.isExecutable(file)
                && Files.size(file) == content.length
                && Arrays.equals(Files.readAllBytes(file), content)) {
            return file;
        }
        // Created with mode 700 (its directory too): it names the home and is run by Claude Code as is. Written to a
        // new file and moved: a running hook's program is never changed under it.
        PrivateFiles.write(file, content, PrivateFiles.DIR);
        if (!PrivateFiles.posix(file)) {
            file.toFile().setExecutable(true, true);
        }
        return file;
    }

    private static long approvalSeconds(long approvalTimeoutMs) {
        return (Math.max(0, approvalTimeoutMs) + 999) / 1000;
    }

    /** The interpreter of the script: bash when this machine has it (its {@code /dev/tcp} saves a curl start-up). */
    static String shebang() {
        return Files.isExecutable(Path.of("/bin/bash")) ? "#!/bin/bash" : "#!/bin/sh";
    }

    /** The script's text for {@code paddockHome}, run by {@link #shebang()}. */
    static String text(Path paddockHome, long approvalTimeoutMs) {
        String template;
        try (InputStream in = HookScript.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the hook script " + RESOURCE + " is missing from Paddock's jar");
            }
            template = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the hook script " + RESOURCE, e);
        }
        long approvalS = approvalSeconds(approvalTimeoutMs);
        return template.replace("@SHEBANG@", shebang())
                .replace("@HOME@", shellQuote(paddockHome.toString()))
                .replace("@APPROVAL_S@", Long.toString(approvalS))
                .replace("@ANSWER_S@", Integer.toString(ANSWER_S))
                .replace("@QUIET_S@", Integer.toString(QUIET_S));
    }

    /** Single-quotes {@code s} for sh. */
    static String shellQuote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
