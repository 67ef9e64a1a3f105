package dev.paddock.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.repo.RepoStore;
import dev.paddock.testing.PrivatePostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store on a real PostgreSQL server ({@link PrivatePostgres}): every migration applies there once, giving the
 * tables and columns they give an H2 file, and the store opens again. The store classes' statements on both
 * databases: {@link StoreOperationsTest}.
 */
class PostgresStoreTest {
    private static final Instant T0 = Instant.parse("2026-11-30T10:15:30.123456Z");
    private static final Clock CLOCK = Clock.fixed(T0, ZoneOffset.UTC);

    private PrivatePostgres.Db pg;

    @BeforeEach
    void newDatabase() throws Exception {
        pg = PrivatePostgres.newDatabase();
    }

    @Test
    void everyMigrationAppliesOnceAndAReopenedStoreValidates() throws Exception {
        try (Database db = Database.openServer(pg.urlWithLogin())) {
            assertThat(db.file()).isNull();
            assertThat(db.exists()).isTrue();
            assertThat(history(db)).containsExactlyElementsOf(everyMigrationApplied());
        }
        try (Database db = Database.openServer(pg.urlWithLogin())) {
            assertThat(history(db)).containsExactlyElementsOf(everyMigrationApplied());
            assertThat(db.health().problem()).isEmpty();
        }
    }

    @Test
    void theMigrationsGiveTheSameTablesColumnsAndNullsAsOnH2(@TempDir Path tmp) throws Exception {
        String columns = "SELECT LOWER(table_name), LOWER(column_name), is_nullable FROM information_schema.columns"
                + " WHERE LOWER(table_schema) = 'public' AND LOWER(table_name) <> 'flyway_schema_history'";
        List<String> onH2;
        try (Database db = Database.open(tmp.resolve("paddock"))) {
            onH2 = db.jdbc().query(columns, PostgresStoreTest::column);
        }
        try (Database db = Database.openServer(pg.urlWithLogin())) {
            assertThat(db.jdbc().query(columns, PostgresStoreTest::column))
                    .hasSize(onH2.size())
                    .containsExactlyInAnyOrderElementsOf(onH2);
        }
    }

    private static String column(java.sql.ResultSet rs) throws java.sql.SQLException {
        return rs.getString(1) + "." + rs.getString(2) + " " + rs.getString(3);
    }

