package dev.paddock.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * A thin helper over JDBC: parameter binding, row mapping and transactions. Inside
 * {@link #inTransaction} every call made through the given {@link Tx} shares one connection.
 */
public final class Jdbc {
    private final DataSource dataSource;
    private final StoreHealth health;

    Jdbc(DataSource dataSource, StoreHealth health) {
        this.dataSource = dataSource;
        this.health = health;
    }

    /** Maps the current row of a result set. */
    @FunctionalInterface
    public interface RowMapper<T> {
        T map(ResultSet rs) throws SQLException;
    }

    /** Work done in one transaction. */
    @FunctionalInterface
    public interface TxWork<T> {
        T run(Tx tx) throws SQLException;
    }

    /**
     * Runs {@code work} in one transaction: committed when it returns, rolled back when it throws.
     *
     * @throws StoreException wrapping any SQL error, after the rollback
     */
    public <T> T inTransaction(TxWork<T> work) throws StoreException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                Tx tx = new Tx(c);
                T result = work.run(tx);
                c.commit();
                tx.committed();
                return result;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            health.failed(e);
            if (health.problem().filter(p -> p.startsWith("Disk full")).isPresent()) {
                throw new StoreException(health.problem().get(), e);
            }
            throw new StoreException("Store error: " + e.getMessage(), e);
        }
    }

    /** Runs a query in its own transaction. */
    public <T> List<T> query(String sql, RowMapper<T> mapper, Object... params) throws StoreException {
        return inTransaction(tx -> tx.query(sql, mapper, params));
    }

    /** Runs a query expected to return at most one row. */
    public <T> Optional<T> queryOne(String sql, RowMapper<T> mapper, Object... params) throws StoreException {
        return inTransaction(tx -> tx.queryOne(sql, mapper, params));
    }

    /** Runs an update in its own transaction; returns the number of rows changed. */
    public int update(String sql, Object... params) throws StoreException {
        return inTransaction(tx -> tx.update(sql, params));
    }

    /** Statements sharing one connection and transaction. */
    public static final class Tx {
        private final Connection connection;

        private List<Runnable> afterCommit;

        Tx(Connection connection) {
            this.connection = connection;
        }

        /**
         * Runs {@code action} once this transaction committed, on the committing thread; never when it rolls back.
         * For quick hand-offs only (publishing an event): the caller of {@link #inTransaction} waits for it.
         */
        public void afterCommit(Runnable action) {
            if (afterCommit == null) {
                afterCommit = new ArrayList<>();
            }
            afterCommit.add(action);
        }

        private void committed() {
            if (afterCommit == null) {
                return;
            }
            for (Runnable r : afterCommit) {
                try {
                    r.run();
                } catch (RuntimeException e) {
                    org.slf4j.LoggerFactory.getLogger(Jdbc.class)
                            .warn("An after-commit action failed: {}", e.toString());
                }
            }
        }

        public <T> List<T> query(String sql, RowMapper<T> mapper, Object... params) throws SQLException {
            try (PreparedStatement ps = connection.prepareStatement(sql)) {
                bind(ps, params);
                try (ResultSet rs = ps.executeQuery()) {
                    List<T> rows = new ArrayList<>();
                    while (rs.next()) {
                        rows.add(mapper.map(rs));
                    }
                    return rows;
                }
            }
        }

        public <T> Optional<T> queryOne(String sql, RowMapper<T> mapper, Object... params) throws SQLException {
            List<T> rows = query(sql, mapper, params);
            if (rows.size() > 1) {
                throw new SQLException("Expected at most one row, got " + rows.size() + " for " + sql);
            }
            return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
        }

        public long queryLong(String sql, Object... params) throws SQLException {
            return queryOne(sql, rs -> rs.getLong(1), params).orElse(0L);
        }

        public int update(String sql, Object... params) throws SQLException {
            try (PreparedStatement ps = connection.prepareStatement(sql)) {
                bind(ps, params);
                return ps.executeUpdate();
            }
        }

        /** Runs an insert and returns the generated identity key. */
        public long insert(String sql, Object... params) throws SQLException {
            try (PreparedStatement ps = connection.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS)) {
                bind(ps, params);
                ps.executeUpdate();
                try (ResultSet keys = ps.getGeneratedKeys()) {
                    if (!keys.next()) {
                        throw new SQLException("No generated key for " + sql);
                    }
                    return keys.getLong(1);
                }
            }
        }
    }

    private static void bind(PreparedStatement ps, Object... params) throws SQLException {
        for (int i = 0; i < params.length; i++) {
            Object p = params[i];
            if (p instanceof Instant instant) {
                ps.setObject(i + 1, instant.atOffset(ZoneOffset.UTC));
            } else if (p instanceof Enum<?> e) {
                ps.setString(i + 1, e.name().toLowerCase(java.util.Locale.ROOT));
            } else {
                ps.setObject(i + 1, p);
            }
        }
    }

    /** Reads a {@code TIMESTAMP WITH TIME ZONE} column as an {@link Instant}, or null. */
    public static Instant instant(ResultSet rs, String column) throws SQLException {
        return instant(rs, rs.findColumn(column));
    }

    /** Reads a nullable integer column. */
    public static Integer nullableInt(ResultSet rs, String column) throws SQLException {
        return nullableInt(rs, rs.findColumn(column));
    }

    /** Reads a nullable long column. */
    public static Long nullableLong(ResultSet rs, String column) throws SQLException {
        return nullableLong(rs, rs.findColumn(column));
    }

    /** Reads a nullable boolean column. */
    public static Boolean nullableBoolean(ResultSet rs, String column) throws SQLException {
        boolean v = rs.getBoolean(column);
        return rs.wasNull() ? null : v;
    }

    /** Reads a {@code TIMESTAMP WITH TIME ZONE} column, by position, as an {@link Instant}, or null. */
    public static Instant instant(ResultSet rs, int column) throws SQLException {
        OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
        return t == null ? null : t.toInstant();
    }

    /** Reads a nullable integer column, by position. */
    public static Integer nullableInt(ResultSet rs, int column) throws SQLException {
        int v = rs.getInt(column);
        return rs.wasNull() ? null : v;
    }

    /** Reads a nullable long column, by position. */
    public static Long nullableLong(ResultSet rs, int column) throws SQLException {
        long v = rs.getLong(column);
        return rs.wasNull() ? null : v;
    }
}
