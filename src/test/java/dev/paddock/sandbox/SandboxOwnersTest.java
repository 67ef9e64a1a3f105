package dev.paddock.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.events.EventDraft;
import dev.paddock.events.EventLog;
import dev.paddock.repo.RepoStore;
import dev.paddock.store.Database;
import dev.paddock.testing.PrivatePostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sandbox leases on a store two Paddocks share (two pools on one PostgreSQL database, each joined as a Paddock): the
 * creator holds a new sandbox, the other does not supervise it, takes it over once its lease expired (only when its
 * worktree is on this machine), and the former holder then no longer does.
 */
class SandboxOwnersTest {
    @TempDir
    Path tmp;

    private PrivatePostgres.Db pg;
    private Database a;
    private Database b;
    private SandboxStore storeA;
    private SandboxStore storeB;
    private long repo;

    @BeforeEach
    void setUp() throws Exception {
        pg = PrivatePostgres.newDatabase();
        a = Database.openServer(pg.urlWithLogin());
        b = Database.openServer(pg.urlWithLogin());
        a.join("host-a", () -> {}, () -> {});
        b.join("host-b", () -> {}, () -> {});
        Clock clock = Clock.systemUTC();
        repo = new RepoStore(a, clock)
                .register(tmp.resolve("repo"), "main")
                .repo()
                .id();
        storeA = new SandboxStore(a, new EventLog(a, clock), clock);
        storeB = new SandboxStore(b, new EventLog(b, clock), clock);
    }

    @AfterEach
    void tearDown() {
        storeA.owners().close();
        storeB.owners().close();
        a.close();
        b.close();
    }

    @Test
    void theCreatorHoldsANewSandboxAndTheOtherTakesItOnlyOnceItsLeaseExpired() throws Exception {
        insert(storeA, "s-001", true);

        assertThat(ids(storeA.owners().held(storeA.listLive()))).containsExactly("s-001");
        assertThat(ids(storeB.owners().held(storeB.listLive()))).as("held by A").isEmpty();
        assertThat(owner("s-001")).isEqualTo(a.owner());
        assertThat(ids(storeA.owners().mine(storeA.listLive()))).containsExactly("s-001");
        assertThat(ids(storeB.owners().mine(storeB.listLive()))).isEmpty();
        assertThat(storeB.owners().heldByOthers(storeB.listLive()))
                .as("the reconciler of B leaves it to A")
                .containsExactly("s-001");
        assertThat(storeA.owners().heldByOthers(storeA.listLive())).isEmpty();
        assertThat(storeA.owners().renew())
                .as("one statement renews A's leases")
                .isEqualTo(1);
        assertThat(storeB.owners().renew()).isZero();

        expireAll(); // as if A was killed and its lease ran out
        assertThat(ids(storeB.owners().held(storeB.listLive()))).containsExactly("s-001");
        assertThat(owner("s-001")).isEqualTo(b.owner());
        assertThat(ids(storeA.owners().held(storeA.listLive())))
                .as("A no longer supervises it")
                .isEmpty();
    }

    @Test
    void aSandboxWithoutALeaseIsTakenByOneOnlyAndOnlyWhereItsWorktreeIs() throws Exception {
        insertWithoutOwner("here-001", true);
        insertWithoutOwner("elsewhere-001", false);

        List<String> byB = ids(storeB.owners().held(storeB.listLive()));
        List<String> byA = ids(storeA.owners().held(storeA.listLive()));

        assertThat(byB).containsExactly("here-001");
        assertThat(byA).as("B took it first").isEmpty();
        assertThat(owner("elsewhere-001"))
                .as("its worktree is on no machine here")
                .isNull();
    }

    @Test
    void aCleanStopLetsTheOtherTakeItsSandboxesAtOnce() throws Exception {
        insert(storeA, "s-001", true);
        storeA.owners().start();
        storeA.owners().close();

        assertThat(ids(storeB.owners().held(storeB.listLive()))).containsExactly("s-001");
    }

    @Test
    void aStoreInAnH2FileHasNoOwnersAndItsPaddockSupervisesEverySandbox() throws Exception {
        try (Database h2 = Database.open(tmp.resolve("h2").resolve("paddock"))) {
            Clock clock = Clock.systemUTC();
            long r = new RepoStore(h2, clock)
                    .register(tmp.resolve("repo"), "main")
                    .repo()
                    .id();
            SandboxStore store = new SandboxStore(h2, new EventLog(h2, clock), clock);
            insert(store, r, "h-001", false);

            assertThat(ids(store.owners().held(store.listLive()))).containsExactly("h-001");
            assertThat(h2.jdbc().query("SELECT owner FROM sandbox_owner", rs -> rs.getString(1)))
                    .isEmpty();
        }
    }

    private void insert(SandboxStore store, String id, boolean worktree) throws Exception {
        insert(store, repo, id, worktree);
    }

    private void insert(SandboxStore store, long repoId, String id, boolean worktree) throws Exception {
        Path w = tmp.resolve("wt").resolve(id);
        if (worktree) {
            Files.createDirectories(w);
        }
        Instant now = Instant.now();
        store.insert(
                SandboxRecord.builder()
                        .id(id)
                        .repositoryId(repoId)
                        .task("task")
                        .agentCommand("true")
                        .tier(Tier.WORKTREE)
                        .branch("agent/" + id)
                        .baseBranch("main")
                        .worktreePath(w.toString())
                        .state(SandboxState.PENDING)
                        .createdAt(now)
                        .stateChangedAt(now)
                        .leaseMs(60_000)
                        .build(),
                null,
                List.<EventDraft>of());
    }

    /** As a CLI command that did not join the store would: no lease row. */
    private void insertWithoutOwner(String id, boolean worktree) throws Exception {
        insert(storeA, id, worktree);
        try (Connection c = pg.connect()) {
            c.createStatement().executeUpdate("DELETE FROM sandbox_owner WHERE sandbox_id = '" + id + "'");
        }
    }

    private void expireAll() throws Exception {
        try (Connection c = pg.connect()) {
            c.createStatement()
                    .executeUpdate("UPDATE sandbox_owner SET expires = CURRENT_TIMESTAMP - INTERVAL '1' SECOND");
        }
    }

    private String owner(String id) throws Exception {
        try (Connection c = pg.connect();
                ResultSet rs = c.createStatement()
                        .executeQuery("SELECT owner FROM sandbox_owner WHERE sandbox_id = '" + id + "'")) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    private static List<String> ids(List<SandboxRecord> records) {
        return records.stream().map(SandboxRecord::id).toList();
    }
}
