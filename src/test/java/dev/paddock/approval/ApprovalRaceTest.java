package dev.paddock.approval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.Wiring;
import dev.paddock.events.Event;
import dev.paddock.settings.PaddockHome;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A person's click racing the timeout, on a real store: every pending request reaches exactly one final
 * state, with exactly one final event, and the loser is told it lost.
 */
class ApprovalRaceTest {
    private static final String SANDBOX = "race-sandbox";

    @TempDir
    Path tmp;

    @Test
    void approveRacingExpiryGivesExactlyOneFinalStateAndOneEvent() throws Exception {
        try (Wiring w = Wiring.open(PaddockHome.resolve(tmp.resolve("home"), Map.of()))) {
            ApprovalStore store = new ApprovalStore(w.database(), w.events(), w.clock());
            ApprovalBroker broker = w.approvals();
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                for (int i = 0; i < 40; i++) {
                    Instant now = Instant.now();
                    Approval a = store.insert(Approval.builder()
                            .sandboxId(SANDBOX)
                            .tool("Bash")
                            .request("make deploy " + i)
                            .cwd("/tmp")
                            .state(ApprovalState.PENDING)
                            .reason("asked")
                            .requestedAt(now)
                            .expiresAt(now)
                            .build());
                    CountDownLatch go = new CountDownLatch(1);
                    Future<Boolean> click = pool.submit(() -> {
                        go.await();
                        try {
                            broker.approve(a.id(), "ann");
                            return true;
                        } catch (ApprovalException e) {
                            assertThat(e.kind()).isEqualTo(ApprovalException.Kind.CONFLICT);
                            return false;
                        }
                    });
                    Future<Boolean> timeout = pool.submit(() -> {
                        go.await();
                        return broker.expire(a.id());
                    });
                    go.countDown();

                    boolean clicked = click.get(10, TimeUnit.SECONDS);
                    boolean expired = timeout.get(10, TimeUnit.SECONDS);

                    assertThat(clicked ^ expired)
                            .as("exactly one winner for %d", a.id())
                            .isTrue();
                    ApprovalState end = store.find(a.id()).orElseThrow().state();
                    assertThat(end).isEqualTo(clicked ? ApprovalState.APPROVED : ApprovalState.EXPIRED);
                }
            } finally {
                pool.shutdownNow();
            }
            List<Event> events = w.events().ofSandbox(SANDBOX);
            List<String> finals = new ArrayList<>();
            for (Event e : events) {
                if (!e.kind().equals("approval.requested")) {
                    finals.add(e.details().replaceAll(".*\"approvalId\":(\\d+).*", "$1"));
                }
            }
            assertThat(finals).hasSize(40).doesNotHaveDuplicates();
        }
    }

    @Test
    void anExpiredRequestStaysExpired() throws Exception {
        try (Wiring w = Wiring.open(PaddockHome.resolve(tmp.resolve("home"), Map.of()))) {
            ApprovalStore store = new ApprovalStore(w.database(), w.events(), w.clock());
            Instant now = Instant.now();
            Approval a = store.insert(Approval.builder()
                    .sandboxId(SANDBOX)
                    .tool("Bash")
                    .request("make deploy")
                    .cwd("/tmp")
                    .state(ApprovalState.PENDING)
                    .reason("asked")
                    .requestedAt(now)
                    .expiresAt(now.plusSeconds(600))
                    .build());

            assertThat(w.approvals().expire(a.id())).isTrue();
            assertThat(w.approvals().expire(a.id()))
                    .as("a second expiry changes nothing")
                    .isFalse();
            assertThat(w.approvals().cancel(a.id(), "late")).isFalse();

            Approval end = w.approvals().find(a.id()).orElseThrow();
            assertThat(end.state()).isEqualTo(ApprovalState.EXPIRED);
            assertThat(end.decision()).isEqualTo("deny");
            assertThat(end.decidedBy()).isEqualTo("timeout");
            assertThat(end.decidedAt()).isNotNull();
        }
    }
}
