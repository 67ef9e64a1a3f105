package dev.paddock.store;

import java.nio.file.Path;
import org.h2.mvstore.DataUtils;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.MVStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Recovers a store a killed process left without losing a commit that had returned.
 *
 * <p>H2's MVStore (2.5.252) appends each commit as a chunk. When a chunk goes into freed space other than where the
 * previous chunk predicted ({@code next}), H2 rewrites the file header, but the header it writes still names the
 * previous chunk (the new one becomes "last" only after the header is written). H2's recovery follows the header
 * and the chain of predictions, so it cannot reach that chunk nor the ones after it, and goes back to the version
 * before: the last commits, seconds of them, are gone although they are whole in the file (seen in 3 kills of 9).
 *
 * <p>Before H2 opens a store that was not closed cleanly, this reads it twice, read-only: as H2's recovery would,
 * and with MVStore's recovery mode, which scans every block of the file for chunks. When the scan finds a newer
 * complete version, the store is opened once in recovery mode and closed cleanly, which writes a header naming that
 * version; H2 then opens it from there. See docs/decisions/0007-how-the-store-is-opened-and-recovered.md.
 */
final class StoreRecovery {
    private static final Logger LOG = LoggerFactory.getLogger(StoreRecovery.class);

    private StoreRecovery() {}

    /** What the two reads found: the version H2's recovery would take and the newest whole one in the file. */
    record Versions(long quick, long scanned) {
        boolean wouldLose() {
            return scanned > quick;
        }
    }

    /**
     * Makes the header of the unclean store {@code mvDb} name its newest whole version when H2's own recovery would
     * take an older one. Does nothing when both agree, or when the file is held by another process (the open that
     * follows says so) or cannot be read (the open that follows reports it).
     *
     * @return the versions found, or null when the file could not be read
     */
    static Versions recover(Path mvDb) {
        Versions v;
        try {
            v = versions(mvDb);
        } catch (MVStoreException | IllegalStateException e) {
            if (e instanceof MVStoreException m && m.getErrorCode() == DataUtils.ERROR_FILE_LOCKED) {
                return null;
            }
            LOG.warn("Cannot read the store {} before recovering it: {}", mvDb, StoreErrors.firstLine(e.getMessage()));
            return null;
        }
        if (v.wouldLose()) {
            LOG.warn(
                    "The store {} was not closed cleanly; H2 would recover version {}, but version {} is whole in"
                            + " the file: recovering that one",
                    mvDb,
                    v.quick(),
                    v.scanned());
            MVStore store = new MVStore.Builder()
                    .fileName(mvDb.toString())
                    .recoveryMode()
                    .autoCommitDisabled()
                    .open();
            store.close(0);
        }
        return v;
    }

    /**
     * Moves every identity column whose next value is not above the largest id in its table past it. Seen once in
     * 20 kills on H2 2.5.252: the recovered store held rows whose ids the recovered sequence would hand out again,
     * and every insert into that table failed ("Unique index or primary key violation") until restarted by hand.
     *
     * @return the columns moved, as "TABLE.COLUMN from BASE to NEXT"
     */
    static java.util.List<String> realignIdentities(java.sql.Connection c) throws java.sql.SQLException {
        java.util.List<String> moved = new java.util.ArrayList<>();
        java.util.List<String[]> columns = new java.util.ArrayList<>();
        try (java.sql.ResultSet rs = c.createStatement()
                .executeQuery("SELECT table_name, column_name, identity_base"
                        + " FROM information_schema.columns WHERE table_schema = 'PUBLIC' AND is_identity = 'YES'")) {
            while (rs.next()) {
                columns.add(new String[] {rs.getString(1), rs.getString(2), rs.getString(3)});
            }
        }
        for (String[] col : columns) {
            String table = '"' + col[0] + '"';
            String column = '"' + col[1] + '"';
            long base = Long.parseLong(col[2]);
            try (java.sql.ResultSet rs = c.createStatement().executeQuery("SELECT MAX(" + column + ") FROM " + table)) {
                long max = rs.next() ? rs.getLong(1) : 0;
                if (base <= max) {
                    c.createStatement()
                            .execute("ALTER TABLE " + table + " ALTER COLUMN " + column + " RESTART WITH " + (max + 1));
                    moved.add(col[0] + "." + col[1] + " from " + base + " to " + (max + 1));
                }
            }
        }
        if (!moved.isEmpty()) {
            LOG.warn("Recovered store: identity columns behind their tables' ids, moved on: {}", moved);
        }
        return moved;
    }

    /**
     * Whether the store file, read-only, holds no map at all: not even H2's own, which it writes when it creates a
     * database. A store file cut short after its headers looks so, and H2 would open it as a new, empty store. False
     * when the file cannot be read (the open that follows reports it) or is held by another process.
     */
    static boolean holdsNothing(Path mvDb) {
        MVStore store;
        try {
            store = new MVStore.Builder().fileName(mvDb.toString()).readOnly().open();
        } catch (MVStoreException | IllegalStateException e) {
            return false;
        }
        try {
            return store.getMapNames().isEmpty();
        } finally {
            store.closeImmediately();
        }
    }

    /** Reads the unclean store twice, read-only: see {@link Versions}. */
    static Versions versions(Path mvDb) {
        return new Versions(lastVersion(mvDb, false), lastVersion(mvDb, true));
    }

    /** The version a read-only open takes: by H2's quick recovery, or by scanning the whole file. */
    private static long lastVersion(Path mvDb, boolean scan) {
        MVStore.Builder b = new MVStore.Builder().fileName(mvDb.toString()).readOnly();
        if (scan) {
            b.recoveryMode();
        }
        MVStore store = b.open();
        try {
            return store.getCurrentVersion();
        } finally {
            store.closeImmediately();
        }
    }
}
