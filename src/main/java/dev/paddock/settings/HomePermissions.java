package dev.paddock.settings;

import dev.paddock.common.PrivateFiles;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Makes an existing Paddock home owner-only, as Paddock creates a new one: the home and its directories 700,
 * its files 600, scripts (a file with an execute bit) 700. A home written by an older Paddock has its store and
 * logs at 644 and its directories at 755; this runs when the store is opened, before H2 touches the file.
 *
 * <p>Only Paddock's own entries are touched: the home directory itself, the store's files ({@code paddock.*}),
 * {@code api-token}, {@code instance.json}, {@code ui.properties}, {@code policy.json}, {@code home-id},
 * {@code api-port} and their
 * {@code .tmp} / {@code .bak} siblings, and everything under {@code bin/} and {@code logs/}. Another file in the
 * home (a home pointed at a directory that holds other things) is left alone, and so is the home directory when
 * it is the user's own home directory. Symbolic links are never followed.
 */
public final class HomePermissions {
    /** Top-level files Paddock writes into its home (besides the store's {@code paddock.*}). */
    static final List<String> FILES =
            List.of("api-token", "instance.json", "ui.properties", "policy.json", "home-id", "api-port");
    /** Top-level directories that hold only Paddock's files. */
    static final List<String> DIRS = List.of("bin", "logs");

    private HomePermissions() {}

    /**
     * Tightens the home's entries.
     *
     * @param userHome the user's home directory (never made 700 by this)
     * @return what was changed, one {@code "644 → 600 <path>"} per entry, empty when nothing was; entries whose
     *     mode cannot be changed (another user's) are listed as {@code "cannot tighten <path>: <why>"}
     */
    public static List<String> tighten(Path home, Path userHome) {
        List<String> changes = new ArrayList<>();
        if (!PrivateFiles.posix(home) || !Files.isDirectory(home, LinkOption.NOFOLLOW_LINKS)) {
            return changes;
        }
        if (!sameFile(home, userHome)) {
            restrict(home, PrivateFiles.DIR, changes);
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(home)) {
            for (Path p : entries) {
                String name = p.getFileName().toString();
                if (DIRS.contains(name) && Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                    tree(p, changes);
                } else if (isPaddockFile(name) && Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    restrict(p, modeOf(p), changes);
                }
            }
        } catch (IOException e) {
            changes.add("cannot list " + home + ": " + e.getMessage());
        }
        return changes;
    }

    /** Whether a top-level name is one of Paddock's files (or its temporary or backup copy). */
    static boolean isPaddockFile(String name) {
        String base = name.endsWith(".tmp")
                ? name.substring(0, name.length() - 4)
                : name.endsWith(".bak") ? name.substring(0, name.length() - 4) : name;
        return base.startsWith("paddock.") || FILES.contains(base);
    }

    private static void tree(Path dir, List<String> changes) {
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.forEach(p -> {
                if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                    restrict(p, PrivateFiles.DIR, changes);
                } else if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    restrict(p, modeOf(p), changes);
                }
            });
        } catch (IOException | java.io.UncheckedIOException e) {
            changes.add("cannot list " + dir + ": " + e.getMessage());
        }
    }

    /** 700 for a file with an execute bit (a script), else 600. */
    private static Set<PosixFilePermission> modeOf(Path file) {
        try {
            Set<PosixFilePermission> p = Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS);
            return p.contains(PosixFilePermission.OWNER_EXECUTE)
                            || p.contains(PosixFilePermission.GROUP_EXECUTE)
                            || p.contains(PosixFilePermission.OTHERS_EXECUTE)
                    ? PrivateFiles.DIR
                    : PrivateFiles.FILE;
        } catch (IOException e) {
            return PrivateFiles.FILE;
        }
    }

    private static void restrict(Path p, Set<PosixFilePermission> wanted, List<String> changes) {
        try {
            PrivateFiles.restrict(p, wanted)
                    .ifPresent(old -> changes.add(old + " → " + PrivateFiles.octal(wanted) + " " + p));
        } catch (IOException e) {
            changes.add("cannot tighten " + p + ": " + e.getMessage());
        }
    }

    private static boolean sameFile(Path a, Path b) {
        try {
            return b != null && Files.exists(b) && Files.isSameFile(a, b);
        } catch (IOException e) {
            return false;
        }
    }
}
