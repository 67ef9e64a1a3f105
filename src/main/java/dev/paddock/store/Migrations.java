package dev.paddock.store;

import dev.paddock.store.migration.HashSandboxTokens;
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
    private final String file;
    private final HashSandboxTokens hashTokens = new HashSandboxTokens();

    Migrations(String file) {
        this.file = file;
    }

    private Flyway flyway(DataSource pool) {
        return Flyway.configure()
                .dataSource(pool)
                .locations("classpath:db/migration")
                .javaMigrations(hashTokens)
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
     * Applies the pending migrations.
     *
     * @return whether sandbox tokens were hashed just now ({@link HashSandboxTokens}): the file still holds them
     * @throws StoreException naming the migration that failed and why, in one line
     */
    boolean migrate(DataSource pool) throws StoreException {
        try {
            flyway(pool).migrate();
            return hashTokens.hashed() > 0;
        } catch (FlywayValidateException e) {
            // Flyway's first line is only "Validate failed: Migrations have failed validation"; the
            // next ones say which migration differs (e.g. a store made by an older development build).
            throw new StoreException(
                    "The Paddock store " + file + " could not be migrated: "
                            + StoreErrors.firstLines(e.getMessage(), 2)
                            + ". Its schema history does not match this build of"
                            + " Paddock: move it away, or start with --home DIR for a separate store.",
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
