package dev.paddock.store.migration;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.flywaydb.core.api.callback.Callback;
import org.flywaydb.core.api.callback.Context;
import org.flywaydb.core.api.callback.Event;

/**
 * The H2 types the migrations name that PostgreSQL lacks, made PostgreSQL domains before each migrate of a PostgreSQL
 * store (nothing on H2): the migrations' text stays the same for both databases, and so do the checksums the H2
 * stores recorded. Created by a Flyway callback, after Flyway checked that a store without a schema history is empty
 * (a domain made before would make Flyway refuse the database as not empty), and before it takes its lock.
 */
public final class PostgresTypes implements Callback {
    /**
     * Domain name → PostgreSQL type. CLOB: H2's character large object (V1, V2, V9); PostgreSQL's TEXT has no length
     * limit either, and is read and written as a string as Paddock does with CLOB columns.
     */
    public static final Map<String, String> DOMAINS = Map.of("clob", "TEXT");

    @Override
    public boolean supports(Event event, Context context) {
        return event == Event.BEFORE_MIGRATE; // the database is known only in handle (Flyway asks here without one)
    }

    @Override
    public boolean canHandleInTransaction(Event event, Context context) {
        return true;
    }

    @Override
    public void handle(Event event, Context context) {
        Connection c = context.getConnection();
        if (!isPostgres(c)) {
            return;
        }
        try {
            for (Map.Entry<String, String> d : DOMAINS.entrySet()) {
                // Paddocks starting together on a new database each run this before Flyway's lock: the one that
                // comes second finds the domain made (duplicate_object), or made but not committed yet (it waits,
                // then unique_violation on the catalog). Caught inside the block, so a transaction goes on.
                try (Statement create = c.createStatement()) {
                    create.execute("DO $$ BEGIN CREATE DOMAIN " + d.getKey() + " AS " + d.getValue() + ";"
                            + " EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$");
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "Cannot create the PostgreSQL types the migrations use: " + e.getMessage(), e);
        }
    }

    @Override
    public String getCallbackName() {
        return "postgres types";
    }

    private static boolean isPostgres(Connection c) {
        try {
            return "PostgreSQL".equals(c.getMetaData().getDatabaseProductName());
        } catch (SQLException e) {
            return false;
        }
    }
}
