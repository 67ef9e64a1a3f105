package dev.paddock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.api.ApiClient;
import dev.paddock.api.InstanceFile;
import dev.paddock.common.Json;
import dev.paddock.common.PaddockException;
import dev.paddock.settings.PaddockHome;
import dev.paddock.store.Database;
import dev.paddock.store.DatabaseInUseException;
import dev.paddock.store.HoldStore;
import dev.paddock.testing.ChildJvm;
import dev.paddock.testing.TempRepo;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A running Paddock: store, API and instance.json together; and {@link ApiClient} finding it. */
class HostTest {
    @TempDir
    Path tmp;

    private PaddockHome home;

    @BeforeEach
    void setUp() throws PaddockException {
        home = PaddockHome.resolve(tmp.resolve("home"), Map.of());
    }

    @Test
    void startingAnnouncesTheApiInInstanceJsonAndClosingRemovesIt() throws Exception {
        try (Host host = Host.start(home, "serve")) {
            Optional<InstanceFile> instance = InstanceFile.live(home.instanceFile());
            assertThat(instance).get().satisfies(i -> {
                assertThat(i.pid()).isEqualTo(ProcessHandle.current().pid());
                assertThat(i.port()).isEqualTo(host.apiPort());
                assertThat(i.mode()).isEqualTo("serve");
                assertThat(i.startedAt()).isNotNull();
            });

            ApiClient client =
                    ApiClient.discover(home.instanceFile(), home.tokenFile()).orElseThrow();
            JsonNode health = Json.mapper().readTree(client.get("/v1/health"));
            assertThat(health.get("ok").asBoolean()).isTrue();
            assertThat(health.get("mode").asText()).isEqualTo("serve");
        }
        assertThat(home.instanceFile()).doesNotExist();
        assertThat(ApiClient.discover(home.instanceFile(), home.tokenFile())).isEmpty();
    }

    @Test
    void closingReleasesTheStore() throws Exception {
        Host.start(home, "panel").close();

        try (Database db = Database.open(home.databaseBase())) {
            assertThat(db.exists()).isTrue();
        }
    }

    @Test
    void statusWithoutARepositoryAnswersForTheMostRecentlyOpenedOne() throws Exception {
        TempRepo first = TempRepo.init(tmp.resolve("first"));
        TempRepo second = TempRepo.init(tmp.resolve("second"));
        try (Host host = Host.start(home, "serve")) {
            host.wiring().workspace().open(first.dir());
            Thread.sleep(5); // last_opened_at must differ
            host.wiring().workspace().open(second.dir());
            ApiClient client =
                    ApiClient.discover(home.instanceFile(), home.tokenFile()).orElseThrow();

            JsonNode status = Json.mapper().readTree(client.status(null));

            assertThat(status.at("/repository/path").asText())
                    .isEqualTo(second.dir().toString());
            assertThat(status.at("/repository/registered").asBoolean()).isTrue();
        }
    }

    @Test
    void statusWithoutARepositoryWhenNoneIsOpenSaysWhatToPass() throws Exception {
        try (Host host = Host.start(home, "serve")) {
            ApiClient client =
                    ApiClient.discover(home.instanceFile(), home.tokenFile()).orElseThrow();

            assertThatThrownBy(() -> client.status(null))
                    .isInstanceOf(PaddockException.class)
                    .hasMessage("No repository is open in the running Paddock; pass --repo PATH.");
        }
    }

    @Test
    void theClientReportsTheServersErrorMessage() throws Exception {
        try (Host host = Host.start(home, "serve")) {
            ApiClient client =
                    ApiClient.discover(home.instanceFile(), home.tokenFile()).orElseThrow();

            assertThatThrownBy(() -> client.status(tmp.resolve("missing")))
                    .isInstanceOf(PaddockException.class)
                    .hasMessage(tmp.resolve("missing") + " does not exist.");
        }
    }

    @Test
    void anInstanceFileLeftByADeadProcessIsIgnored() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        new InstanceFile(gone.pid(), 1, "serve", java.time.Instant.now()).write(home.instanceFile());

        assertThat(InstanceFile.read(home.instanceFile())).isPresent();
        assertThat(InstanceFile.live(home.instanceFile())).isEmpty();
        assertThat(ApiClient.discover(home.instanceFile(), home.tokenFile())).isEmpty();
    }

    @Test
    void aHostCannotStartWhileAnotherProcessHoldsTheStoreAndLeavesNoInstanceFile() throws Exception {
        try (ChildJvm holder = ChildJvm.start(
                tmp.resolve("child"), HoldStore.class, home.databaseBase().toString())) {
            holder.awaitStdout("OPEN", Duration.ofSeconds(20));

            // No instance.json names the holder: the store's own message.
            assertThatThrownBy(() -> Host.start(home, "serve"))
                    .isInstanceOf(DatabaseInUseException.class)
                    .hasMessageContaining("is in use by another Paddock");
            assertThat(home.instanceFile()).doesNotExist();
        }
    }

    @Test
    void whenInstanceJsonCannotBeWrittenStartFailsAndLeavesNoServerRunning() throws Exception {
        // instance.json is written through instance.json.tmp: a directory in its way makes the write fail.
        java.nio.file.Files.createDirectories(home.dir().resolve("instance.json.tmp"));
        long serversBefore = httpDispatchers();

        assertThatThrownBy(() -> Host.start(home, "serve"))
                .isInstanceOf(PaddockException.class)
                .hasMessageStartingWith("Cannot start Paddock's local API");

        assertThat(httpDispatchers()).as("HTTP servers still running").isEqualTo(serversBefore);
        try (Database db = Database.open(home.databaseBase())) {
            assertThat(db.exists()).as("the store was released").isTrue();
        }
    }

    /** Live threads of the JDK's HTTP server (one dispatcher per running server). */
    private static long httpDispatchers() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("HTTP-Dispatcher"))
                .count();
    }
}
