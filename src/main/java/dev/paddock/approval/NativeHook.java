package dev.paddock.approval;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The Claude Code hook as a small static program ({@code src/main/c}, built into the jar where the build machine has
 * a C compiler): the same protocol, messages and deadlines as {@link HookScript}'s shell script, with one process
 * start instead of three (bash, its watchdog and {@code sha256sum}). See
 * docs/decisions/0017-native-hook-client.md.
 *
 * <p>The program carries its configuration: a 4 KiB block that starts with {@link #MARKER}, into which
 * {@link #program} writes the home and the three times, so it reads no file of its own to start. Environment
 * variable {@value #OFF_VARIABLE}{@code =off} makes Paddock write the script instead.
 */
public final class NativeHook {
    /** The line that starts the configuration block in the program. */
    static final String MARKER = "PADDOCK-HOOK-CONFIG-V1\n";
    /** The size of the configuration block, its marker and final NUL included. */
    static final int BLOCK = 4096;
    /** Set to {@code off} to use the shell script even where the program exists. */
    public static final String OFF_VARIABLE = "PADDOCK_NATIVE_HOOK";

    private NativeHook() {}

    /** The jar's resource for this machine, such as {@code native/linux-amd64/paddock-hook-claude}. */
    static String resource() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        return "native/" + (os.contains("linux") ? "linux" : os.replace(' ', '-')) + "-"
                + System.getProperty("os.arch", "") + "/" + HookScript.NAME;
    }

    /** Whether the native hook is off ({@value #OFF_VARIABLE}{@code =off}). */
    static boolean off() {
        return "off".equalsIgnoreCase(System.getenv(OFF_VARIABLE));
    }

    /**
     * The program for {@code paddockHome} with its configuration written in, or empty where this jar has none for
     * this machine, it is switched off, or the home's path does not fit the block.
     */
    static Optional<byte[]> program(Path paddockHome, long approvalS, int answerS, int quietS) {
        if (off()) {
            return Optional.empty();
        }
        byte[] binary;
        try (InputStream in = NativeHook.class.getResourceAsStream(resource())) {
            if (in == null) {
                return Optional.empty();
            }
            binary = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the native hook " + resource(), e);
        }
        String home = paddockHome.toAbsolutePath().toString();
        if (home.indexOf('\n') >= 0 || home.indexOf('\0') >= 0) {
            return Optional.empty();
        }
        byte[] config = (MARKER + "home=" + home + "\napproval_s=" + approvalS + "\nanswer_s=" + answerS + "\nquiet_s="
                        + quietS + "\n")
                .getBytes(StandardCharsets.UTF_8);
        if (config.length >= BLOCK) {
            return Optional.empty();
        }
        int at = indexOf(binary, MARKER.getBytes(StandardCharsets.US_ASCII), 0);
        if (at < 0
                || indexOf(binary, MARKER.getBytes(StandardCharsets.US_ASCII), at + 1) >= 0
                || at + BLOCK > binary.length) {
            throw new IllegalStateException("the native hook " + resource() + " has no single configuration block");
        }
        byte[] out = binary.clone();
        Arrays.fill(out, at, at + BLOCK, (byte) 0);
        System.arraycopy(config, 0, out, at, config.length);
        return Optional.of(out);
    }

    private static int indexOf(byte[] in, byte[] what, int from) {
        outer:
        for (int i = from; i <= in.length - what.length; i++) {
            for (int j = 0; j < what.length; j++) {
                if (in[i + j] != what[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
