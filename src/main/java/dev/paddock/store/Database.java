package dev.paddock.store;

import dev.paddock.common.PrivateFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.h2.api.ErrorCode;
import org.h2.jdbcx.JdbcConnectionPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Paddock's embedded H2 file database, migrated by Flyway on open.
 *
 * <p>One process owns the file at a time (H2's file lock). Another Paddock that tries to open it
 * gets a {@link DatabaseInUseException}; CLI commands then talk to the owner's API instead.
 *
 * <p>{@link #openServer} opens a store on a PostgreSQL server instead, with the same migrations.
 */
public final class Database implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Database.class);
    /** How long {@link #open} keeps retrying a locked file before giving up, in ms. */
    static final long LOCK_WAIT_MS = 2_000;

    private final Path file;
    private final DataSource pool;
    private final Runnable dispose;
    private final Jdbc jdbc;
    private final StoreHealth health;
    private final StoreMaintenance maintenance;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final String name;
    private volatile StoreLease lease;

    /** A store in an H2 file ({@code file}), or on a database server ({@code file} null: see {@link ServerStore}). */
    Database(Path file, JdbcConnectionPool pool, StoreHealth health) {
        this(file, file == null ? "(server)" : file.toString(), pool, pool::dispose, health);
    }

    /**
     * {@code name}: the file, or the server's URL without its parameters, for messages; {@code dispose} closes the
     * pool's connections.
     */
    Database(Path file, String name, DataSource pool, Runnable dispose, StoreHealth health) {
        this.file = file;
        this.name = name;
        this.pool = pool;
        this.dispose = dispose;
        this.health = health;
        this.jdbc = new Jdbc(pool, health);
        this.maintenance = file == null ? null : new StoreMaintenance(pool);
    }

    /**
     * Starts compacting the file in the background while it is sparse (see {@link StoreMaintenance}); for a Paddock
     * that keeps the store open (the panel, {@code paddock serve}).
     */
    public void startMaintenance() {
        if (maintenance != null) {
            maintenance.start();
        }
    }

    /** One period of the background maintenance; returns the file's sizes when it shrank, else null. */
    long[] maintainOnce() {
        return maintenance == null ? null : maintenance.maintain(false);
    }

    /** Compacts the file now if it is sparse, even while commits go on; for tests and benchmarks. */
    public void compactIfSparse() {
        if (maintenance != null) {
            maintenance.compactIfSparse();
        }
    }

    /**
     * Opens (creating when missing) the database at {@code base} ({@code base.mv.db} on disk) and
     * applies pending migrations from {@code classpath:db/migration}, after backing the store up beside it
     * ({@code base.mv.db.bak}); a migration that fails puts the backup back, so a store is never left half migrated.
     *
     * @param base path prefix of the database file, e.g. {@code ~/.paddock/paddock}
     * @throws DatabaseInUseException when another process holds the file after a short wait
     * @throws StoreException when the file cannot be opened, is empty, is not a Paddock database, a migration fails,
     *     or the disk is full (each said in one line naming the file or folder)
     */
    public static Database open(Path base) throws StoreException {
        String path = base.toAbsolutePath().normalize().toString();
        if (path.contains(";")) {
            throw new StoreException("The database path " + path + " contains ';', which H2 cannot"
                    + " take in a file name. Choose a Paddock home without ';'.");
        }
        StoreFiles files = new StoreFiles(Path.of(path + ".mv.db"));
        files.refuseEmpty();
        files.requireRoomToStart();
        boolean fresh = !Files.exists(files.file());
        // A store a killed process left is recovered on open; it is then closed cleanly and opened again, so its
        // header names the recovered chunk (see docs/decisions/0007-how-the-store-is-opened-and-recovered.md).
        boolean unclean = !StoreFiles.closedCleanly(files.file());
        if (unclean) {
            StoreRecovery.recover(files.file());
        }
        createOwnerOnly(files.file());
        StoreHealth health = new StoreHealth(files.file());
        Opening o = new Opening(url(path), path, files);
        try {
            o.connect();
            if (unclean) {
                LOG.info("The store {} was not closed cleanly; recovered, closing and opening it again", path);
                o.realignIdentities();
                o.reopen("SHUTDOWN");
            }
            o.migrate(fresh);
        } catch (StoreException e) {
            o.pool.dispose();
            throw e;
        }
        LOG.info("Opened store {}", path);
        return new Database(files.file(), o.pool, health);
    }

    /**
     * Opens the store in the PostgreSQL database at {@code url} ({@code jdbc:postgresql://host:port/db}, user and
     * password as its {@code user} and {@code password} parameters) and applies pending migrations; see
     * {@link ServerStore}.
     *
     * @throws StoreException when the URL is not a PostgreSQL one, the server cannot be reached or refuses the login,
     *     or a migration fails (each said in one line naming the server, never the password)
     */
    public static Database openServer(String url) throws StoreException {
        return ServerStore.open(url);
    }

    /** Whether {@code url} names a store {@link #openServer} takes (a {@code jdbc:postgresql:} URL). */
    public static boolean isServerUrl(String url) {
        return url != null && url.startsWith(ServerStore.PREFIX);
    }

    /**
     * Why {@code url} is not taken as a store URL given as {@code from} ({@code --store}: an option, seen by every
     * user in the process list, may not carry a password), or null when it is.
     */
    public static String serverUrlProblem(String url, boolean option) {
        if (option && StoreUrlParameters.hasPassword(url)) {
            return "--store would show the password to every user of this machine in the process list: put it in"
                    + " ~/.pgpass (or give the URL in PADDOCK_STORE).";
        }
        return StoreUrlParameters.problem(url).orElse(null);
    }

    /** {@code url} without its parameters (they may hold the password), for messages and logs. */
    public static String redacted(String url) {
        return ServerStore.redacted(url);
    }

    /**
     * The H2 URL of the store at {@code path}.
     *
     * <p>WRITE_DELAY=0: every commit reaches the file before commit() returns. H2's default (500 ms) loses the last
     * half second of commits when the process is killed (measured: 6 kills out of 6 lost a just-committed row); a
     * commit now costs ~0.25 ms instead of ~0.1 ms. TRACE_LEVEL_FILE=0: no paddock.trace.db beside the store;
     * Paddock logs store errors itself. QUERY_CACHE_SIZE=64: each connection may keep the statements it prepared
     * (H2 keeps 8). It does not help yet: H2's JdbcConnectionPool rolls back every connection given back to it, and a
     * rollback empties that connection's cache, so each query is parsed again (measured on one primary-key query:
     * 8.6 µs through the pool, 4.0 µs on one kept connection).
     */
    static String url(String path) {
        return "jdbc:h2:file:" + path + ";DB_CLOSE_ON_EXIT=FALSE;WRITE_DELAY=0;TRACE_LEVEL_FILE=0;QUERY_CACHE_SIZE=64";
    }

    /** The pool while the store is being opened: closed, backed up and opened again as needed. */
    private static final class Opening {
        private final String url;
        private final String path;
        private final StoreFiles files;
        private JdbcConnectionPool pool;

        Opening(String url, String path, StoreFiles files) {
            this.url = url;
            this.path = path;
            this.files = files;
        }

        void realignIdentities() throws StoreException {
            try (Connection c = pool.getConnection()) {
                StoreRecovery.realignIdentities(c);
            } catch (SQLException e) {
                throw new StoreException(
                        "Cannot check the identity columns of the recovered store " + path + ".mv.db: "
                                + StoreErrors.firstLine(e.getMessage()),
                        e);
            }
        }

        void connect() throws StoreException {
            pool = newPool(url);
            firstConnection(pool, path, files);
        }

        /**
         * Closes the store with {@code shutdown} ({@code SHUTDOWN} or {@code SHUTDOWN COMPACT}) and opens it again.
         * A compacted store is a new file H2 wrote with the process's umask: it is made owner-only again before
         * anyone else could reach it through the home's directory (mode 700).
         */
        void reopen(String shutdown) throws StoreException {
            close(shutdown);
            connect();
        }

        private void close(String shutdown) throws StoreException {
            try (Connection c = pool.getConnection()) {
                c.createStatement().execute(shutdown);
            } catch (SQLException e) {
                if (StoreErrors.diskFull(e, files.dir())) {
                    throw new StoreException(StoreErrors.diskFullMessage(files.dir(), StoreHealth.MIN_FREE_BYTES), e);
                }
                throw new StoreException(
                        "Cannot close the store " + path + ".mv.db (" + shutdown + "): "
                                + StoreErrors.firstLine(e.getMessage()),
                        e);
            }
            pool.dispose();
            try {
                PrivateFiles.restrict(files.file(), PrivateFiles.FILE);
            } catch (java.io.IOException | UnsupportedOperationException e) {
                LOG.warn("Cannot make the store {} owner-only: {}", files.file(), e.getMessage());
            }
        }

        /**
         * Applies pending migrations. An existing store is closed, copied to {@link StoreFiles#backup} and opened
         * again first; when a migration fails, the store is closed without writing and the backup put back (a store
         * this start created is removed), so the next start finds it as it was.
         */
        void migrate(boolean fresh) throws StoreException {
            Migrations migrations = new Migrations(files.file().toString());
            int pending = fresh ? -1 : migrations.pending(pool); // a new store: all of them, no need to ask Flyway
            if (pending == 0) {
                migrations.migrate(pool); // validates the history (a store of another build is refused)
                return;
            }
            if (!fresh) {
                files.requireRoomToMigrate();
                close("SHUTDOWN");
                files.backUp();
                LOG.info(
                        "The store {} has {} migration(s) to apply; backed up to {}",
                        files.file(),
                        pending,
                        files.backup());
                connect();
            }
            boolean hashed;
            try {
                hashed = migrations.migrate(pool);
            } catch (StoreException e) {
                throw undo(e, fresh);
            }
            if (hashed) {
                // The tokens a store kept in plain text are hashed now, but MVStore appends: their old pages stay in
                // the file until reused. SHUTDOWN COMPACT rewrites the file with the live pages alone.
                LOG.info(
                        "The store {} held sandbox tokens; they are hashed, and the file is rewritten without them",
                        path);
                reopen("SHUTDOWN COMPACT");
            }
        }

        /** Closes the store without writing and puts the backup back (or removes a store this start created). */
        private StoreException undo(StoreException failure, boolean fresh) {
            try (Connection c = pool.getConnection()) {
                c.createStatement().execute("SHUTDOWN IMMEDIATELY");
            } catch (SQLException alreadyClosed) {
                // a failed write closed it already
            }
            pool.dispose();
            String cause = StoreErrors.diskFull(failure, files.dir())
                    ? StoreErrors.diskFullMessage(files.dir(), StoreFiles.MIGRATION_MARGIN_BYTES)
                    : failure.getMessage();
            if (fresh) {
                files.removeNew();
                return new StoreException(cause + " The new store was removed; nothing else was changed.", failure);
            }
            try {
                files.restore();
                return new StoreException(
                        cause + " The store was put back as it was before the migration, from" + " its backup "
                                + files.backup() + ".",
                        failure);
            } catch (java.io.IOException e) {
                return new StoreException(
                        cause + " The store may be half migrated and its backup could not be put"
                                + " back (" + e.getMessage() + "): stop Paddock and run: cp '" + files.backup() + "' '"
                                + files.file() + "'.",
                        failure);
            }
        }
    }

    /**
     * Creates a missing store file empty with mode 600 before H2 opens it: H2 takes an empty file as a new store
     * and keeps the file (and its mode), so no row is ever written to a file others could read. H2's other files
     * (a {@code .trace.db}, temporary files) are created by H2 with the process's umask; the home directory's
     * mode 700 keeps them private.
     */
    private static void createOwnerOnly(Path mvDb) throws StoreException {
        try {
            PrivateFiles.createFile(mvDb);
        } catch (java.io.IOException e) {
            throw new StoreException("Cannot create the Paddock store " + mvDb + ": " + e.getMessage(), e);
        }
    }

    private static JdbcConnectionPool newPool(String url) {
        JdbcConnectionPool pool = JdbcConnectionPool.create(url, "paddock", "");
        pool.setMaxConnections(16);
        return pool;
    }

    /** See {@link StoreFiles#closedCleanly}. */
    static boolean closedCleanly(Path mvDb) {
        return StoreFiles.closedCleanly(mvDb);
    }

    private static void firstConnection(JdbcConnectionPool pool, String path, StoreFiles files) throws StoreException {
        long deadline = System.nanoTime() + LOCK_WAIT_MS * 1_000_000;
        while (true) {
            try (Connection c = pool.getConnection()) {
                return;
            } catch (SQLException e) {
                if (isLocked(e) && System.nanoTime() < deadline) {
                    sleep(100);
                    continue;
                }
                if (isLocked(e)) {
                    throw new DatabaseInUseException(
                            "The Paddock store " + path + ".mv.db is in use"
                                    + " by another Paddock (a panel or `paddock serve`). Use that one, or start"
                                    + " with --home DIR for a separate store.",
                            e);
                }
                if (StoreErrors.diskFull(e, files.dir())) {
                    throw new StoreException(StoreErrors.diskFullMessage(files.dir(), StoreHealth.MIN_FREE_BYTES), e);
                }
                throw new StoreException(
                        "Cannot open the Paddock store " + path + ".mv.db: " + StoreErrors.firstLine(e.getMessage())
                                + ". " + files.backupAdvice(),
                        e);
            }
        }
    }

    private static boolean isLocked(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException s && s.getErrorCode() == ErrorCode.DATABASE_ALREADY_OPEN_1) {
                return true;
            }
        }
        return false;
    }

    private static void sleep(long ms) throws StoreException {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException("Interrupted while waiting for the store", e);
        }
    }

    /** The database file on disk ({@code ....mv.db}); null for a store on a database server. */
    public Path file() {
        return file;
    }

    /** Whether the file exists on disk (a store on a database server: always). */
    public boolean exists() {
        return file == null || Files.exists(file);
    }

    /** Whether the store can write (see {@link StoreHealth}). */
    public StoreHealth health() {
        return health;
    }

    /** The store for messages: its file, or its server's URL without parameters (never a password). */
    public String name() {
        return name;
    }

    /** Whether the store is on a database server (several Paddocks could reach it), not in an H2 file. */
    public boolean onServer() {
        return file == null;
    }

    /** A connection of the pool, for {@link StoreLease}. */
    Connection connection() throws SQLException {
        return pool.getConnection();
    }

    /**
     * Joins the store as one of the Paddocks that share it ({@link StoreLease}, renewed in the background, given up
     * by {@link #close}): this process is the store's coordinator (it runs the store-wide work: merge queue, event
     * retention, reconciler) when no other Paddock's coordinator lease is live, else it takes that role once the
     * holder's lease expired. An H2 file has one Paddock by its lock: this does nothing there and returns true.
     *
     * @param onCoordinator runs once, on the lease's thread, when this process becomes the coordinator later
     * @param onLost runs once, on the lease's thread, when another Paddock took the coordinator's lease this one held
     *     (the caller must stop)
     * @return whether this process is the coordinator now
     * @throws StoreException when the server cannot be asked
     */
    public boolean join(String host, Runnable onCoordinator, Runnable onLost) throws StoreException {
        return join(host, StoreLease.LENGTH, onCoordinator, onLost);
    }

    /** {@link #join(String, Runnable, Runnable)} with a lease of {@code length}; for tests. */
    public boolean join(String host, java.time.Duration length, Runnable onCoordinator, Runnable onLost)
            throws StoreException {
        if (!onServer()) {
            return true;
        }
        if (lease != null) {
            return lease.coordinator();
        }
        StoreLease l = StoreLease.join(this, host, ProcessHandle.current().pid(), length);
        lease = l;
        l.start(onCoordinator, onLost);
        return l.coordinator();
    }

    /** Whether this process runs the store-wide work: an H2 store's one Paddock, or a server store's coordinator. */
    public boolean coordinator() {
        StoreLease l = lease;
        return !onServer() || (l != null && l.coordinator());
    }

    /**
     * This process among the Paddocks that share a store on a server ({@code host:pid:random}), once it
     * {@link #join}ed it; null before, and for a store in an H2 file.
     */
    public String owner() {
        StoreLease l = lease;
        return l == null ? null : l.owner();
    }

    /** Query and transaction helper over this database's pool. */
    public Jdbc jdbc() {
        return jdbc;
    }

    /**
     * Closes the pool and the database; H2 writes its last changes and releases the file lock (a store on a server:
     * only the pool's connections are closed). Safe to call more than once (later calls do nothing).
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        if (maintenance == null) {
            StoreLease l = lease;
            if (l != null) {
                l.release(); // last, once everything that wrote on the store's behalf has stopped
            }
            dispose.run(); // a server's database stays up for the other Paddocks that share it
            return;
        }
        maintenance.close();
        try (Connection c = pool.getConnection()) {
            c.createStatement().execute("SHUTDOWN");
        } catch (SQLException e) {
            LOG.warn("Store shutdown: {}", e.getMessage());
        }
        dispose.run();
    }
}
