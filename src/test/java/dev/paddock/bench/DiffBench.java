package dev.paddock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.Wiring;
import dev.paddock.diff.ChangeKind;
import dev.paddock.diff.DiffOptions;
import dev.paddock.diff.DiffService;
import dev.paddock.diff.FileChange;
import dev.paddock.diff.FilePatch;
import dev.paddock.diff.SandboxDiff;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.settings.PaddockHome;
import dev.paddock.testing.TempRepo;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sandbox whose change is a folder of 5,000 files renamed and a 3 MB lockfile with 200 lines changed, all
 * uncommitted: the time to its file list ({@link SandboxDiff}, with counts), to the lockfile's {@link FilePatch} and to
 * the whole patch, each on a state not read before (the lockfile written anew before each call), and the lockfile's
 * patch asked at its list's snapshot (as the diff window asks it); the heap each call allocates and what its answer
 * keeps. The real services over a real H2 file, as {@link Wiring} builds them; no agent runs.
 */
class DiffBench {
    private static final int FILES = 5_000;
    private static final int LOCK_LINES = 60_000;
    private static final int ROUNDS = 10;

    @TempDir
    Path temp;

    @Test
    void aFolderOf5000FilesRenamedAndA3MbLockfile() throws Exception {
        TempRepo repo = TempRepo.init(temp.resolve("repo"));
        for (int i = 0; i < FILES; i++) {
            repo.write(
                    "lib/d" + (i / 100) + "/file" + i + ".txt",
                    "file " + i + "\n" + "a line of the library\n".repeat(5));
        }
        repo.write("package-lock.json", lockfile(-1));
        repo.commitAll("5,000 files and a lockfile");
        try (Wiring wiring = Wiring.open(PaddockHome.resolve(temp.resolve("home"), Map.of()))) {
            SandboxRecord s = wiring.sandboxService()
                    .create(NewSandbox.custom(repo.dir(), "Bench", "sleep 60")
                            .id("bench-001")
                            .maxRetries(0)
                            .build());
            assertThat(wiring.fingerprints().await(s.id(), Duration.ofSeconds(120)))
                    .isTrue();
            Path wt = s.workspace().worktree();
            TempRepo.git(wt, "mv", "lib", "src");
            Files.writeString(wt.resolve("package-lock.json"), lockfile(300));
            long lockSize = Files.size(wt.resolve("package-lock.json"));
            DiffService diffs = wiring.diffs();

            // Every call but the one "at the list's snapshot" reads a state not read before: the agent wrote the
            // lockfile again (every 300th line changed, the next time every 301st, ...): nothing is cached.
            int[] every = {299};
            Callable<Void> rewrite = () -> {
                Files.writeString(wt.resolve("package-lock.json"), lockfile(++every[0]));
                return null;
            };
            Measured<SandboxDiff> list = measure(rewrite, () -> diffs.diff(s.id(), DiffOptions.whole()));
            SandboxDiff d = list.value();
            assertThat(d.files()).hasSize(FILES + 1);
            assertThat(d.files().stream().filter(f -> f.kind() == ChangeKind.RENAMED))
                    .hasSize(FILES);
            FileChange lock = d.files().stream()
                    .filter(f -> f.path().equals("package-lock.json"))
                    .findFirst()
                    .orElseThrow();
            assertThat(lock.added()).isEqualTo(changed(every[0]));
            Measured<FilePatch> file =
                    measure(rewrite, () -> diffs.file(s.id(), "package-lock.json", DiffOptions.whole()));
            assertThat(file.value().hunks()).hasSize(changed(every[0]));
            Measured<FilePatch> atList = measure(
                    () -> null,
                    () -> diffs.file(
                            s.id(),
                            "package-lock.json",
                            DiffOptions.whole()
                                    .at(diffs.diff(s.id(), DiffOptions.whole()).snapshot())));
            Measured<String> patch = measure(rewrite, () -> diffs.patch(s.id(), DiffOptions.whole()));

            BenchSupport.report(String.format(
                    "diff, %d files renamed (uncommitted) + a %.1f MB lockfile, %d lines changed: file list median %.0f ms"
                            + " (max %.0f), allocated %.0f MB a call (on the calling thread; the list's helpers read too), kept %.1f MB; %s",
                    FILES,
                    lockSize / 1e6,
                    LOCK_LINES / 300,
                    list.median(),
                    list.max(),
                    list.allocatedMb(),
                    list.keptMb(),
                    loadAverage()));
            BenchSupport.report(String.format(
                    "diff, the %.1f MB lockfile's FilePatch (%d hunks): median %.0f ms (max %.0f), allocated %.0f MB"
                            + " a call, kept %.1f MB",
                    lockSize / 1e6,
                    file.value().hunks().size(),
                    file.median(),
                    file.max(),
                    file.allocatedMb(),
                    file.keptMb()));
            BenchSupport.report(String.format(
                    "diff, the same state read again, its list then the lockfile's FilePatch at the list's snapshot"
                            + " (the window's way; both together): median %.0f ms (max %.0f)",
                    atList.median(), atList.max()));
            BenchSupport.report(String.format(
                    "diff, the whole patch (%.1f MB of text): median %.0f ms (max %.0f), allocated %.0f MB a call",
                    patch.value().length() / 1e6, patch.median(), patch.max(), patch.allocatedMb()));
        }
    }

