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

/** The owner lease of a store on PostgreSQL: one Paddock at a time, taken again once it expired. */
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
    void aSecondOwnerIsRefusedWithTheHoldersHostPidAndSince() throws Exception {
        first.takeOwnership("build-7", () -> {});

        assertThatThrownBy(() -> second.takeOwnership("laptop", () -> {}))
                .isInstanceOf(StoreOwnedException.class)
                .hasMessageStartingWith("The Paddock store " + pg.url() + " is owned by another Paddock (host build-7,"
                        + " pid " + ProcessHandle.current().pid() + ", since 20")
                .hasMessageContaining("if it was killed, its lease expires at")
                .hasMessageNotContaining(pg.password());
    }

    @Test
    void closingGivesTheStoreUpAtOnce() throws Exception {
        first.takeOwnership("a", () -> {});
        first.close();

        second.takeOwnership("b", () -> {});
        assertThat(ownerHost()).isEqualTo("b");
        second.close();
        assertThat(rows()).isZero();
    }

    @Test
    void aLeaseNotRenewedExpiresAndItsHolderFindsItLost() throws Exception {
        StoreLease stale = StoreLease.take(first, "killed", 1, Duration.ofMillis(300)); // never renewed: as if killed
        assertThatThrownBy(() -> second.takeOwnership("next", () -> {})).isInstanceOf(StoreOwnedException.class);

        Thread.sleep(600);
        second.takeOwnership("next", () -> {});
        assertThat(ownerHost()).isEqualTo("next");

        assertThat(stale.renew()).as("the old holder's renewal").isFalse();
        stale.release(); // leaves the new owner's row alone
        assertThat(ownerHost()).isEqualTo("next");
    }

    @Test
    void aRunningOwnerRenewsAndIsToldWhenAnotherTookTheStore() throws Exception {
        CountDownLatch lost = new CountDownLatch(1);
        first.takeOwnership("a", Duration.ofMillis(600), lost::countDown);
        Thread.sleep(1_500); // several leases long: renewals keep it
        assertThatThrownBy(() -> second.takeOwnership("b", () -> {})).isInstanceOf(StoreOwnedException.class);

        try (Connection c = pg.connect()) {
            c.createStatement().executeUpdate("UPDATE store_owner SET owner = 'other:1:x', host = 'other'");
        }
        assertThat(lost.await(5, TimeUnit.SECONDS)).as("told it lost the store").isTrue();
    }

    @Test
    void aStoreInAnH2FileTakesNoLease(@TempDir Path tmp) throws Exception {
        try (Database h2 = Database.open(tmp.resolve("paddock"))) {
            h2.takeOwnership("a", () -> {});
            assertThat(h2.jdbc().query("SELECT owner FROM store_owner", rs -> rs.getString(1)))
                    .isEmpty();
        }
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
