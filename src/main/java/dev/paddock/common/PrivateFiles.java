package dev.paddock.common;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * Files and directories that only their owner may read: the Paddock home holds the store (every command an
 * agent asked for, sandbox token hashes), the logs and the API token. Each is created with its final mode
 * ({@code rw-------} files, {@code rwx------} directories and scripts) in the same system call that creates it,
 * as a umask of 077 would, so no reader can open it between its creation and a later chmod. Paddock's process
 * umask itself is left alone: it also creates the user's worktrees and starts agents, whose files must keep the
 * user's usual modes.
 *
 * <p>On a file system without POSIX permissions (Windows) files are created plainly.
 */
public final class PrivateFiles {
    /** {@code rw-------}. */
    public static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");
    /** {@code rwx------}: directories and scripts. */
    public static final Set<PosixFilePermission> DIR = PosixFilePermissions.fromString("rwx------");

    private PrivateFiles() {}

    /** Whether {@code path}'s file system has POSIX permissions. */
    public static boolean posix(Path path) {
        return path.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    /**
     * Creates {@code dir} and its missing parents, each missing one with mode 700; existing ones are left as
     * they are.
     *
     * @throws IOException when one cannot be created
     */
    public static Path createDirectories(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            return dir;
        }
        if (!posix(dir)) {
            return Files.createDirectories(dir);
        }
        return Files.createDirectories(dir, attribute(DIR));
    }

    /**
     * Creates {@code file} empty with mode 600 unless it exists (then it is left untouched), creating missing
     * parent directories with mode 700.
     *
     * @return whether it was created
     * @throws IOException when it cannot be created
     */
    public static boolean createFile(Path file) throws IOException {
        createParent(file);
        try {
            if (posix(file)) {
                Files.createFile(file, attribute(FILE));
            } else {
                Files.createFile(file);
            }
            return true;
        } catch (FileAlreadyExistsException exists) {
            return false;
        }
    }

    /** Replaces {@code file} with {@code text} (UTF-8), mode 600; see {@link #write(Path, byte[], Set)}. */
    public static void writeString(Path file, String text) throws IOException {
        write(file, text.getBytes(StandardCharsets.UTF_8), FILE);
    }

    /**
     * Replaces {@code file} atomically: the bytes go to {@code <name>.tmp}, created with {@code mode}, which is
     * then renamed over the file (a reader sees the old or the new file, never half of one). Missing parents are
     * created with mode 700.
     *
     * @param mode the new file's permissions ({@link #FILE}, or {@link #DIR} for a script); null: the process's
     *     umask decides (for files that are not Paddock's own, such as a repository's)
     * @throws IOException when it cannot be written; the old file is then untouched
     */
    public static void write(Path file, byte[] bytes, Set<PosixFilePermission> mode) throws IOException {
        createParent(file);
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        if (!Files.isDirectory(tmp, LinkOption.NOFOLLOW_LINKS)) {
            Files.deleteIfExists(tmp); // left by a crash (it may have a wider mode), or a link: never written through
        }
        try (FileChannel ch = open(tmp, mode, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            if (mode != null && posix(tmp)) {
                // The umask narrowed the mode it was created with (never widened it): a kept 660 stays 660.
                Files.setPosixFilePermissions(tmp, mode);
            }
            ByteBuffer b = ByteBuffer.wrap(bytes);
            while (b.hasRemaining()) {
                ch.write(b);
            }
        }
        try {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Appends {@code text} (UTF-8) to {@code file}, creating it with mode 600 (and its parents 700) if missing. */
    public static void append(Path file, String text) throws IOException {
        try (OutputStream out = openAppend(file)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
    }

    /**
     * A stream appending to {@code file}, created with mode 600 (and its parents 700) if missing; an existing
     * file keeps its mode.
     */
    public static OutputStream openAppend(Path file) throws IOException {
        createParent(file);
        return Channels.newOutputStream(
                open(file, FILE, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND));
    }

    /**
     * Sets the owner-only mode {@code wanted} on {@code path} if its mode differs (a symbolic link is never
     * followed or changed).
     *
     * @return the old mode as three octal digits (e.g. {@code "644"}) when it was changed, else empty
     * @throws IOException when the mode cannot be read or set (another user's file)
     */
    public static Optional<String> restrict(Path path, Set<PosixFilePermission> wanted) throws IOException {
        PosixFileAttributeView view =
                Files.getFileAttributeView(path, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
        if (view == null) {
            return Optional.empty();
        }
        PosixFileAttributes a = view.readAttributes();
        if (a.isSymbolicLink() || a.permissions().equals(wanted)) {
            return Optional.empty();
        }
        view.setPermissions(wanted);
        return Optional.of(octal(a.permissions()));
    }

    /** Three octal digits of a mode, e.g. {@code "755"}. */
    public static String octal(Set<PosixFilePermission> p) {
        int mode = 0;
        for (PosixFilePermission x : p) {
            mode |= 1 << (8 - x.ordinal());
        }
        return String.format("%03o", mode);
    }

    private static FileChannel open(Path file, Set<PosixFilePermission> mode, OpenOption... options)
            throws IOException {
        Set<OpenOption> opts = Set.of(options);
        return posix(file) && mode != null
                ? FileChannel.open(file, opts, attribute(mode))
                : FileChannel.open(file, opts);
    }

    private static void createParent(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            createDirectories(parent);
        }
    }

    private static FileAttribute<Set<PosixFilePermission>> attribute(Set<PosixFilePermission> mode) {
        return PosixFilePermissions.asFileAttribute(EnumSet.copyOf(mode));
    }
}
