package dev.paddock.sandbox;

import dev.paddock.Wiring;
import dev.paddock.bench.BenchSupport;
import dev.paddock.settings.PaddockHome;
import dev.paddock.testing.TempRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Benchmark: creating a sandbox (worktree tier: validation, branch, worktree, identity, state
 * file, store) against a plain {@code git worktree add -b} of the same repository, a generated one of
 * 10,000 files. Target: ratio of medians ≤ 1.2. The health fingerprint is recorded just after the create
 * returns ({@link FingerprintRecorder}); the time until it is recorded is given too, as its own ratio. Runs alternate so both see the same
 * page cache. Paddock's worktree add writes the files with parallel checkout ({@code checkout.workers=0}); the
 * ratio is also given against a plain add with that same setting, which isolates Paddock's own overhead.
 * Each timed run starts after {@code sync} (untimed), so no run pays for writing back the files of the
 * one before it (on this VM that write-back made single runs take 2-6 s instead of 0.3 s).
 */
class SandboxCreateBench {
    private static final int FILES = 10_000;
    private static final int RUNS = 9;

    @TempDir
    Path tmp;

    @Test
    void createAgainstPlainWorktreeAdd() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("big"));
        for (int i = 0; i < FILES; i++) {
            Path f = repo.dir().resolve("src/pkg" + (i / 100) + "/File" + i + ".java");
            Files.createDirectories(f.getParent());
            Files.writeString(f, "class File" + i + " { int value = " + i + "; }\n");
        }
        repo.commitAll("10,000 files");
        repo.excludeWorktreesDir();
        try (Wiring wiring = Wiring.open(PaddockHome.resolve(tmp.resolve("home"), Map.of()))) {
            // Warm both paths once (JIT, page cache).
            repo.git(
                    "worktree",
                    "add",
                    "-q",
                    "-b",
                    "warm/plain",
                    repo.dir().resolve(".worktrees/warm-plain").toString(),
                    "main");
            wiring.sandboxService()
                    .create(NewSandbox.custom(repo.dir(), "warm up", "true")
                            .id("warm-up")
                            .build());

            List<Long> plain = new ArrayList<>();
            List<Long> parallel = new ArrayList<>();
            List<Long> paddock = new ArrayList<>();
            List<Long> fingerprinted = new ArrayList<>();
            for (int i = 0; i < RUNS; i++) {
                settle();
                long t0 = System.nanoTime();
                repo.git(
                        "worktree",
                        "add",
                        "-q",
                        "-b",
                        "plain/" + i,
                        repo.dir()
                                .resolve(".worktrees/plain-" + i + "/plain/" + i)
                                .toString(),
                        "main");
                plain.add((System.nanoTime() - t0) / 1_000_000);

                settle();
                t0 = System.nanoTime();
                repo.git(
                        "-c",
                        "checkout.workers=0",
                        "worktree",
                        "add",
                        "-q",
                        "-b",
                        "parallel/" + i,
                        repo.dir()
                                .resolve(".worktrees/parallel-" + i + "/parallel/" + i)
                                .toString(),
                        "main");
                parallel.add((System.nanoTime() - t0) / 1_000_000);

                settle();
                t0 = System.nanoTime();
                wiring.sandboxService()
                        .create(NewSandbox.custom(repo.dir(), "bench " + i, "true")
                                .id("bench-" + i)
                                .build());
                paddock.add((System.nanoTime() - t0) / 1_000_000);
                if (!wiring.fingerprints().await("bench-" + i, java.time.Duration.ofSeconds(60))
                        || wiring.sandboxes().fingerprintOf("bench-" + i).isEmpty()) {
                    throw new AssertionError("no fingerprint recorded for bench-" + i);
                }
                fingerprinted.add((System.nanoTime() - t0) / 1_000_000);
            }
            plain.sort(null);
            parallel.sort(null);
            paddock.sort(null);
            fingerprinted.sort(null);
            BenchSupport.report("git worktree add on 10,000 files, ms: " + BenchSupport.summary(plain));
            BenchSupport.report(
                    "git -c checkout.workers=0 worktree add on 10,000 files, ms: " + BenchSupport.summary(parallel));
            BenchSupport.report("sandbox create (worktree tier) on 10,000 files, ms: " + BenchSupport.summary(paddock));
            BenchSupport.report(String.format(
                    "sandbox create / git worktree add, ratio of medians: %.2f",
                    paddock.get(RUNS / 2) / (double) plain.get(RUNS / 2)));
            BenchSupport.report(
                    "sandbox create until its fingerprint is recorded, ms: " + BenchSupport.summary(fingerprinted));
            BenchSupport.report(String.format(
                    "(create + fingerprint recorded) / git worktree add, ratio of medians: %.2f",
                    fingerprinted.get(RUNS / 2) / (double) plain.get(RUNS / 2)));
            BenchSupport.report(String.format(
                    "sandbox create / git -c checkout.workers=0 worktree add, ratio of" + " medians: %.2f",
                    paddock.get(RUNS / 2) / (double) parallel.get(RUNS / 2)));
        }
    }

    /** Writes dirty pages back to disk ({@code sync}), so the next timed run starts from a quiet disk. */
    private static void settle() throws Exception {
        Process p = new ProcessBuilder("sync").inheritIO().start();
        if (p.waitFor() != 0) {
            throw new IllegalStateException("sync failed");
        }
    }
}
