package dev.paddock.sandbox;

import dev.paddock.Wiring;
import dev.paddock.bench.BenchSupport;
import dev.paddock.events.EventDraft;
import dev.paddock.repo.RepoService;
import dev.paddock.settings.PaddockHome;
import dev.paddock.testing.TempRepo;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Benchmark: one supervisor tick over 500 sandbox records (target ≤ 20 ms). The records
 * are running sandboxes whose agent is alive (they all name one real {@code sleep} process), the
 * steady state the tick spends its life in: each is checked for an exit, a heartbeat file and its lease.
 */
class SupervisorTickBench {
    private static final int SANDBOXES = 500;

    @TempDir
    Path tmp;

    @Test
    void oneTickOver500Records() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("repo"));
        Process sleeper = new ProcessBuilder("sleep", "600").start();
        Instant sleeperStart = sleeper.info().startInstant().orElseThrow();
        try (Wiring wiring = Wiring.open(PaddockHome.resolve(tmp.resolve("home"), Map.of()))) {
            RepoService.OpenedRepo opened = wiring.repoService().open(repo.dir());
            Instant now = Instant.now();
            for (int i = 0; i < SANDBOXES; i++) {
                String id = String.format("bench-%03d", i);
                SandboxRecord r = SandboxRecord.builder()
                        .id(id)
                        .repositoryId(opened.record().id())
                        .task("bench")
                        .agentCommand("sleep 600")
                        .tier(Tier.WORKTREE)
                        .branch("agent/" + id)
                        .baseBranch("main")
                        .baseCommit(repo.head())
                        .worktreePath(repo.dir()
                                .resolve(".worktrees/" + id + "/agent/" + id)
                                .toString())
                        .state(SandboxState.PENDING)
                        .createdAt(now)
                        .stateChangedAt(now)
                        .leaseMs(3_600_000L)
                        .build();
                wiring.sandboxes().insert(r, null, List.<EventDraft>of());
                wiring.sandboxes()
                        .transition(
                                id,
                                Transition.of(SandboxState.PENDING, SandboxState.RUNNING)
                                        .set(Transition.Column.PID, sleeper.pid())
                                        .set(Transition.Column.PID_STARTED_AT, sleeperStart)
                                        .set(Transition.Column.STARTED_AT, now)
                                        .set(Transition.Column.LEASE_EXPIRES_AT, now.plusSeconds(3600)));
            }
            Supervisor supervisor = wiring.supervisor();
            for (int i = 0; i < 300; i++) {
                supervisor.tick(); // warm-up
            }
            List<Long> micros = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                long t0 = System.nanoTime();
                int changed = supervisor.tick();
                micros.add((System.nanoTime() - t0) / 1_000);
                if (changed != 0) {
                    throw new AssertionError("a steady tick changed " + changed + " sandboxes");
                }
            }
            micros.sort(null);
            BenchSupport.report(String.format(
                    "supervisor tick over %d running sandboxes, ms: min %.1f, median %.1f, max %.1f" + " (n=100)",
                    SANDBOXES, micros.get(0) / 1000.0, micros.get(50) / 1000.0, micros.get(99) / 1000.0));
        } finally {
            sleeper.destroy();
            sleeper.waitFor(5, TimeUnit.SECONDS);
        }
    }
}
