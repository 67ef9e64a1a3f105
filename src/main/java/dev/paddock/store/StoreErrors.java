package dev.paddock.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Locale;
import org.h2.api.ErrorCode;

/**
 * What an error from H2 or the file system means for the store, in words for people: a full disk is said plainly,
 * with the folder and the space free, instead of H2's "Writing to sun.nio.ch.FileChannelImpl@... failed".
 */
final class StoreErrors {
    private StoreErrors() {}

    /** Whether {@code e} or one of its causes says the disk (or a quota) is full. */
    static boolean diskFull(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String m = t.getMessage();
            if (m != null) {
                String lower = m.toLowerCase(Locale.ROOT);
                if (lower.contains("no space left on device")
                        || lower.contains("disk quota exceeded")
                        || lower.contains("not enough space")) {
                    return true;
                }
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    /**
     * Whether {@code e} is a full disk: it says so, or it says the store was closed (H2 reports the write that
     * failed once, and "The database has been closed" to every statement after it) while the folder {@code dir}
     * has less than {@link StoreHealth#MIN_FREE_BYTES} free.
     */
    static boolean diskFull(Throwable e, Path dir) {
        if (diskFull(e)) {
            return true;
        }
        boolean closed = false;
        for (Throwable t = e; t != null && !closed; t = t.getCause()) {
            closed = t instanceof SQLException s && storeUnusable(s)
                    || t.getMessage() != null && t.getMessage().contains("has been closed");
        }
        return closed && freeBytes(dir) < StoreHealth.MIN_FREE_BYTES;
    }

    /**
     * Whether {@code e} means the store can no longer write until Paddock is restarted: H2 closes a database whose
     * file could not be written (a full disk, an I/O error) and every later statement fails.
     */
    static boolean storeUnusable(SQLException e) {
        if (diskFull(e)) {
            return true;
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException s) {
                int code = s.getErrorCode();
                if (code == ErrorCode.DATABASE_IS_CLOSED
                        || code == ErrorCode.IO_EXCEPTION_1
                        || code == ErrorCode.IO_EXCEPTION_2
                        || code == ErrorCode.FILE_CORRUPTED_1) {
                    return true;
                }
                if (code == ErrorCode.GENERAL_ERROR_1
                        && s.getMessage() != null
                        && s.getMessage().contains("MVStoreException")) {
                    return true;
                }
            }
        }
        return false;
    }

    /** "The disk holding DIR is full (N free)": for a write that failed on a full disk. */
    static String diskFullMessage(Path dir, long neededBytes) {
        String needed = neededBytes > 0 ? "; it needs at least " + size(neededBytes) + " free" : "";
        return "Disk full: the folder " + dir + " has " + size(freeBytes(dir)) + " free" + needed
                + ". Free some space there (or start with --home DIR on another disk) and start Paddock again.";
    }

    /**
     * Free bytes for this user in the file system holding {@code dir} (or its nearest existing parent, for a folder
     * not made yet); {@link Long#MAX_VALUE} when it cannot be read (nothing is refused on a guess).
     */
    static long freeBytes(Path dir) {
        Path d = dir.toAbsolutePath();
        while (d != null && !Files.exists(d)) {
            d = d.getParent();
        }
        try {
            return d == null ? Long.MAX_VALUE : Files.getFileStore(d).getUsableSpace();
        } catch (IOException | SecurityException e) {
            return Long.MAX_VALUE;
        }
    }

    /** A byte count for people: "512 bytes", "3.1 MB", "2.0 GB". */
    static String size(long bytes) {
        if (bytes < 1024) {
            return bytes + " bytes";
        }
        if (bytes < 1024 * 1024) {
            return String.format(Locale.ROOT, "%.0f KB", bytes / 1024.0);
        }
        if (bytes < 1024L * 1024 * 1024) {
            return String.format(Locale.ROOT, "%.1f MB", bytes / (1024.0 * 1024));
        }
        return String.format(Locale.ROOT, "%.1f GB", bytes / (1024.0 * 1024 * 1024));
    }

    /** The first line of a message (H2's carry the SQL and the version on further lines). */
    static String firstLine(String s) {
        if (s == null) {
            return "unknown error";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /** The first {@code n} non-blank lines of {@code s}, joined with "; ". */
    static String firstLines(String s, int n) {
        if (s == null) {
            return "unknown error";
        }
        return String.join(
                "; ",
                s.lines().map(String::strip).filter(l -> !l.isEmpty()).limit(n).toList());
    }
}
