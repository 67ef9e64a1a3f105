package dev.paddock.common;

import java.lang.management.ManagementFactory;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Makes sure Paddock runs with UTF-8 file names. Java 17 encodes file names with the charset of
 * the process locale ({@code sun.jnu.encoding}); under the C/POSIX locale that is ASCII and any path
 * such as {@code Проекты/My Répo} throws {@code InvalidPathException}. The property cannot be changed
 * once the JVM runs, so in that case Paddock starts itself again with {@code LC_ALL=C.UTF-8}.
 */
public final class Utf8Locale {
    /** Set in the relaunched process so it never relaunches twice. */
    static final String GUARD = "PADDOCK_UTF8_RELAUNCHED";
    /**
     * Names a file holding the original arguments, NUL-separated, in UTF-8. Arguments cannot travel on
     * the child's command line: this JVM already decoded them as ASCII and would encode them as ASCII
     * again, losing every other character. Linux keeps the raw bytes in /proc/self/cmdline.
     */
    static final String ARGS_FILE = "PADDOCK_UTF8_ARGS_FILE";

    private Utf8Locale() {
    }

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
     * The arguments of this run: those handed over by the parent of a relaunch (the file is then
     * deleted), else {@code args} as given.
     */
    public static String[] arguments(String[] args) {
        String file = System.getenv(ARGS_FILE);
        if (file == null || System.getenv(GUARD) == null) {
            return args;
        }
        try {
            Path p = Path.of(file);
            String all = new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
            Files.deleteIfExists(p);
            return all.isEmpty() ? new String[0] : all.split("\0", -1);
        } catch (java.io.IOException | RuntimeException e) {
            return args;
        }
    }

    /** The last {@code count} entries of /proc/self/cmdline decoded as UTF-8; empty when unavailable. */
    private static List<String> rawArguments(int count) {
        if (count == 0) {
            return List.of();
        }
        try {
            byte[] bytes = Files.readAllBytes(Path.of("/proc/self/cmdline"));
            String text = new String(bytes, StandardCharsets.UTF_8);
            if (text.endsWith("\0")) {
                text = text.substring(0, text.length() - 1); // every entry ends with NUL, the last too
            }
            String[] all = text.split("\0", -1); // -1: keep empty arguments such as --repo ""

            if (all.length < count) {
                return List.of();
            }
            return List.of(all).subList(all.length - count, all.length);
        } catch (java.io.IOException | RuntimeException e) {
            return List.of();
        }
    }

    /**
     * On Linux and macOS, when file names are not UTF-8, runs the same program again in a child JVM
     * with {@code LC_ALL=C.UTF-8} and exits with its exit code. Returns normally when no relaunch is
     * needed or possible.
     */
    public static void relaunchIfNeeded(Class<?> mainClass, String[] args) {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        if (fileNamesAreUtf8() || os.contains("win") || System.getenv(GUARD) != null) {
            return;
        }
        List<String> cmd = new ArrayList<>();
        String appLauncher = System.getProperty("jpackage.app-path");
        if (appLauncher != null) {
            // An installed package: its launcher adds the JVM options itself, and the bundled runtime
            // has no bin/java.
            cmd.add(appLauncher);
        } else {
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            cmd.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
            cmd.add("-cp");
            cmd.add(System.getProperty("java.class.path"));
            cmd.add(mainClass.getName());
        }
        ProcessBuilder pb = new ProcessBuilder(cmd).inheritIO();
        pb.environment().put("LC_ALL", "C.UTF-8");
        pb.environment().put(GUARD, "1");
        try {
            List<String> raw = rawArguments(args.length);
            if (raw.isEmpty()) {
                cmd.addAll(List.of(args));
            } else {
                Path file = Files.createTempFile("paddock-args", ".bin");
                Files.write(file, String.join("\0", raw).getBytes(StandardCharsets.UTF_8));
                pb.environment().put(ARGS_FILE, file.toString());
            }
            Process child = pb.start();
            Runtime.getRuntime().addShutdownHook(new Thread(child::destroy, "utf8-relaunch"));
            System.exit(child.waitFor());
        } catch (java.io.IOException e) {
            System.err.println("paddock: warning: the locale is not UTF-8 and Paddock could not restart itself"
                    + " with LC_ALL=C.UTF-8 (" + e.getMessage() + "); paths with non-ASCII characters will fail.");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            System.exit(130);
        }
    }
}
