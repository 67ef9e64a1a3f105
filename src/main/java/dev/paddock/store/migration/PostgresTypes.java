package dev.paddock.store.migration;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.flywaydb.core.api.callback.Callback;
import org.flywaydb.core.api.callback.Context;
import org.flywaydb.core.api.callback.Event;

/**
 * The H2 types the migrations name that PostgreSQL lacks, made PostgreSQL domains before each migrate of a PostgreSQL
 * store (nothing on H2): the migrations' text stays the same for both databases, and so do the checksums the H2
 * stores recorded. Created by a Flyway callback, after Flyway checked that a store without a schema history is empty.
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
                try (PreparedStatement known = c.prepareStatement(
                        "SELECT COUNT(*) FROM pg_type WHERE typname = ? AND typnamespace = current_schema()::regnamespace")) {
                    known.setString(1, d.getKey());
                    try (ResultSet rs = known.executeQuery()) {
                        if (rs.next() && rs.getInt(1) > 0) {
                            continue;
                        }
                    }
                }
                try (Statement create = c.createStatement()) {
                    create.execute("CREATE DOMAIN " + d.getKey() + " AS " + d.getValue());
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
