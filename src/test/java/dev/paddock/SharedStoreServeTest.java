package dev.paddock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.api.ApiClient;
import dev.paddock.api.SandboxClient;
import dev.paddock.api.SandboxView;
import dev.paddock.common.Json;
import dev.paddock.store.StoreLease;
import dev.paddock.testing.ChildJvm;
import dev.paddock.testing.PrivatePostgres;
import dev.paddock.testing.TempRepo;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code paddock serve --store URL} as real processes on a real PostgreSQL server: a second Paddock joins the store
 * (one at a time is its coordinator), and after {@code kill -9} of the coordinator the other takes that role once its
 * lease expired and finds what the first made. See {@link SharedStoreTwoServesTest} for the sandboxes they share.
 */
class SharedStoreServeTest {
    private static final Duration PATIENCE = Duration.ofSeconds(60);
    private static final String ID = "shared-001";

    @TempDir
    Path tmp;

    private PrivatePostgres.Db pg;
    private TempRepo repo;
    private final List<ChildJvm> children = new ArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        pg = PrivatePostgres.newDatabase();
        repo = TempRepo.init(tmp.resolve("repo"));
    }

    @AfterEach
    void tearDown() {
        children.forEach(ChildJvm::close);
    }

    @Test
    void aSecondServeJoinsTheStoreAndAfterKillNineOfTheCoordinatorTakesItsRole() throws Exception {
        Path homeA = tmp.resolve("home-a");
        Path homeB = tmp.resolve("home-b");
        long t0 = System.nanoTime();
        ChildJvm first = serve(homeA);
        long startMs = (System.nanoTime() - t0) / 1_000_000;
        ApiClient apiA = api(homeA);
        apiA.send(
                "POST",
                "/v1/sandboxes",
                Json.mapper()
                        .createObjectNode()
                        .put("repo", repo.dir().toString())
                        .put("task", "made by the first")
                        .put("id", ID)
                        .put("command", "true")
                        .toString());

        // status with --store: through the home's running Paddock, or (another home) on the store itself
        for (Path home : List.of(homeA, homeB)) {
            ChildJvm status = ChildJvm.start(
                    tmp.resolve("child"),
                    Map.of("PADDOCK_STORE", pg.urlWithLogin()),
                    Paddock.class.getName(),
                    List.of(
                            "--home",
                            home.toString(),
                            "status",
                            "--repo",
                            repo.dir().toString()));
            children.add(status);
            assertThat(status.waitFor(PATIENCE)).as(status.report()).isZero();
            assertThat(status.stdout()).as(home.toString()).contains(ID);
        }

        ChildJvm second = serve(homeB); // joins: a second Paddock is no longer refused
        assertThat(ownerPid()).as("the first is the coordinator").isEqualTo(first.pid());
        assertThat(homeB.resolve("paddock.mv.db"))
                .as("no H2 store beside a server's")
                .doesNotExist();

        first.process().destroyForcibly(); // SIGKILL: the lease is left behind, not given up
        assertThat(first.process().waitFor(20, java.util.concurrent.TimeUnit.SECONDS))
                .isTrue();
        long killed = System.nanoTime();
        while (ownerPid() != second.pid()) {
            assertThat(Duration.ofNanos(System.nanoTime() - killed))
                    .as("the coordinator's role is taken over within a lease and a renewal")
                    .isLessThan(StoreLease.LENGTH.plus(PATIENCE));
            Thread.sleep(100);
        }
        long takenOverMs = (System.nanoTime() - killed) / 1_000_000;
        System.out.println("SHARED-STORE serve start on PostgreSQL " + startMs + " ms; coordinator taken over "
                + takenOverMs + " ms after kill -9");
        assertThat(second.stdout() + second.stderr()).contains("is the coordinator of the store");
        ChildJvm next = second;

        List<SandboxView> listed = new SandboxClient(api(homeB)).list(repo.dir());
        assertThat(listed).extracting(SandboxView::id).contains(ID);

        next.close(); // SIGTERM: a clean stop gives the store up
        assertThat(next.process().exitValue()).isNotEqualTo(137);
        assertThat(ownerRows()).as("owner rows after a clean stop").isZero();
    }

    @Test
    void aServeThatFindsAnotherOwnerOnRenewingStopsWithExitCodeOne() throws Exception {
        Path home = tmp.resolve("home");
        ChildJvm serve = serve(home);
        try (Connection c = pg.connect()) {
            assertThat(c.createStatement()
                            .executeUpdate(
                                    "UPDATE store_owner SET owner = 'elsewhere:1:00', host = 'elsewhere', pid = 1"))
                    .isEqualTo(1);
        }

        assertThat(serve.waitFor(PATIENCE)).as(serve.report()).isEqualTo(1);
        assertThat(serve.stderr())
                .contains("paddock: this Paddock lost the store's coordinator lease (another Paddock holds it,");
        assertThat(home.resolve("instance.json")).as("stopped cleanly").doesNotExist();
        try (Connection c = pg.connect();
                ResultSet rs = c.createStatement().executeQuery("SELECT host FROM store_owner")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).as("the new owner's row is left alone").isEqualTo("elsewhere");
        }
    }

    /** The password can stay out of the URL, and so out of the process list: the driver reads a pgpass file. */
    @Test
    void thePasswordMayComeFromAPgpassFileInsteadOfTheUrl() throws Exception {
        java.net.URI server = java.net.URI.create(pg.url().substring("jdbc:".length()));
        Path pgpass = tmp.resolve("pgpass");
        java.nio.file.Files.writeString(
                pgpass, server.getHost() + ":" + server.getPort() + ":*:" + pg.user() + ":" + pg.password() + "\n");
        java.nio.file.Files.setPosixFilePermissions(
                pgpass, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        ChildJvm serve = ChildJvm.start(
                tmp.resolve("child"),
                Map.of("PGPASSFILE", pgpass.toString(), "PADDOCK_STORE", pg.url() + "?user=" + pg.user()),
                Paddock.class.getName(),
                List.of("--home", tmp.resolve("home").toString(), "serve"));
        children.add(serve);
        serve.await(
                "serving or failed", () -> serve.stdout().contains("Paddock serving on") || !serve.isAlive(), PATIENCE);
        assertThat(serve.stdout()).as(serve.report()).contains("store " + pg.url() + ",");
    }

    @Test
    void aStoreThatIsNotPostgresqlIsAUsageErrorOfOneLine() throws Exception {
        ChildJvm option = ChildJvm.start(
                tmp.resolve("child"),
                Map.of(),
                Paddock.class.getName(),
                List.of("--home", tmp.resolve("h").toString(), "--store", "jdbc:h2:/tmp/x?password=hush", "serve"));
        children.add(option);
        assertThat(option.waitFor(PATIENCE)).as(option.report()).isEqualTo(2);
        assertThat(option.stderr().strip())
                .isEqualTo("paddock: --store takes a PostgreSQL URL (jdbc:postgresql://HOST:PORT/DATABASE?user=NAME),"
                        + " not jdbc:h2:/tmp/x.");

        ChildJvm variable = ChildJvm.start(
                tmp.resolve("child"),
                Map.of("PADDOCK_STORE", "mysql://db/x"),
                Paddock.class.getName(),
                List.of("--home", tmp.resolve("h").toString(), "serve"));
        children.add(variable);
        assertThat(variable.waitFor(PATIENCE)).as(variable.report()).isEqualTo(2);
        assertThat(variable.stderr()).startsWith("paddock: PADDOCK_STORE takes a PostgreSQL URL");

        ChildJvm version = ChildJvm.start(
                tmp.resolve("child"), Map.of("PADDOCK_STORE", "mysql://db/x"), Paddock.class.getName(), List.of("-V"));
        children.add(version);
        assertThat(version.waitFor(PATIENCE)).as(version.report()).isZero();
    }

    private ChildJvm start(Path home) {
        ChildJvm c = ChildJvm.start(
                tmp.resolve("child"),
                Map.of("PADDOCK_STORE", pg.urlWithLogin()), // not --store: the password would be in `ps`
                Paddock.class.getName(),
                List.of("--home", home.toString(), "serve"));
        children.add(c);
        return c;
    }

    private ChildJvm serve(Path home) {
        ChildJvm c = start(home);
        c.awaitStdout("Paddock serving on", PATIENCE);
        return c;
    }

    private static ApiClient api(Path home) throws Exception {
        return ApiClient.discover(home.resolve("instance.json"), home.resolve("api-token"))
                .orElseThrow();
    }

    private long ownerPid() throws Exception {
        try (Connection c = pg.connect();
                ResultSet rs = c.createStatement().executeQuery("SELECT pid FROM store_owner WHERE id = 1")) {
            return rs.next() ? rs.getLong(1) : -1;
        }
    }

    private int ownerRows() throws Exception {
        try (Connection c = pg.connect();
                ResultSet rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM store_owner")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
