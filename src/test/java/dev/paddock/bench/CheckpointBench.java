package dev.paddock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.Wiring;
import dev.paddock.checkpoint.Checkpoint;
import dev.paddock.checkpoint.CheckpointService;
import dev.paddock.checkpoint.Rollback;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.settings.PaddockHome;
import dev.paddock.settings.SettingsStore;
import dev.paddock.testing.TempRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checkpoint and rollback of a sandbox whose worktree holds 10,000 committed files, with 20 files changed between
 * each (15 modified, 5 new untracked ones): a checkpoint (targets: median ≤ 50 ms, p99 ≤ 200 ms), then 20 more
 * changes and a rollback to that checkpoint (same targets; it takes its own checkpoint first, then writes 20 paths
 * back). The real services over a real H2 file, as {@link Wiring} builds them; no agent runs.
 */
class CheckpointBench {
    private static final int FILES = 10_000;
    private static final int WARM_UP = 10;
    private static final int ROUNDS = 100;

    @TempDir
    Path temp;

    @Test
    void checkpointAndRollbackOf10000FilesWith20Changed() throws Exception {
        TempRepo repo = TempRepo.init(temp.resolve("repo"));
        for (int i = 0; i < FILES; i++) {
            repo.write("src/d" + (i / 100) + "/file" + i + ".txt", "line " + i + "\n");
        }
        repo.commitAll("10,000 files");
        try (Wiring wiring = Wiring.open(PaddockHome.resolve(temp.resolve("home"), Map.of()))) {
            wiring.settings().put(SettingsStore.CHECKPOINTS_KEEP, 0); // every rollback target stays
            SandboxRecord s = wiring.sandboxService()
                    .create(NewSandbox.custom(repo.dir(), "Bench", "sleep 60")
                            .id("bench-001")
                            .maxRetries(0)
                            .build());
            assertThat(wiring.fingerprints().await(s.id(), Duration.ofSeconds(60)))
                    .isTrue();
            Path wt = s.workspace().worktree();
            CheckpointService checkpoints = wiring.checkpoints();
            List<Long> takes = new ArrayList<>();
            List<Long> rollbacks = new ArrayList<>();
            long cpuTakes = 0;
            long cpuRollbacks = 0;
            for (int round = 0; round < WARM_UP + ROUNDS; round++) {
                change(wt, round, "a");
                long c0 = cpuMillis();
                long t0 = System.nanoTime();
                Checkpoint c = checkpoints.checkpoint(s.id(), "round " + round, null, "bench");
                long t1 = System.nanoTime();
                long c1 = cpuMillis();
                assertThat(c.changes().size()).isEqualTo(20);
                change(wt, round, "b");
                long c2 = cpuMillis();
                long t2 = System.nanoTime();
                Rollback r = checkpoints.rollback(s.id(), c.number(), "bench");
                long t3 = System.nanoTime();
                long c3 = cpuMillis();
                assertThat(r.restored().size() + r.removed().size()).isEqualTo(20);
                if (round >= WARM_UP) {
                    takes.add((t1 - t0) / 1_000);
                    rollbacks.add((t3 - t2) / 1_000);
                    cpuTakes += c1 - c0;
                    cpuRollbacks += c3 - c2;
                }
            }
            BenchSupport.report(String.format(
                    "checkpoint, %d files, 20 changed: median %.1f ms, p99 %.1f ms, max %.1f"
                            + " ms (n=%d, targets median <= 50 ms, p99 <= 200 ms; load average %s; CPU of this JVM and its git"
                            + " processes %.1f ms each)",
                    FILES,
                    pct(takes, 50),
                    pct(takes, 99),
                    pct(takes, 100),
                    takes.size(),
                    loadAverage(),
                    cpuTakes / (double) ROUNDS));
            BenchSupport.report(String.format(
                    "rollback, %d files, 20 changed: median %.1f ms, p99 %.1f ms, max %.1f"
                            + " ms (n=%d, targets median <= 50 ms, p99 <= 200 ms; load average %s; CPU of this JVM and its git"
                            + " processes %.1f ms each)",
                    FILES,
                    pct(rollbacks, 50),
                    pct(rollbacks, 99),
                    pct(rollbacks, 100),
                    rollbacks.size(),
                    loadAverage(),
                    cpuRollbacks / (double) ROUNDS));
        }
    }

    /**
     * 15 tracked files modified and 5 new untracked ones (in a new folder), different in each round and pass
     * ({@code a}: before the checkpoint, {@code b}: before the rollback).
     */
    private static void change(Path wt, int round, String pass) throws Exception {
        for (int j = 0; j < 15; j++) {
            int i = (round * 37 + j * 613 + (pass.equals("a") ? 0 : 7)) % FILES;
            Files.writeString(wt.resolve("src/d" + (i / 100) + "/file" + i + ".txt"), "round " + round + pass + "\n");
        }
        Path dir = Files.createDirectories(wt.resolve("new/" + round + pass));
        for (int j = 0; j < 5; j++) {
            Files.writeString(dir.resolve("n" + j + ".txt"), "new " + j + "\n");
        }
    }

    /**
     * CPU time of this JVM (all its threads) and of the child processes it waited for (git), in ms (clock ticks of
     * 10 ms: meaningful summed over many rounds). A figure the machine's load does not inflate.
     */
    private static long cpuMillis() throws java.io.IOException {
        String stat = Files.readString(Path.of("/proc/self/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        // After the command: state is field 3, so utime, stime, cutime, cstime (fields 14-17) are f[11]..f[14].
        return (Long.parseLong(f[11]) + Long.parseLong(f[12]) + Long.parseLong(f[13]) + Long.parseLong(f[14])) * 10;
    }

    /** The 1-minute load average (the machine may be shared), or "?". */
    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (java.io.IOException e) {
            return "?";
        }
    }

    /** The percentile of a list of microseconds, in ms. */
    private static double pct(List<Long> micros, int percentile) {
        long[] v = micros.stream().mapToLong(Long::longValue).sorted().toArray();
        int index = Math.max(0, (int) Math.ceil(percentile / 100.0 * v.length) - 1);
        return v[index] / 1000.0;
    }
}
