package dev.paddock.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import org.postgresql.ds.PGSimpleDataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Paddock store in a PostgreSQL database, which several Paddocks may share: the schema comes from the same
 * migrations as an H2 file's ({@link Migrations}, with {@link dev.paddock.store.migration.PostgresTypes} for the H2 types
 * PostgreSQL lacks).
 *
 * <p>Unlike the H2 file there is nothing to back up, recover or compact here: PostgreSQL runs each migration in a
 * transaction (a failed one leaves the database as it was) and Flyway holds an advisory lock while it migrates (two
 * Paddocks starting at once migrate once). The server is the one to watch its disk. What was H2's alone and what is
 * not done yet: docs/decisions/0025-store-on-postgresql.md.
 *
 * <p>The connections come from HikariCP, which checks a connection before it hands it out (a server restarted, a
 * connection cut by a firewall: the dead one is replaced, not given to a statement) and keeps idle ones alive.
 */
final class ServerStore {
    private static final Logger LOG = LoggerFactory.getLogger(ServerStore.class);
    /** The URLs this class takes. */
    static final String PREFIX = "jdbc:postgresql:";
    /** How long a read from the server may wait, in seconds, unless the URL says otherwise. */
    static final int SOCKET_TIMEOUT_S = 30;

    private ServerStore() {}

    static Database open(String url) throws StoreException {
        if (url == null || !url.startsWith(PREFIX)) {
            throw new StoreException("Not a PostgreSQL store URL: " + redacted(url)
                    + ". A shared store is named by a URL such as jdbc:postgresql://HOST:PORT/DATABASE?user=NAME.");
        }
        String name = redacted(url);
        java.util.Optional<String> refused = StoreUrlParameters.problem(url);
        if (refused.isPresent()) {
            throw new StoreException(refused.get());
        }
        PGSimpleDataSource source = new PGSimpleDataSource();
        try {
            source.setURL(url);
        } catch (IllegalArgumentException e) {
            // Not the driver's message, nor it as the cause: it quotes the whole URL, password included.
            throw new StoreException("The store URL " + name + " is not valid: the PostgreSQL driver refused it (a"
                    + " bad port or % escape?). A shared store is named by a URL such as"
                    + " jdbc:postgresql://HOST:PORT/DATABASE?user=NAME.");
        }
        if (!url.contains("socketTimeout=")) {
            // A server that stops answering without closing the connection (hung, a network cut without a reset)
            // fails a read after this long instead of holding its thread for ever (the lease's watchdog stops a
            // coordinator sooner: StoreLease). A URL's own socketTimeout wins (0: wait for ever).
            source.setSocketTimeout(SOCKET_TIMEOUT_S);
        }
        // The first connection straight from the driver: its refusal (a wrong password, no server) is the message,
        // not the pool's "not available, request timed out".
        try (Connection c = source.getConnection()) {
            LOG.debug("Connected to {} ({})", name, c.getMetaData().getDatabaseProductVersion());
        } catch (SQLException e) {
            throw new StoreException(
                    "Cannot open the Paddock store " + name + ": " + StoreErrors.firstLine(e.getMessage()), e);
        }
        HikariDataSource pool = pool(source);
        try {
            new Migrations(name, "open it with the build that made it, or give this one a database of its own.")
                    .migrate(pool);
        } catch (StoreException e) {
            pool.close();
            throw e;
        }
        LOG.info("Opened store {}", name);
        return new Database(null, name, pool, pool::close, StoreHealth.ofServer());
    }

    /** At most 16 connections, each checked before it is handed out; a caller waits at most 10 s for one. */
    private static HikariDataSource pool(PGSimpleDataSource source) {
        HikariConfig config = new HikariConfig();
        config.setDataSource(source);
        config.setPoolName("paddock-store");
        config.setMaximumPoolSize(16);
        config.setMinimumIdle(2);
        config.setConnectionTimeout(Duration.ofSeconds(10).toMillis());
        config.setValidationTimeout(Duration.ofSeconds(2).toMillis());
        config.setKeepaliveTime(Duration.ofMinutes(2).toMillis());
        config.setInitializationFailTimeout(-1); // connected above already
        return new HikariDataSource(config);
    }

    /** The URL without its parameters or a user:password@ (either may hold the password), for messages and logs. */
    static String redacted(String url) {
        if (url == null) {
            return "(none)";
        }
        // Parameters (?user=…&password=…, H2's ;PASSWORD=…) and user:password@ before the host both go.
        String shown = url;
        for (char c : new char[] {'?', ';', '&', '#'}) {
            int at = shown.indexOf(c);
            if (at >= 0) {
                shown = shown.substring(0, at);
            }
        }
        int authority = shown.indexOf("//");
        int user = shown.lastIndexOf('@');
        if (authority >= 0 && user > authority) {
            shown = shown.substring(0, authority + 2) + shown.substring(user + 1);
        }
        return shown;
    }
}
