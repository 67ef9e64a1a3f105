package dev.paddock.store;

import dev.paddock.store.migration.HashSandboxTokens;
import dev.paddock.store.migration.PostgresTypes;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Map;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.exception.FlywayValidateException;

/**
 * Paddock's schema migrations: the SQL ones of {@code classpath:db/migration} and the Java ones named here, applied
 * by Flyway. H2 commits each DDL statement by itself, so a migration that fails halfway (a full disk) leaves a store
 * Flyway refuses from then on; {@link Database#open} therefore backs the store up before migrating and puts the
 * backup back when a migration fails.
 */
final class Migrations {
    /**
     * Migrations whose text changed after stores applied them, each without changing what it does on H2: version →
     * {checksum Flyway recorded before, checksum now}. V1, V2, V4 and V5: their first comment lines were reworded
     * (they cited documents outside the repository; the SQL is the same). V13: {@code SET NO CACHE} became {@code SET
     * CACHE 1}, which H2 records alike (an identity cache of 1, checked by DatabaseTest) and PostgreSQL takes too.
     */
    static final Map<String, int[]> REWORDED = Map.of(
            "1", new int[] {-357209057, -14239141},
            "2", new int[] {-1341769613, -1136774152},
            "4", new int[] {-1831360384, 946343602},
            "5", new int[] {-1961635784, 1261498702},
            "13", new int[] {780374371, 553201791});

    private final String file;
    /** What to do with a store whose schema history does not match this build (the end of a sentence). */
    private final String otherBuildAdvice;

    private final HashSandboxTokens hashTokens = new HashSandboxTokens();

    /** Migrations of the H2 file {@code file}. */
    Migrations(String file) {
        this(file, "move it away, or start with --home DIR for a separate store.");
    }

    /** Migrations of the store named {@code name} (never holding a password), with its own advice. */
    Migrations(String name, String otherBuildAdvice) {
        this.file = name;
        this.otherBuildAdvice = otherBuildAdvice;
    }

    private Flyway flyway(DataSource pool) {
        return Flyway.configure()
                .dataSource(pool)
                .locations("classpath:db/migration")
                .javaMigrations(hashTokens)
                .callbacks(new PostgresTypes())
                .validateMigrationNaming(true)
                .load();
    }

    /** How many migrations this build would apply to the store. */
    int pending(DataSource pool) throws StoreException {
        try {
            return flyway(pool).info().pending().length;
        } catch (FlywayException e) {
            throw new StoreException(
                    "The Paddock store " + file + " could not be read: " + StoreErrors.firstLine(e.getMessage()), e);
        }
    }

    /**
     * Records the new checksum of each {@link #REWORDED} migration in a store that has its old one, so Flyway's
     * validation takes the reworded comments; any other checksum is left for Flyway to refuse.
     */
    private void acceptReworded(DataSource pool) throws StoreException {
        try (Connection c = pool.getConnection();
                PreparedStatement history = c.prepareStatement("SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES"
                        + " WHERE TABLE_SCHEMA = 'PUBLIC' AND TABLE_NAME = 'flyway_schema_history'")) {
            try (java.sql.ResultSet rs = history.executeQuery()) {
                if (!rs.next() || rs.getInt(1) == 0) {
                    return;
                }
            }
            try (PreparedStatement align = c.prepareStatement("UPDATE \"flyway_schema_history\" SET \"checksum\" = ?"
                    + " WHERE \"version\" = ? AND \"checksum\" = ?")) {
                for (Map.Entry<String, int[]> m : REWORDED.entrySet()) {
                    align.setInt(1, m.getValue()[1]);
                    align.setString(2, m.getKey());
                    align.setInt(3, m.getValue()[0]);
                    align.executeUpdate();
                }
            }
            if (!c.getAutoCommit()) {
                c.commit();
            }
        } catch (SQLException e) {
            throw new StoreException(
                    "The Paddock store " + file + " could not be migrated: " + StoreErrors.firstLine(e.getMessage()),
                    e);
        }
    }

    /**
     * Applies the pending migrations.
     *
     * @return whether sandbox tokens were hashed just now ({@link HashSandboxTokens}): the file still holds them
     * @throws StoreException naming the migration that failed and why, in one line
     */
    boolean migrate(DataSource pool) throws StoreException {
        try {
            acceptReworded(pool);
            flyway(pool).migrate();
            return hashTokens.hashed() > 0;
        } catch (FlywayValidateException e) {
            // Flyway's first line is only "Validate failed: Migrations have failed validation"; the
            // next ones say which migration differs (e.g. a store made by an older development build).
            throw new StoreException(
                    "The Paddock store " + file + " could not be migrated: "
                            + StoreErrors.firstLines(e.getMessage(), 2)
                            + ". Its schema history does not match this build of Paddock: " + otherBuildAdvice,
                    e);
        } catch (FlywayException e) {
            if (StoreErrors.diskFull(e)) {
                throw new StoreException("Disk full", e);
            }
            throw new StoreException(
                    "The Paddock store " + file + " could not be migrated: " + StoreErrors.firstLine(e.getMessage()),
                    e);
        }
    }
}
