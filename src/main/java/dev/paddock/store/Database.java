package dev.paddock.store;

import dev.paddock.common.PrivateFiles;
import dev.paddock.store.migration.HashSandboxTokens;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.exception.FlywayValidateException;
import org.h2.api.ErrorCode;
import org.h2.jdbcx.JdbcConnectionPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Paddock's embedded H2 file database, migrated by Flyway on open.
 *
 * <p>One process owns the file at a time (H2's file lock). Another Paddock that tries to open it
 * gets a {@link DatabaseInUseException}; CLI commands then talk to the owner's API instead.
 */
public final class Database implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Database.class);
    /** How long {@link #open} keeps retrying a locked file before giving up, in ms. */
    static final long LOCK_WAIT_MS = 2_000;

    private final Path file;
    private final JdbcConnectionPool pool;
    private final Jdbc jdbc;
    private final AtomicBoolean closed = new AtomicBoolean();

    private Database(Path file, JdbcConnectionPool pool) {
        this.file = file;
        this.pool = pool;
        this.jdbc = new Jdbc(pool);
    }

    /**
     * Opens (creating when missing) the database at {@code base} ({@code base.mv.db} on disk) and
     * applies pending migrations from {@code classpath:db/migration}.
     *
     * @param base path prefix of the database file, e.g. {@code ~/.paddock/paddock}
     * @throws DatabaseInUseException when another process holds the file after a short wait
     * @throws StoreException when the file cannot be opened, is not a Paddock database, or a
     *     migration fails
     */
    public static Database open(Path base) throws StoreException {
        String path = base.toAbsolutePath().normalize().toString();
        if (path.contains(";")) {
            throw new StoreException("The database path " + path + " contains ';', which H2 cannot"
                    + " take in a file name. Choose a Paddock home without ';'.");
        }
        // WRITE_DELAY=0: every commit reaches the file before commit() returns. H2's default (500 ms)
        // loses the last half second of commits when the process is killed (measured: 6 kills out of
        // 6 lost a just-committed row); a commit now costs ~0.25 ms instead of ~0.1 ms.
        // TRACE_LEVEL_FILE=0: no paddock.trace.db beside the store; Paddock logs store errors itself.
        String url = "jdbc:h2:file:" + path + ";DB_CLOSE_ON_EXIT=FALSE;WRITE_DELAY=0;TRACE_LEVEL_FILE=0";
        // A store a killed process left is recovered on open; it is then closed cleanly and opened again, so its
        // header names the recovered chunk. Without it, a panel killed a few seconds after starting on such a store
        // came back without those seconds of commits in 2 of 23 kills (whole rows, and the identity sequence: H2
        // took an older chunk); with it, 0 of 98. Root cause in H2 not known.
        boolean unclean = !closedCleanly(Path.of(path + ".mv.db"));
        createOwnerOnly(Path.of(path + ".mv.db"));
        JdbcConnectionPool pool = newPool(url);
        try {
            firstConnection(pool, path);
            if (unclean) {
                LOG.info("The store {} was not closed cleanly; recovered, closing and opening it again", path);
                pool = reopen(pool, "SHUTDOWN", url, path);
            }
            if (migrate(pool, path)) {
                // The tokens a store kept in plain text are hashed now, but MVStore appends: their old pages stay in
                // the file until reused. SHUTDOWN COMPACT rewrites the file with the live pages alone.
                LOG.info("The store {} held sandbox tokens; they are hashed, and the file is rewritten without them",
                        path);
                pool = reopen(pool, "SHUTDOWN COMPACT", url, path);
            }
        } catch (StoreException e) {
            pool.dispose();
            throw e;
        }
        LOG.info("Opened store {}", path);
        return new Database(Path.of(path + ".mv.db"), pool);
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

    /**
     * Closes the store with {@code shutdown} ({@code SHUTDOWN} or {@code SHUTDOWN COMPACT}) and opens it again.
     * A compacted store is a new file H2 wrote with the process's umask: it is made owner-only again before anyone
     * else could reach it through the home's directory (mode 700).
     */
    private static JdbcConnectionPool reopen(JdbcConnectionPool pool, String shutdown, String url, String path)
            throws StoreException {
        try (Connection c = pool.getConnection()) {
            c.createStatement().execute(shutdown);
        } catch (SQLException e) {
            throw new StoreException("Cannot close the store " + path + ".mv.db (" + shutdown + "): "
                    + firstLine(e.getMessage()), e);
        }
        pool.dispose();
        try {
            PrivateFiles.restrict(Path.of(path + ".mv.db"), PrivateFiles.FILE);
        } catch (java.io.IOException | UnsupportedOperationException e) {
            LOG.warn("Cannot make the store {}.mv.db owner-only: {}", path, e.getMessage());
        }
        JdbcConnectionPool again = newPool(url);
        firstConnection(again, path);
        return again;
    }

    private static JdbcConnectionPool newPool(String url) {
        JdbcConnectionPool pool = JdbcConnectionPool.create(url, "paddock", "");
        pool.setMaxConnections(16);
        return pool;
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
        } catch (java.io.IOException e) {
            return true;
        }
        try (java.io.InputStream in = Files.newInputStream(mvDb)) {
            String header = new String(in.readNBytes(256), java.nio.charset.StandardCharsets.ISO_8859_1);
            return header.contains(",clean:1,");
        } catch (java.io.IOException e) {
            return true;
        }
    }

    private static void firstConnection(JdbcConnectionPool pool, String path) throws StoreException {
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
                    throw new DatabaseInUseException("The Paddock store " + path + ".mv.db is in use"
                            + " by another Paddock (a panel or `paddock serve`). Use that one, or start"
                            + " with --home DIR for a separate store.", e);
                }
                throw new StoreException("Cannot open the Paddock store " + path + ".mv.db: "
                        + firstLine(e.getMessage()), e);
            }
        }
    }

    /**
     * Applies pending migrations: the SQL ones of {@code classpath:db/migration} and the Java ones named here.
     *
     * @return whether sandbox tokens were hashed just now ({@link HashSandboxTokens}): the file still holds them
     */
    private static boolean migrate(JdbcConnectionPool pool, String path) throws StoreException {
        HashSandboxTokens hashTokens = new HashSandboxTokens();
        try {
            Flyway.configure()
                    .dataSource(pool)
                    .locations("classpath:db/migration")
                    .javaMigrations(hashTokens)
                    .validateMigrationNaming(true)
                    .load()
                    .migrate();
            return hashTokens.hashed() > 0;
        } catch (FlywayValidateException e) {
            // Flyway's first line is only "Validate failed: Migrations have failed validation"; the
            // next ones say which migration differs (e.g. a store made by an older development build).
            throw new StoreException("The Paddock store " + path + ".mv.db could not be migrated: "
                    + firstLines(e.getMessage(), 2) + ". Its schema history does not match this build of Paddock: move it"
                    + " away, or start with --home DIR for a separate store.", e);
        } catch (FlywayException e) {
            throw new StoreException("The Paddock store " + path + ".mv.db could not be migrated: "
                    + firstLine(e.getMessage()), e);
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

    /** The first {@code n} non-blank lines of {@code s}, joined with "; ". */
    private static String firstLines(String s, int n) {
        if (s == null) {
            return "unknown error";
        }
        return String.join("; ", s.lines().map(String::strip).filter(l -> !l.isEmpty()).limit(n).toList());
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "unknown error";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    private static void sleep(long ms) throws StoreException {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException("Interrupted while waiting for the store", e);
        }
    }

    /** The database file on disk ({@code ....mv.db}). */
    public Path file() {
        return file;
    }

    /** Whether the file exists on disk. */
    public boolean exists() {
        return Files.exists(file);
    }

    /** Query and transaction helper over this database's pool. */
    public Jdbc jdbc() {
        return jdbc;
    }

    /**
     * Closes the pool and the database; H2 writes its last changes and releases the file lock. Safe to
     * call more than once (later calls do nothing).
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try (Connection c = pool.getConnection()) {
            c.createStatement().execute("SHUTDOWN");
        } catch (SQLException e) {
            LOG.warn("Store shutdown: {}", e.getMessage());
        }
        pool.dispose();
    }
}
