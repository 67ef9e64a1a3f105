package dev.paddock.store;

import dev.paddock.common.PrivateFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/**
 * The store's file and its backup, beside it: {@code paddock.mv.db} and {@code paddock.mv.db.bak}, the store as it
 * was before the last migration. Refuses a store file that is empty or cut short rather than letting H2 take it for
 * a new store (every record would be gone without a word).
 */
final class StoreFiles {
    /** Room a migration needs beyond the backup: H2 rewrites a table it alters, so about the store's size again. */
    static final long MIGRATION_MARGIN_BYTES = 4L * 1024 * 1024;

    private final Path file;

    StoreFiles(Path file) {
        this.file = file;
    }

    /** The store file ({@code ....mv.db}). */
    Path file() {
        return file;
    }

    /** The folder holding the store. */
    Path dir() {
        return file.getParent();
    }

    /** The backup taken before the last migration, beside the store. */
    Path backup() {
        return file.resolveSibling(file.getFileName() + ".bak");
    }

    /**
     * Refuses a store file that exists but is empty, or whose headers are whole but which holds nothing after them:
     * H2 would make a new, empty store of either. Such a file is what a store becomes when the disk filled up or the
     * machine stopped while it was being rewritten or copied.
     *
     * @throws StoreException naming the file, the backup if there is one, and what to do
     */
    void refuseEmpty() throws StoreException {
        long size;
        try {
            if (!Files.exists(file)) {
                return;
            }
            size = Files.size(file);
        } catch (IOException e) {
            throw new StoreException("Cannot read the Paddock store " + file + ": " + e.getMessage(), e);
        }
        if (size == 0) {
            throw new StoreException("The Paddock store " + file + " is empty (0 bytes): its records are gone from"
                    + " it (a full disk or a crash while it was written can do that). Paddock does not start on it,"
                    + " so that nothing replaces it. " + backupAdvice() + " To start with an empty store instead,"
                    + " move " + file.getFileName() + " away.");
        }
        if (StoreRecovery.holdsNothing(file)) {
            throw new StoreException("The Paddock store " + file + " is damaged (" + StoreErrors.size(size)
                    + "): H2 finds no records in it, not even its own (a file cut short by a full disk or a crash"
                    + " looks so). Paddock does not start on it, so that nothing replaces it. " + backupAdvice()
                    + " To start with an empty store instead, move " + file.getFileName() + " away.");
        }
    }

    /** What to say about the backup in a message about a damaged store. */
    String backupAdvice() {
        Path b = backup();
        if (!Files.isRegularFile(b)) {
            return "There is no backup of it (" + b.getFileName() + ") beside it.";
        }
        String when;
        try {
            when = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")
                    .withZone(ZoneId.systemDefault())
                    .format(Files.getLastModifiedTime(b).toInstant());
        } catch (IOException e) {
            when = "an earlier migration";
        }
        return "The backup " + b + " (" + when + ") holds the store as it was before its last migration: to go back"
                + " to it, stop Paddock and run: cp '" + b + "' '" + file + "'.";
    }

    /**
     * Checks there is room for the backup and a migration.
     *
     * @throws StoreException "Disk full" naming the folder and the space needed
     */
    void requireRoomToMigrate() throws StoreException {
        long needed = size() * 2 + MIGRATION_MARGIN_BYTES;
        if (StoreErrors.freeBytes(dir()) < needed) {
            throw new StoreException(StoreErrors.diskFullMessage(dir(), needed) + " (Paddock backs up the store, "
                    + StoreErrors.size(size()) + ", before migrating it to this version.)");
        }
    }

    /**
     * Checks the folder has the little room any start needs (H2 writes as soon as it opens a store).
     *
     * @throws StoreException "Disk full" naming the folder and the space needed
     */
    void requireRoomToStart() throws StoreException {
        if (StoreErrors.freeBytes(dir()) < StoreHealth.MIN_FREE_BYTES) {
            throw new StoreException(StoreErrors.diskFullMessage(dir(), StoreHealth.MIN_FREE_BYTES));
        }
    }

    /**
     * Copies the store (closed) to {@link #backup}: first to a temporary file, synced, then renamed over the old
     * backup, so a backup is always whole.
     */
    void backUp() throws StoreException {
        Path tmp = backup().resolveSibling(backup().getFileName() + ".tmp");
        try {
            Files.deleteIfExists(tmp);
            PrivateFiles.createFile(tmp);
            Files.copy(file, tmp, StandardCopyOption.REPLACE_EXISTING);
            PrivateFiles.restrict(tmp, PrivateFiles.FILE);
            try (FileChannel c = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                c.force(true);
            }
            Files.move(tmp, backup(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | UnsupportedOperationException e) {
            deleteQuietly(tmp);
            if (StoreErrors.diskFull(e)) {
                throw new StoreException(StoreErrors.diskFullMessage(dir(), size() * 2 + MIGRATION_MARGIN_BYTES), e);
            }
            throw new StoreException(
                    "Cannot back up the Paddock store " + file + " to " + backup() + " before" + " migrating it: "
                            + e.getMessage() + ". Nothing was changed.",
                    e);
        }
    }

    /** Puts the backup back in place of the store (after a failed migration). */
    void restore() throws IOException {
        Files.copy(backup(), file, StandardCopyOption.REPLACE_EXISTING);
        PrivateFiles.restrict(file, PrivateFiles.FILE);
    }

    /** Removes a store that was created by this start (a failed first migration leaves nothing behind). */
    void removeNew() {
        deleteQuietly(file);
    }

    private long size() {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // nothing more can be done; the caller reports the real failure
        }
    }

    /**
     * Whether the store file's header says it was closed cleanly (H2's MVStore writes {@code clean:1} there);
     * a missing, empty or unreadable file counts as clean (nothing to recover).
     */
    static boolean closedCleanly(Path mvDb) {
        try {
            if (!Files.exists(mvDb) || Files.size(mvDb) == 0) {
                return true;
            }
        } catch (IOException e) {
            return true;
        }
        try (InputStream in = Files.newInputStream(mvDb)) {
            String header = new String(in.readNBytes(256), StandardCharsets.ISO_8859_1);
            return header.contains(",clean:1,");
        } catch (IOException e) {
            return true;
        }
    }
}
