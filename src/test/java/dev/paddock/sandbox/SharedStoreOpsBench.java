package dev.paddock.sandbox;

import dev.paddock.approval.Approval;
import dev.paddock.approval.ApprovalState;
import dev.paddock.approval.ApprovalStore;
import dev.paddock.bench.BenchSupport;
import dev.paddock.events.EventBus;
import dev.paddock.events.EventDraft;
import dev.paddock.events.EventLog;
import dev.paddock.repo.RepoStore;
import dev.paddock.store.Database;
import dev.paddock.testing.StoreKind;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Benchmark: the store operations one sandbox's life is made of, on the H2 file and on PostgreSQL (a private server
 * on this machine, joined as a Paddock so that each new sandbox gets its lease row): store a sandbox record with its
 * creation event, move it pending → running, append an event, store a pending approval and decide it. Prints the
 * operations per second of each store, one thread.
 */
class SharedStoreOpsBench {
    private static final int WARM_UP = 200;
    private static final int ROUNDS = 1_000;
    /** Operations per round: insert, transition, event, approval insert, approval decision. */
    private static final int OPS = 5;

    @TempDir
    Path tmp;

    @Test
    void storeOperationsPerSecondOnH2AndPostgresql() throws Exception {
        for (StoreKind kind : StoreKind.values()) {
            try (Database db = kind.open(tmp.resolve(kind.name()))) {
                db.join("bench", () -> {}, () -> {});
                Clock clock = Clock.systemUTC();
                EventBus bus = new EventBus();
                EventLog events = new EventLog(db, clock, bus);
                long repo = new RepoStore(db, clock)
                        .register(tmp.resolve("repo-" + kind), "main")
                        .repo()
                        .id();
                SandboxStore sandboxes = new SandboxStore(db, events, clock);
                ApprovalStore approvals = new ApprovalStore(db, events, clock);
                rounds(kind + "-warm", WARM_UP, repo, sandboxes, events, approvals);
                long t0 = System.nanoTime();
                rounds(kind.name(), ROUNDS, repo, sandboxes, events, approvals);
                double seconds = (System.nanoTime() - t0) / 1e9;
                BenchSupport.report(String.format(
                        "shared-store ops on %s: %.0f ops/s (%d rounds of %d operations in %.2f s, %.2f ms a"
                                + " round)",
                        kind, ROUNDS * OPS / seconds, ROUNDS, OPS, seconds, seconds * 1000 / ROUNDS));
                sandboxes.close();
                bus.close();
            }
        }
    }

    private static void rounds(
            String prefix, int n, long repo, SandboxStore sandboxes, EventLog events, ApprovalStore approvals)
            throws Exception {
        for (int i = 0; i < n; i++) {
            String id = prefix.toLowerCase(java.util.Locale.ROOT) + "-" + i;
            Instant now = Instant.now();
            sandboxes.insert(
                    SandboxRecord.builder()
                            .id(id)
                            .repositoryId(repo)
                            .task("bench")
                            .agentCommand("true")
                            .tier(Tier.WORKTREE)
                            .branch("agent/" + id)
                            .baseBranch("main")
                            .worktreePath("/nowhere/" + id)
                            .state(SandboxState.PENDING)
                            .createdAt(now)
                            .stateChangedAt(now)
                            .leaseMs(60_000)
                            .build(),
                    null,
                    List.of(new EventDraft(repo, id, "sandbox.created", "created " + id, null)));
            sandboxes.transition(
                    id,
                    Transition.of(SandboxState.PENDING, SandboxState.RUNNING)
                            .set(Transition.Column.STARTED_AT, now)
                            .set(Transition.Column.LEASE_EXPIRES_AT, now.plusSeconds(3600)));
            events.append(new EventDraft(repo, id, "sandbox.heartbeat", "step " + i, null));
            Approval a = approvals.insert(Approval.builder()
                    .sandboxId(id)
                    .repositoryId(repo)
                    .tool("Bash")
                    .request("git push")
                    .cwd("/nowhere/" + id)
                    .state(ApprovalState.PENDING)
                    .reason("asked")
                    .requestedAt(now)
                    .expiresAt(now.plusSeconds(600))
                    .build());
            if (approvals
                    .finish(
                            a.id(),
                            new ApprovalStore.Outcome(ApprovalState.APPROVED, "allow", "human", "bench", "approved"))
                    .isEmpty()) {
                throw new AssertionError("approval " + a.id() + " was not decided");
            }
        }
    }
}