    /** Times, allocation (of the calling thread) and the heap its last answer keeps, of {@link #ROUNDS} calls (after one to warm up). */
    record Measured<T>(T value, List<Long> micros, long allocated, long kept) {
        double median() {
            return micros.stream().mapToLong(Long::longValue).sorted().toArray()[micros.size() / 2] / 1000.0;
        }

        double max() {
            return micros.stream().mapToLong(Long::longValue).max().orElse(0) / 1000.0;
        }

        double allocatedMb() {
            return allocated / 1e6;
        }

        double keptMb() {
            return kept / 1e6;
        }
    }

    /** Lines that {@link #lockfile}{@code (every)} changes. */
    private static int changed(int every) {
        int n = 0;
        for (int i = 0; i < LOCK_LINES; i++) {
            n += i % every == every / 2 ? 1 : 0;
        }
        return n;
    }

    private static <T> Measured<T> measure(Callable<Void> first, Callable<T> call) throws Exception {
        first.call();
        call.call();
        long before = usedAfterGc();
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        List<Long> micros = new ArrayList<>();
        long allocated = 0;
        T value = null;
        for (int i = 0; i < ROUNDS; i++) {
            first.call();
            long a0 = threads.getCurrentThreadAllocatedBytes();
            long t0 = System.nanoTime();
            value = call.call();
            micros.add((System.nanoTime() - t0) / 1000);
            allocated += threads.getCurrentThreadAllocatedBytes() - a0;
        }
        long withValue = usedAfterGc();
        return new Measured<>(value, micros, allocated / ROUNDS, Math.max(0, withValue - before));
    }

    private static long usedAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(50);
        }
        Runtime r = Runtime.getRuntime();
        return r.totalMemory() - r.freeMemory();
    }

    /** A lockfile of {@link #LOCK_LINES} lines of about 55 bytes; every {@code every}th line changed (none: -1). */
    private static String lockfile(int every) {
        StringBuilder b = new StringBuilder(LOCK_LINES * 52);
        for (int i = 0; i < LOCK_LINES; i++) {
            boolean changed = every > 0 && i % every == every / 2;
            b.append("    \"node_modules/pkg-")
                    .append(i)
                    .append("\": \"")
                    .append(changed ? "2.0." : "1.0.")
                    .append(i % 97)
                    .append("\", \"sha1-")
                    .append(Integer.toHexString(i * 7919))
                    .append("\",\n");
        }
        return b.toString();
    }

    private static String loadAverage() {
        try {
            return "load average " + Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (java.io.IOException e) {
            return "load average ?";
        }
    }
}