    /** Paddocks that share a new database and start together: Flyway's lock lets one migrate, the others wait. */
    @Test
    void paddocksStartingTogetherOnANewDatabaseMigrateItOnce() throws Exception {
        int paddocks = 4;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(paddocks);
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        try {
            List<java.util.concurrent.Future<Database>> opened = new java.util.ArrayList<>();
            for (int i = 0; i < paddocks; i++) {
                opened.add(pool.submit(() -> {
                    go.await();
                    return Database.openServer(pg.urlWithLogin());
                }));
            }
            go.countDown();
            for (java.util.concurrent.Future<Database> f : opened) {
                try (Database db = f.get(60, java.util.concurrent.TimeUnit.SECONDS)) {
                    assertThat(history(db)).containsExactlyElementsOf(everyMigrationApplied());
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void theStoreKeepsRecordsAfterItIsClosedAndTheServerKeepsRunning() throws Exception {
        try (Database db = Database.openServer(pg.urlWithLogin())) {
            new RepoStore(db, CLOCK).register(Path.of("/work/shop"), "main");
        }
        try (Database db = Database.openServer(pg.urlWithLogin())) {
            assertThat(new RepoStore(db, CLOCK).findByPath(Path.of("/work/shop")))
                    .hasValueSatisfying(r -> assertThat(r.baseBranch()).isEqualTo("main"));
        }
    }

    @Test
    void aDatabaseMigratedByADifferentBuildSaysWhichMigrationDiffersAndWhatToDo() throws Exception {
        try (Database db = Database.openServer(pg.urlWithLogin())) {
            db.jdbc().update("UPDATE \"flyway_schema_history\" SET \"checksum\" = 12345 WHERE \"version\" = '13'");
        }

        assertThatThrownBy(() -> Database.openServer(pg.urlWithLogin()))
                .isInstanceOf(StoreException.class)
                .satisfies(e -> assertThat(e.getMessage())
                        .startsWith("The Paddock store " + pg.url() + " could not be migrated: ")
                        .contains("checksum mismatch for migration version 13")
                        .endsWith("give this one a database of its own.")
                        .doesNotContain(pg.password())
                        .doesNotContain("\n"));
    }

    @Test
    void aUrlThatIsNotPostgresOrAServerThatRefusesTheLoginIsOneLineWithoutThePassword() throws Exception {
        assertThatThrownBy(() -> Database.openServer("jdbc:h2:mem:x"))
                .isInstanceOf(StoreException.class)
                .hasMessageStartingWith("Not a PostgreSQL store URL: jdbc:h2:mem:x.");
        assertThatThrownBy(() -> Database.openServer(pg.url() + "?user=" + pg.user() + "&password=wrong-secret"))
                .isInstanceOf(StoreException.class)
                .satisfies(e -> assertThat(e.getMessage())
                        .startsWith("Cannot open the Paddock store " + pg.url() + ": ")
                        .doesNotContain("wrong-secret")
                        .doesNotContain("\n"));
    }

    @Test
    void connectionsTheServerCutAreReplacedBeforeAStatementUsesThem() throws Exception {
        try (Database db = Database.openServer(pg.urlWithLogin())) {
            // Several connections in the pool, idle.
            List<Thread> users = new java.util.ArrayList<>();
            for (int i = 0; i < 4; i++) {
                Thread t = new Thread(() -> {
                    try {
                        db.jdbc().query("SELECT pg_sleep(0.2)", rs -> 1);
                    } catch (StoreException e) {
                        throw new IllegalStateException(e);
                    }
                });
                t.start();
                users.add(t);
            }
            for (Thread t : users) {
                t.join();
            }
            // What a server restart or a firewall does to them: every one of them is ended by the server.
            int ended;
            try (java.sql.Connection admin = pg.connect();
                    java.sql.Statement st = admin.createStatement();
                    java.sql.ResultSet rs = st.executeQuery(
                            "SELECT count(*) FILTER (WHERE pg_terminate_backend(s.pid)) FROM (SELECT pid"
                                    + " FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
                                    + " OFFSET 0) s")) {
                rs.next();
                ended = rs.getInt(1);
            }
            assertThat(ended).as("the pool's connections ended by the server").isPositive();
            // The pool skips its check for a connection used in the last 500 ms (HikariCP's aliveBypassWindowMs); a
            // server that went away and came back took longer than that.
            Thread.sleep(600);

            for (int i = 0; i < 20; i++) {
                assertThat(db.jdbc().query("SELECT 1", rs -> rs.getInt(1))).containsExactly(1);
            }
        }
    }

    private static List<String> history(Database db) throws StoreException {
        return db.jdbc()
                .query(
                        "SELECT \"version\", \"success\" FROM \"flyway_schema_history\" ORDER BY \"installed_rank\"",
                        rs -> rs.getString(1) + " " + rs.getBoolean(2));
    }

    /** "N true" for each migration of the build, in order (8 is the Java one that hashes sandbox tokens). */
    private static List<String> everyMigrationApplied() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("src/main/resources/db/migration"))) {
            return Stream.concat(
                            files.map(f -> f.getFileName()
                                    .toString()
                                    .replaceAll("^V([0-9_]+)__.*$", "$1")
                                    .replace('_', '.')),
                            Stream.of("8"))
                    .sorted(java.util.Comparator.comparing(v -> Double.parseDouble(v)))
                    .map(v -> v + " true")
                    .toList();
        }
    }
}
