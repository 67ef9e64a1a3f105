package dev.paddock.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.testing.PrivatePostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The coordinator lease of a store on PostgreSQL: several Paddocks join it, one at a time is its coordinator, and
 * another takes that role once the holder's lease expired.
 */
class StoreLeaseTest {
    private PrivatePostgres.Db pg;
    private Database first;
    private Database second;

    @BeforeEach
    void setUp() throws Exception {
        pg = PrivatePostgres.newDatabase();
        first = Database.openServer(pg.urlWithLogin());
        second = Database.openServer(pg.urlWithLogin());
    }

    @AfterEach
    void tearDown() {
        first.close();
        second.close();
    }

    @Test
    void aSecondPaddockJoinsAndStandsByWhileTheCoordinatorLives() throws Exception {
        assertThat(first.join("build-7", () -> {}, () -> {}))
                .as("the first is the coordinator")
                .isTrue();

        assertThat(second.join("laptop", () -> {}, () -> {}))
                .as("the second joins")
                .isFalse();
        assertThat(second.coordinator()).isFalse();
        assertThat(second.owner()).startsWith(hostPidOf("laptop")).isNotEqualTo(first.owner());
        assertThat(ownerHost()).isEqualTo("build-7");
    }

    @Test
    void takingTheStoreWhileItsCoordinatorLivesIsRefusedWithTheHoldersHostPidAndSince() throws Exception {
        first.join("build-7", () -> {}, () -> {});

        assertThatThrownBy(() -> StoreLease.take(second, "laptop", 1, StoreLease.LENGTH))
                .isInstanceOf(StoreOwnedException.class)
                .hasMessageStartingWith("The Paddock store " + pg.url() + " is owned by another Paddock (host build-7,"
                        + " pid " + ProcessHandle.current().pid() + ", since 20")
                .hasMessageContaining("if it was killed, its lease expires at")
                .hasMessageNotContaining(pg.password());
    }

    @Test
    void closingGivesTheCoordinatorsLeaseUpAtOnce() throws Exception {
        first.join("a", () -> {}, () -> {});
        first.close();

        assertThat(second.join("b", () -> {}, () -> {})).isTrue();
        assertThat(ownerHost()).isEqualTo("b");
        second.close();
        assertThat(rows()).isZero();
    }

    @Test
    void aLeaseNotRenewedExpiresAndAPaddockStandingByBecomesTheCoordinator() throws Exception {
        StoreLease stale = StoreLease.take(first, "killed", 1, Duration.ofMillis(300)); // never renewed: as if killed
        CountDownLatch becameIt = new CountDownLatch(1);
        long t0 = System.nanoTime();
        assertThat(second.join("next", Duration.ofMillis(300), becameIt::countDown, () -> {}))
                .isFalse();

        assertThat(becameIt.await(5, TimeUnit.SECONDS))
                .as("took the role once it expired")
                .isTrue();
        System.out.println("STORE-LEASE coordinator taken over after " + (System.nanoTime() - t0) / 1_000_000 + " ms");
        assertThat(second.coordinator()).isTrue();
        assertThat(ownerHost()).isEqualTo("next");

        assertThat(stale.renew()).as("the old holder's renewal").isFalse();
        stale.release(); // leaves the new owner's row alone
        assertThat(ownerHost()).isEqualTo("next");
    }

    @Test
    void aRunningCoordinatorRenewsAndIsToldWhenAnotherTookItsLease() throws Exception {
        CountDownLatch lost = new CountDownLatch(1);
        first.join("a", Duration.ofMillis(600), () -> {}, lost::countDown);
        Thread.sleep(1_500); // several leases long: renewals keep it
        assertThat(second.join("b", () -> {}, () -> {})).isFalse();

        try (Connection c = pg.connect()) {
            c.createStatement().executeUpdate("UPDATE store_owner SET owner = 'other:1:x', host = 'other'");
        }
        assertThat(lost.await(5, TimeUnit.SECONDS)).as("told it lost the store").isTrue();
        assertThat(first.coordinator()).isFalse();
    }

    @Test
    void aCoordinatorWhoseLastRenewalIsOlderThanTheLeaseIsOverdue() throws Exception {
        StoreLease lease = StoreLease.take(first, "paused", 1, Duration.ofMillis(300)); // never renewed
        assertThat(lease.overdue()).isFalse();

        Thread.sleep(400);
        assertThat(lease.overdue()).as("found lost by the watchdog").isTrue();
        assertThat(lease.renew()).isFalse();
        lease.release();
        assertThat(ownerHost())
                .as("a lost lease's row is left to whoever takes it")
                .isEqualTo("paused");
    }

    @Test
    void aRenewalThatWaitsOnTheServerLosesTheLeaseWithinItsLengthAndABit() throws Exception {
        CountDownLatch lost = new CountDownLatch(1);
        Duration length = Duration.ofSeconds(2);
        first.join("a", length, () -> {}, lost::countDown);
        try (Connection c = pg.connect()) {
            c.setAutoCommit(false);
            c.createStatement()
                    .executeQuery("SELECT owner FROM store_owner FOR UPDATE")
                    .close(); // renewals wait
            long t0 = System.nanoTime();
            assertThat(lost.await(10, TimeUnit.SECONDS))
                    .as("told it lost the store")
                    .isTrue();
            long ms = (System.nanoTime() - t0) / 1_000_000;
            System.out.println("STORE-LEASE a renewal waiting on the server: lost after " + ms + " ms (lease "
                    + length.toMillis() + " ms)");
            assertThat(ms).isLessThan(length.toMillis() + 1_500);
            c.rollback();
        }
        assertThat(first.coordinator()).isFalse();
    }

    @Test
    void aStoreOnAServerHasASocketTimeoutUnlessItsUrlSaysOtherwise() throws Exception {
        try (Connection c = first.connection()) {
            assertThat(c.unwrap(org.postgresql.PGConnection.class)).isNotNull();
            assertThat(c.getNetworkTimeout()).isEqualTo(ServerStore.SOCKET_TIMEOUT_S * 1000);
        }
        try (Database own = Database.openServer(pg.urlWithLogin() + "&socketTimeout=7");
                Connection c = own.connection()) {
            assertThat(c.getNetworkTimeout()).isEqualTo(7000);
        }
    }

    @Test
    void aStoreInAnH2FileTakesNoLease(@TempDir Path tmp) throws Exception {
        try (Database h2 = Database.open(tmp.resolve("paddock"))) {
            assertThat(h2.join("a", () -> {}, () -> {})).isTrue();
            assertThat(h2.coordinator()).isTrue();
            assertThat(h2.owner()).isNull();
            assertThat(h2.jdbc().query("SELECT owner FROM store_owner", rs -> rs.getString(1)))
                    .isEmpty();
        }
    }

    private static String hostPidOf(String host) {
        return host + ":" + ProcessHandle.current().pid() + ":";
    }

    private String ownerHost() throws Exception {
        try (Connection c = pg.connect();
                ResultSet rs = c.createStatement().executeQuery("SELECT host FROM store_owner WHERE id = 1")) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    private int rows() throws Exception {
        try (Connection c = pg.connect();
                ResultSet rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM store_owner")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
