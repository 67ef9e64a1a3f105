package dev.paddock.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.Wiring;
import dev.paddock.common.Json;
import dev.paddock.events.EventDraft;
import dev.paddock.events.EventLog;
import dev.paddock.settings.PaddockHome;
import dev.paddock.store.Database;
import dev.paddock.store.StoreException;
import dev.paddock.testing.SmallDisk;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full disk, for real: the Paddock home on a 12 MB tmpfs, filled up with a filler file. Paddock says "Disk full"
 * naming the folder and the space it needs, changes nothing in the store it could not migrate, and answers
 * {@code /v1/health} with 503 while the store cannot write.
 */
class StoreDiskFullTest {
    @TempDir
    Path tmp;

    private SmallDisk disk;

    @BeforeEach
    void mount() throws Exception {
        disk = SmallDisk.mount(tmp.resolve("disk"), 12);
    }

    @AfterEach
    void unmount() throws Exception {
        disk.close();
    }

    private Path base() {
        return disk.dir().resolve("home").resolve("paddock");
    }

    @Test
    void startingOnAFullDiskSaysDiskFullAndTouchesNothing() throws Exception {
        Database.open(base()).close();
        byte[] before = Files.readAllBytes(mvDb());
        disk.fill(100 * 1024);

        assertThatThrownBy(() -> Database.open(base()))
                .isInstanceOf(StoreException.class)
                .satisfies(e -> assertThat(e.getMessage())
                        .startsWith("Disk full: the folder " + base().getParent() + " has ")
                        .contains("it needs at least 1.0 MB free")
                        .doesNotContain("\n"));
        assertThat(Files.readAllBytes(mvDb())).isEqualTo(before);

        disk.free();
        try (Database db = Database.open(base())) {
            assertThat(db.health().problem()).isEmpty();
        }
    }

    @Test
    void aMigrationOnAFullDiskIsRefusedBeforeAnythingChangesAndRunsOnceThereIsRoom() throws Exception {
        olderStore("10");
        byte[] before = Files.readAllBytes(mvDb());
        disk.fill(before.length + 1024 * 1024);

        assertThatThrownBy(() -> Database.open(base()))
                .isInstanceOf(StoreException.class)
                .satisfies(e -> assertThat(e.getMessage())
                        .startsWith("Disk full: the folder " + base().getParent() + " has ")
                        .contains("it needs at least ")
                        .contains("backs up the store")
                        .doesNotContain("\n")
                        .doesNotContain("restore backups"));
        assertThat(backup()).doesNotExist();
        assertThat(history()).as("nothing migrated, nothing failed").endsWith("10 true");

        disk.free();
        try (Database db = Database.open(base())) {
            assertThat(db.jdbc()
                            .query(
                                    "SELECT \"version\" FROM \"flyway_schema_history\" WHERE \"success\""
                                            + " ORDER BY \"installed_rank\" DESC LIMIT 1",
                                    rs -> rs.getString(1)))
                    .containsExactly(latestMigration());
        }
        assertThat(backup()).isRegularFile();
    }

    @Test
    void writesOnAFullDiskFailWithDiskFullAndHealthAnswers503() throws Exception {
        PaddockHome home = PaddockHome.resolve(disk.dir().resolve("home"), Map.of());
        try (Wiring wiring = Wiring.open(home)) {
            ApiToken token = ApiToken.loadOrCreate(home.tokenFile());
            try (ApiServer api = ApiServer.start(
                    token, r -> wiring.workspace().statusOf(r), wiring.sandboxService(), wiring.settings(), "serve")) {
                api.watchStore(wiring.database().health()::problem);
                assertThat(health(api, token).statusCode()).isEqualTo(200);

                disk.fill(0);
                EventLog events = new EventLog(wiring.database(), Clock.systemUTC());
                assertThatThrownBy(() -> {
                            for (int i = 0; i < 10_000; i++) {
                                events.append(EventDraft.of(null, null, "test.fill", "x".repeat(4000), Map.of()));
                            }
                        })
                        .isInstanceOf(StoreException.class)
                        .hasMessageStartingWith("Disk full: the folder " + home.dir() + " has ");

                HttpResponse<String> r = health(api, token);
                assertThat(r.statusCode()).isEqualTo(503);
                JsonNode body = Json.mapper().readTree(r.body());
                assertThat(body.get("ok").asBoolean()).isFalse();
                assertThat(body.get("error").asText()).startsWith("Disk full: the folder " + home.dir());

                disk.free();
                assertThat(health(api, token).statusCode())
                        .as("still failing: H2 closed the store")
                        .isEqualTo(503);
            }
        }
    }

    private static HttpResponse<String> health(ApiServer api, ApiToken token) throws Exception {
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(
                                        "http://127.0.0.1:" + api.address().getPort() + "/v1/health"))
                                .timeout(Duration.ofSeconds(10))
                                .header("Authorization", "Bearer " + token.value())
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
    }

    /** A store made by an older Paddock: migrated up to {@code version} only. */
    private void olderStore(String version) throws Exception {
        Files.createDirectories(base().getParent());
        Flyway.configure()
                .dataSource("jdbc:h2:file:" + base() + ";DB_CLOSE_ON_EXIT=FALSE", "paddock", "")
                .locations("classpath:db/migration")
                .javaMigrations(new dev.paddock.store.migration.HashSandboxTokens())
                .target(version)
                .load()
                .migrate();
        try (var c = java.sql.DriverManager.getConnection("jdbc:h2:file:" + base(), "paddock", "")) {
            c.createStatement().execute("SHUTDOWN");
        }
    }

    /** "VERSION success" of each migration the store records, read with H2 alone. */
    private java.util.List<String> history() throws Exception {
        java.util.List<String> rows = new java.util.ArrayList<>();
        try (var c = java.sql.DriverManager.getConnection(
                        "jdbc:h2:file:" + base() + ";DB_CLOSE_ON_EXIT=FALSE", "paddock", "");
                var rs = c.createStatement()
                        .executeQuery(
                                "SELECT \"version\", \"success\" FROM"
                                        + " \"flyway_schema_history\" WHERE \"version\" IS NOT NULL ORDER BY \"installed_rank\"")) {
            while (rs.next()) {
                rows.add(rs.getString(1) + " " + rs.getBoolean(2));
            }
        }
        return rows;
    }

    private Path mvDb() {
        return base().resolveSibling("paddock.mv.db");
    }

    private Path backup() {
        return base().resolveSibling("paddock.mv.db.bak");
    }

    /** The version of the newest migration (whole numbers only: {@code V14__…} is 14). */
    private static String latestMigration() throws IOException {
        try (var files = Files.list(Path.of("src", "main", "resources", "db", "migration"))) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.matches("V\\d+__.*\\.sql"))
                    .map(n -> Integer.parseInt(n.substring(1, n.indexOf("__"))))
                    .max(Integer::compare)
                    .map(String::valueOf)
                    .orElseThrow();
        }
    }
}
