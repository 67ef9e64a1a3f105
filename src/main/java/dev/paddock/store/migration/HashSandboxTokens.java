package dev.paddock.store.migration;

import dev.paddock.common.TokenHash;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.migration.Context;
import org.flywaydb.core.api.migration.JavaMigration;

/**
 * Migration 8: sandboxes keep the SHA-256 of their token ({@code token_hash}, unique), no longer the token
 * ({@code token}, V2's column, is dropped). Existing tokens are hashed here, so an agent started before the
 * upgrade goes on with the token in its environment.
 *
 * <p>In Java rather than SQL because the hash is computed the way {@link TokenHash} computes it for a
 * presented token, on any database (H2's {@code HASH('SHA-256', ...)} and PostgreSQL's {@code sha256()} differ,
 * and their hex encodings too); the statements it runs are plain SQL both take.
 */
public final class HashSandboxTokens implements JavaMigration {
    /** Its version in the schema history. */
    public static final MigrationVersion VERSION = MigrationVersion.fromVersion("8");

    private int hashed;

    /** How many tokens this instance hashed (0 before it ran, or for a store without sandboxes). */
    public int hashed() {
        return hashed;
    }

    @Override
    public MigrationVersion getVersion() {
        return VERSION;
    }

    @Override
    public String getDescription() {
        return "hash sandbox tokens";
    }

    @Override
    public Integer getChecksum() {
        return null;
    }

    @Override
    public boolean canExecuteInTransaction() {
        return true;
    }

    @Override
    public void migrate(Context context) throws Exception {
        Connection c = context.getConnection();
        try (Statement st = c.createStatement()) {
            st.execute("ALTER TABLE sandboxes ADD COLUMN token_hash VARCHAR(64)");
        }
        Map<String, String> tokens = new LinkedHashMap<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT id, token FROM sandboxes WHERE token IS NOT NULL")) {
            while (rs.next()) {
                tokens.put(rs.getString(1), rs.getString(2));
            }
        }
        try (PreparedStatement up = c.prepareStatement("UPDATE sandboxes SET token_hash = ? WHERE id = ?")) {
            for (Map.Entry<String, String> e : tokens.entrySet()) {
                up.setString(1, TokenHash.of(e.getValue()));
                up.setString(2, e.getKey());
                up.addBatch();
            }
            if (!tokens.isEmpty()) {
                up.executeBatch();
            }
        }
        hashed = tokens.size();
        try (Statement st = c.createStatement()) {
            st.execute("DROP INDEX sandboxes_by_token");
            st.execute("ALTER TABLE sandboxes DROP COLUMN token");
            st.execute("CREATE UNIQUE INDEX sandboxes_by_token_hash ON sandboxes (token_hash)");
        }
    }
}
