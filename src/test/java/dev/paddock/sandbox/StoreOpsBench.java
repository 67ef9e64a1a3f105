package dev.paddock.sandbox;

import dev.paddock.approval.Approval;
import dev.paddock.approval.ApprovalState;
import dev.paddock.approval.ApprovalStore;
import dev.paddock.bench.BenchSupport;
import dev.paddock.events.EventDraft;
import dev.paddock.events.EventLog;
import dev.paddock.repo.RepoStore;
import dev.paddock.store.Database;
import dev.paddock.testing.StoreKind;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Benchmark: the store's own operations per second on PostgreSQL (the tests' private server on loopback) against the
 * H2 file, through the same store classes: a sandbox created (its row and its creation event in one transaction), a
 * compare-and-set transition (pending → running, with its event), a heartbeat written through, an approval asked
 * and decided, an event appended, and the open sandboxes listed. Each is run by 1 and by 4 threads; the figure is
 * operations per second over {@value #OPS} operations per kind, after a warm-up of the same size.
 */
class StoreOpsBench {
    private static final int OPS = 1_000;

    @TempDir
    Path tmp;

    @Test
    void postgresAgainstH2() throws Exception {
        for (StoreKind kind : StoreKind.values()) {
            for (int threads : new int[] {1, 4}) {
                Path dir = tmp.resolve(kind + "-" + threads);
                try (Database db = kind.open(dir)) {
                    run(kind, db, threads, "warm", false);
                    run(kind, db, threads, "run", true);
                }
            }
        }
    }

    private static void run(StoreKind kind, Database db, int threads, String prefix, boolean report) throws Exception {
        Clock clock = Clock.systemUTC();
        long repo = new RepoStore(db, clock)
                .register(Path.of("/work/shop-" + prefix), "main")
                .repo()
                .id();
        EventLog events = new EventLog(db, clock);
        SandboxStore sandboxes = new SandboxStore(db, events, clock);
        ApprovalStore approvals = new ApprovalStore(db, events, clock);
        try {
            Map<String, Op> ops = new java.util.LinkedHashMap<>();
            ops.put(
                    "create",
                    i -> sandboxes.insert(
                            sandbox(prefix + "-" + i, repo),
                            null,
                            List.of(EventDraft.of(repo, prefix + "-" + i, "sandbox.created", "made", Map.of()))));
            ops.put("transition", i -> {
                if (!sandboxes.transition(
                        prefix + "-" + i,
                        Transition.of(SandboxState.PENDING, SandboxState.RUNNING)
                                .message("runs"))) {
                    throw new AssertionError("transition refused for " + prefix + "-" + i);
                }
            });
            ops.put("heartbeat", i -> {
                sandboxes.heartbeat(prefix + "-" + i, "step " + i);
                sandboxes.flushHeartbeats();
            });
            ops.put("approval", i -> {
                Approval a = approvals.insert(Approval.builder()
                        .sandboxId(prefix + "-" + i)
                        .tool("Bash")
                        .request("make test " + i)
                        .cwd("/tmp")
                        .state(ApprovalState.PENDING)
                        .reason("asked")
                        .requestedAt(Instant.now())
                        .expiresAt(Instant.now().plusSeconds(60))
                        .build());
                approvals.finish(
                        a.id(), new ApprovalStore.Outcome(ApprovalState.APPROVED, "allow", "human", "ann", "ok"));
            });
            ops.put(
                    "event",
                    i -> events.append(EventDraft.of(repo, prefix + "-" + i, "sandbox.note", "note", Map.of())));
            ops.put("list", i -> sandboxes.listOpen(repo));
            for (Map.Entry<String, Op> op : ops.entrySet()) {
                double perSecond = timed(op.getValue(), threads);
                if (report) {
                    BenchSupport.report(String.format(
                            "store %s, %s, %d thread%s: %.0f ops/s",
                            kind, op.getKey(), threads, threads == 1 ? "" : "s", perSecond));
                }
            }
        } finally {
            sandboxes.close();
        }
    }

    /** Runs {@link #OPS} operations split among {@code threads}; operations per second. */
    private static double timed(Op op, int threads) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            long t0 = System.nanoTime();
            List<Future<?>> parts = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int first = t;
                parts.add(pool.submit(() -> {
                    for (int i = first; i < OPS; i += threads) {
                        op.run(i);
                    }
                    return null;
                }));
            }
            for (Future<?> f : parts) {
                f.get();
            }
            return OPS / ((System.nanoTime() - t0) / 1e9);
        } finally {
            pool.shutdownNow();
        }
    }

    @FunctionalInterface
    private interface Op {
        void run(int i) throws Exception;
    }

    private static SandboxRecord sandbox(String id, long repo) {
        Instant now = Instant.now();
        return SandboxRecord.builder()
                .id(id)
                .repositoryId(repo)
                .task("fix the build")
                .agentCommand("true")
                .tier(Tier.WORKTREE)
                .branch("agent/" + id)
                .baseBranch("main")
                .worktreePath("/work/shop/.worktrees/" + id)
                .state(SandboxState.PENDING)
                .createdAt(now)
                .stateChangedAt(now)
                .leaseMs(60_000)
                .build();
    }
}
