package dev.paddock.approval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.events.EventLog;
import dev.paddock.store.Database;
import dev.paddock.testing.PrivatePostgres;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A request a requester waits for in one Paddock, decided in another sharing the store (two pools on one PostgreSQL
 * database): the waiter hears the decision from the store, and a second decision loses.
 */
class DecidedElsewhereTest {
    private Database a;
    private Database b;

    @BeforeEach
    void setUp() throws Exception {
        PrivatePostgres.Db pg = PrivatePostgres.newDatabase();
        a = Database.openServer(pg.urlWithLogin());
        b = Database.openServer(pg.urlWithLogin());
    }

    @AfterEach
    void tearDown() {
        a.close();
        b.close();
    }

    @Test
    void aWaiterHereHearsADecisionMadeElsewhereAndASecondDecisionLoses() throws Exception {
        ApprovalStore here = new ApprovalStore(a, new EventLog(a, Clock.systemUTC()), Clock.systemUTC());
        ApprovalStore there = new ApprovalStore(b, new EventLog(b, Clock.systemUTC()), Clock.systemUTC());
        assertThat(here.shared()).isTrue();
        Instant now = Instant.now();
        Approval pending = here.insert(Approval.builder()
                .sandboxId("s-001")
                .tool("Bash")
                .request("git push")
                .cwd("/tmp")
                .state(ApprovalState.PENDING)
                .reason("asked")
                .requestedAt(now)
                .expiresAt(now.plusSeconds(600))
                .build());
        PendingWaiters waiters = new PendingWaiters();
        CompletableFuture<Approval> waiting = waiters.attach(pending.id());
        DecidedElsewhere elsewhere = new DecidedElsewhere(here, waiters);
        assertThat(elsewhere.poll()).as("nothing decided yet").isZero();

        assertThat(there.finish(pending.id(), ApprovalStore.Outcome.human(true, "bob", "approved by bob")))
                .isPresent();
        assertThat(elsewhere.poll()).isEqualTo(1);

        assertThat(waiting).isCompleted();
        assertThat(waiting.get().state()).isEqualTo(ApprovalState.APPROVED);
        assertThat(waiting.get().decider()).isEqualTo("bob");
        assertThat(waiters.ids()).isEmpty();
        assertThat(here.finish(pending.id(), ApprovalStore.Outcome.human(false, "ann", "denied by ann")))
                .as("decided twice: one winner")
                .isEmpty();
    }
}
