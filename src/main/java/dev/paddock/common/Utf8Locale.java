package dev.paddock.common;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Makes sure Paddock runs with UTF-8 file names. Java 17 encodes file names with the charset of
 * the process locale ({@code sun.jnu.encoding}); under the C/POSIX locale that is ASCII and any path
 * such as {@code Проекты/My Répo} throws {@code InvalidPathException}. The property cannot be changed
 * once the JVM runs, so in that case Paddock starts itself again with {@code LC_ALL=C.UTF-8}.
 *
 * <p>The relaunch goes through a small shell script written byte for byte from
 * {@code /proc/self/cmdline}: this JVM has already decoded its own command line as ASCII and would
 * encode a new one as ASCII again, turning every other character into '?'. Linux only; macOS always
 * encodes file names as UTF-8.
 */
public final class Utf8Locale {
    /** Set in the relaunched process so it never relaunches twice. */
    static final String GUARD = "PADDOCK_UTF8_RELAUNCHED";

    private Utf8Locale() {}

    /** Whether file names are encoded as UTF-8 in this JVM. */
    public static boolean fileNamesAreUtf8() {
        String enc = System.getProperty("sun.jnu.encoding", "UTF-8");
        try {
            return Charset.forName(enc).equals(StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * When file names are not UTF-8 and this is Linux, runs the very same command line again with
     * {@code LC_ALL=C.UTF-8} and exits with its exit code. Returns normally when no relaunch is needed
     * or possible (then paths with non-ASCII characters will fail with a clear message later).
     */
    public static void relaunchIfNeeded() {
        Path cmdline = Path.of("/proc/self/cmdline");
        if (fileNamesAreUtf8() || System.getenv(GUARD) != null || !Files.isReadable(cmdline)) {
            return;
        }
        try {
            Path script = Files.createTempFile("paddock-utf8-", ".sh");
            Files.write(script, script(Files.readAllBytes(cmdline)));
            ProcessBuilder pb = new ProcessBuilder("/bin/sh", script.toString()).inheritIO();
            pb.environment().put("LC_ALL", "C.UTF-8");
            pb.environment().put(GUARD, "1");
            Process child = pb.start();
            Runtime.getRuntime().addShutdownHook(new Thread(child::destroy, "utf8-relaunch"));
            System.exit(child.waitFor());
        } catch (IOException | RuntimeException e) {
            System.err.println("paddock: warning: the locale is not UTF-8 and Paddock could not restart itself"
                    + " with LC_ALL=C.UTF-8 (" + e + "); paths with non-ASCII characters will fail.");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            System.exit(130);
        }
    }

    /**
     * A POSIX shell script that removes itself and then {@code exec}s the NUL-separated command line
     * {@code cmdline}, every word single-quoted, its bytes untouched.
     */
    static byte[] script(byte[] cmdline) {
        List<byte[]> words = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < cmdline.length; i++) {
            if (cmdline[i] == 0) {
                words.add(java.util.Arrays.copyOfRange(cmdline, start, i));
                start = i + 1;
            }
        }
        if (start < cmdline.length) {
            words.add(java.util.Arrays.copyOfRange(cmdline, start, cmdline.length));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes("rm -f \"$0\"\nexec".getBytes(StandardCharsets.US_ASCII));
        for (byte[] w : words) {
            out.write(' ');
            out.write('\'');
            for (byte b : w) {
                if (b == '\'') {
                    out.writeBytes("'\\''".getBytes(StandardCharsets.US_ASCII));
                } else {
                    out.write(b);
                }
            }
            out.write('\'');
        }
        out.write('\n');
        return out.toByteArray();
    }
}
