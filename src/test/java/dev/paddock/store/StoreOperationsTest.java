package dev.paddock.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.approval.Approval;
import dev.paddock.approval.ApprovalState;
import dev.paddock.approval.ApprovalStore;
import dev.paddock.events.Event;
import dev.paddock.events.EventDraft;
import dev.paddock.events.EventLog;
import dev.paddock.repo.RepoStore;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.sandbox.SandboxStore;
import dev.paddock.sandbox.Tier;
import dev.paddock.testing.StoreKind;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The store classes' statements on both databases, an H2 file and a PostgreSQL database: sandboxes (with heartbeats,
 * whose lease the SQL computes, and tokens), approvals and events are stored, listed and updated alike.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(StoreKind.class)
class StoreOperationsTest {
    private static final Instant T0 = Instant.parse("2026-11-30T10:15:30.123456Z");
    private static final Clock CLOCK = Clock.fixed(T0, ZoneOffset.UTC);

    @TempDir
    Path tmp;

    private final StoreKind kind;

    StoreOperationsTest(StoreKind kind) {
        this.kind = kind;
    }

    @Test
    void aSandboxIsStoredListedAndUpdated() throws Exception {
        try (Database db = kind.open(tmp)) {
            long repo = new RepoStore(db, CLOCK)
                    .register(Path.of("/work/shop"), "main")
                    .repo()
                    .id();
            EventLog events = new EventLog(db, CLOCK);
            SandboxStore store = new SandboxStore(db, events, CLOCK);
            try {
                store.insert(
                        sandbox("fix-001", repo, SandboxState.RUNNING),
                        "{\"status\": \"" + "x".repeat(20_000) + "\"}",
                        List.of(EventDraft.of(repo, "fix-001", "sandbox.created", "made", java.util.Map.of())));
                store.insert(sandbox("fix-002", repo, SandboxState.PENDING), null, List.of());

                assertThat(store.find("fix-001")).hasValueSatisfying(s -> {
                    assertThat(s.state()).isEqualTo(SandboxState.RUNNING);
                    assertThat(s.spec().task()).isEqualTo("fix the build");
                    assertThat(s.createdAt()).isEqualTo(T0);
                });
                assertThat(store.listOpen(repo))
                        .extracting(SandboxRecord::id)
                        .containsExactlyInAnyOrder("fix-001", "fix-002");
                assertThat(store.fingerprintOf("fix-001").map(String::length)).contains(20_014);

                // A heartbeat renews the lease in SQL: now + lease_ms.
                assertThat(store.heartbeat("fix-001", "halfway")).isTrue();
                assertThat(store.heartbeat("fix-002", "not running")).isFalse();
                store.flushHeartbeats();
                assertThat(db.jdbc()
                                .queryOne(
                                        "SELECT lease_expires_at, progress FROM sandboxes WHERE id = ?",
                                        rs -> Jdbc.instant(rs, 1) + " " + rs.getString(2),
                                        "fix-001"))
                        .contains(T0.plusMillis(61_234) + " halfway");

                store.recordAgentSession("fix-001", "session-1");
                String token = store.issueToken("fix-001");
                assertThat(store.sandboxOfToken(token)).contains("fix-001");
                assertThat(store.find("fix-001").orElseThrow().run().agentSession())
                        .isEqualTo("session-1");
                assertThat(events.ofSandbox("fix-001")).extracting(Event::kind).contains("sandbox.created");
            } finally {
                store.close();
            }
        }
    }

    @Test
    void anApprovalIsStoredFoundAndDecidedOnce() throws Exception {
        try (Database db = kind.open(tmp)) {
            EventLog events = new EventLog(db, CLOCK);
            ApprovalStore store = new ApprovalStore(db, events, CLOCK);
            String longCommand = "make deploy " + "--flag ".repeat(100_000);
            Approval a = store.insert(Approval.builder()
                    .sandboxId("fix-001")
                    .tool("Bash")
                    .request(longCommand)
                    .cwd("/tmp")
                    .state(ApprovalState.PENDING)
                    .reason("asked")
                    .requestedAt(T0)
                    .expiresAt(T0.plusSeconds(60))
                    .build());
            Approval b = store.insert(Approval.builder()
                    .sandboxId("fix-001")
                    .tool("Read")
                    .request("/etc/hosts")
                    .state(ApprovalState.PENDING)
                    .requestedAt(T0)
                    .build());

            assertThat(b.id()).isEqualTo(a.id() + 1);
            assertThat(store.find(a.id()).map(Approval::request))
                    .as("a long request, whole")
                    .contains(longCommand);
            assertThat(store.list(ApprovalState.PENDING, 10))
                    .extracting(Approval::id)
                    .contains(a.id(), b.id());

            ApprovalStore.Outcome allow =
                    new ApprovalStore.Outcome(ApprovalState.APPROVED, "allow", "human", "ann", "ok");
            assertThat(store.finish(a.id(), allow)).hasValueSatisfying(d -> {
                assertThat(d.state()).isEqualTo(ApprovalState.APPROVED);
                assertThat(d.decider()).isEqualTo("ann");
                assertThat(d.decidedAt()).isEqualTo(T0);
            });
            assertThat(store.finish(a.id(), allow)).as("decided once").isEmpty();
            assertThat(store.ofSandbox("fix-001", 1)).extracting(Approval::id).containsExactly(b.id());
            assertThat(store.pendingExpiredAt(T0.plusSeconds(61))).isEmpty();
        }
    }

    @Test
    void eventsAreAppendedReadAndTheOldestDeletedInBatches() throws Exception {
        try (Database db = kind.open(tmp)) {
            long repo = new RepoStore(db, CLOCK)
                    .register(Path.of("/work/shop"), "main")
                    .repo()
                    .id();
            String details = "{\"error\": \"" + "e".repeat(50_000) + "\"}";
            for (int i = 0; i < 5; i++) {
                Clock at = Clock.fixed(T0.plus(Duration.ofDays(i)), ZoneOffset.UTC);
                new EventLog(db, at).append(new EventDraft(repo, "fix-001", "sandbox.note", "note " + i, details));
            }
            EventLog events = new EventLog(db, CLOCK);

            assertThat(events.recent(repo, 3)).extracting(Event::message).containsExactly("note 4", "note 3", "note 2");
            assertThat(events.ofSandbox("fix-001").get(0).details()).isEqualTo(details);

            assertThat(events.deleteOlderThan(T0.plus(Duration.ofDays(3)), 2)).isEqualTo(2);
            assertThat(events.deleteOlderThan(T0.plus(Duration.ofDays(3)), 2)).isEqualTo(1);
            assertThat(events.ofSandbox("fix-001")).extracting(Event::message).containsExactly("note 3", "note 4");
        }
    }

    private static SandboxRecord sandbox(String id, long repo, SandboxState state) {
        return SandboxRecord.builder()
                .id(id)
                .repositoryId(repo)
                .task("fix the build")
                .agentCommand("true")
                .tier(Tier.WORKTREE)
                .branch("agent/" + id)
                .baseBranch("main")
                .worktreePath("/work/shop/.worktrees/" + id)
                .state(state)
                .createdAt(T0)
                .stateChangedAt(T0)
                .leaseMs(61_234)
                .build();
    }
}
