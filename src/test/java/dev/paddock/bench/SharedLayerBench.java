package dev.paddock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.Wiring;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.RemoveMode;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.sandbox.Tier;
import dev.paddock.settings.PaddockHome;
import dev.paddock.testing.TempRepo;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Creating a namespace (bubblewrap) sandbox whose shared layer holds {@value #FILES} files (a gitignored
 * {@code node_modules} of small files in nested folders, built into a generation once before timing) against
 * creating the same kind of sandbox in a repository alike in all but the shared layer (target: median with the layer
 * ≤ 1.2 × without). One round is {@code sandboxService().create(...)} until the sandbox is {@code done}: its worktree
 * and record made, its fingerprint taken, its run started (with the layer: the overlay mounted in the run's own
 * namespace first), its command ({@code test -f <file> && echo ok}) ended and recorded. The supervisor ticks on its
 * own, as in the panel: poked at creation, when the fingerprint is stored and when the run ends, so the end is seen
 * within one tick of it, not after a polling period. Rounds alternate between the two repositories (which one goes
 * first alternates too) after a warm-up; each sandbox is removed after its round, outside the timing.
 *
 * <p>Also reports the refresh (the one-time copy of the {@value #FILES} files into generation 1; not part of any
 * sandbox's creation) and what each layered sandbox's own layer folder ({@code .worktrees/<id>/.layers}) holds after
 * its run: the overlay's bookkeeping and upper layer only, never a copy of the shared files.
 */
class SharedLayerBench {
    private static final int FILES = 50_000;
    private static final int WARM_UP = 3;
    private static final int ROUNDS = 20;
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** A file deep in the shared layer, which the layered sandbox's command looks for. */
    private static final String PROBE = "node_modules/@scope-4/pkg-49/lib/d9/file-9.js";

    @TempDir
    Path temp;

    private final Semaphore ticked = new Semaphore(0);

    @Test
    void namespaceSandboxWithA50000FileSharedLayerStartsAsFastAsOneWithout() throws Exception {
        TempRepo layered = repository(temp.resolve("layered"));
        TempRepo plain = repository(temp.resolve("plain"));
        try (Wiring wiring = Wiring.open(PaddockHome.resolve(temp.resolve("home"), Map.of()))) {
            wiring.setApiUrl("http://127.0.0.1:1");
            wiring.layers().configure(layered.dir(), List.of("node_modules"), null);
            long r0 = System.nanoTime();
            int generation = wiring.layers().refresh(layered.dir(), step -> {}).generation();
            long refreshMicros = (System.nanoTime() - r0) / 1_000;
            Path gen = layered.dir().resolve(".worktrees/.shared/gen-" + generation + "/node_modules");
            Usage shared = usage(gen);
            assertThat(shared.files()).isEqualTo(FILES);
            BenchSupport.report(String.format(
                    "shared layer refresh, %d files copied into generation %d (once, not per sandbox): %.1f ms"
                            + " (%d bytes of content; load average %s)",
                    shared.files(), generation, refreshMicros / 1000.0, shared.bytes(), loadAverage()));

            wiring.supervisor().addListener(ticked::release);
            wiring.supervisor().start();
            List<Long> withLayer = new ArrayList<>();
            List<Long> without = new ArrayList<>();
            List<Long> callWith = new ArrayList<>();
            List<Long> callWithout = new ArrayList<>();
            Usage ownMax = new Usage(0, 0, 0);
            for (int round = 0; round < WARM_UP + ROUNDS; round++) {
                boolean measured = round >= WARM_UP;
                for (int leg = 0; leg < 2; leg++) {
                    boolean layer = (round + leg) % 2 == 0;
                    Round r = layer
                            ? round(wiring, layered, "Layer round " + round, "test -f " + PROBE + " && echo ok")
                            : round(wiring, plain, "Plain round " + round, "test -f package.json && echo ok");
                    assertThat(r.sandbox().state())
                            .as("%s ends done; log:%n%s", r.sandbox().id(), r.log())
                            .isEqualTo(SandboxState.DONE);
                    assertThat(r.log()).as("what %s printed", r.sandbox().id()).contains("ok");
                    if (layer) {
                        Path own = wiring.sandboxService()
                                .layout(r.sandbox().id())
                                .sandboxDir()
                                .resolve(".layers");
                        Usage u = usage(own);
                        assertThat(u.files())
                                .as("files in %s: the overlay's own, no copy", own)
                                .isLessThan(10);
                        assertThat(usage(own.resolve("node_modules/upper")).files())
                                .isZero();
                        assertThat(usage(r.sandbox().workspace().worktree().resolve("node_modules"))
                                        .files())
                                .as("the host sees an empty mount point")
                                .isZero();
                        ownMax = new Usage(
                                Math.max(ownMax.files(), u.files()),
                                Math.max(ownMax.bytes(), u.bytes()),
                                Math.max(ownMax.unreadable(), u.unreadable()));
                    }
                    if (measured) {
                        (layer ? withLayer : without).add(r.micros());
                        (layer ? callWith : callWithout).add(r.createMicros());
                    }
                    wiring.sandboxService().remove(r.sandbox().id(), RemoveMode.FORCE, true, "bench");
                }
            }
            double ratio = pct(withLayer, 50) / pct(without, 50);
            BenchSupport.report(String.format(
                    "namespace sandbox create -> done, shared layer of %d files: median %.1f ms, p99 %.1f ms"
                            + " (n=%d; create() call alone median %.1f ms)",
                    FILES, pct(withLayer, 50), pct(withLayer, 99), withLayer.size(), pct(callWith, 50)));
            BenchSupport.report(String.format(
                    "namespace sandbox create -> done, no shared layer: median %.1f ms, p99 %.1f ms"
                            + " (n=%d; create() call alone median %.1f ms)",
                    pct(without, 50), pct(without, 99), without.size(), pct(callWithout, 50)));
            BenchSupport.report(String.format(
                    "namespace sandbox create -> done, with / without shared layer: median ratio %.2f, p99 ratio %.2f"
                            + " (target median ratio <= 1.2; load average %s)",
                    ratio, pct(withLayer, 99) / pct(without, 99), loadAverage()));
            BenchSupport.report(String.format(
                    "shared layer per sandbox: its .worktrees/<id>/.layers held at most %d files, %d bytes"
                            + " (%d folders unreadable) after its run; the shared layer %d files, %d bytes",
                    ownMax.files(), ownMax.bytes(), ownMax.unreadable(), shared.files(), shared.bytes()));
        }
    }

    /**
     * One sandbox made and run to its end.
     *
     * @param micros from the create call until its record said done (or failed)
     * @param createMicros the create call alone (worktree and record)
     */
    private record Round(SandboxRecord sandbox, long micros, long createMicros, String log) {}

    private Round round(Wiring wiring, TempRepo repo, String task, String command) throws Exception {
        ticked.drainPermits();
        long t0 = System.nanoTime();
        SandboxRecord s = wiring.sandboxService()
                .create(NewSandbox.custom(repo.dir(), task, command)
                        .tier(Tier.NAMESPACE)
                        .leaseMs(60_000L)
                        .maxRetries(0)
                        .build());
        long t1 = System.nanoTime();
        long deadline = t0 + WAIT.toNanos();
        SandboxRecord r = wiring.sandboxService().find(s.id());
        while (r.state() != SandboxState.DONE && r.state() != SandboxState.FAILED) {
            long left = deadline - System.nanoTime();
            assertThat(left).as("%s ends; now %s", s.id(), r.state().id()).isPositive();
            ticked.tryAcquire(Math.min(left, TimeUnit.SECONDS.toNanos(1)), TimeUnit.NANOSECONDS);
            r = wiring.sandboxService().find(s.id());
        }
        long t2 = System.nanoTime();
        // The log's first line repeats the command.
        String log = wiring.sandboxService().logTail(s.id()).lines().skip(1).collect(Collectors.joining("\n"));
        return new Round(r, (t2 - t0) / 1_000, (t1 - t0) / 1_000, log);
    }

    /**
     * A repository with a few committed files and a gitignored {@code node_modules} of {@value #FILES} small files:
     * 5 scopes × 50 packages × 10 folders × 20 files.
     */
    private static TempRepo repository(Path dir) throws IOException {
        TempRepo repo = TempRepo.init(dir);
        repo.excludeWorktreesDir();
        repo.write(".gitignore", "node_modules/\n");
        repo.write("package.json", "{\"name\": \"bench\", \"version\": \"1.0.0\"}\n");
        repo.write("src/index.js", "module.exports = 1;\n");
        repo.commitAll("A package with dependencies");
        int n = 0;
        for (int scope = 0; scope < 5; scope++) {
            for (int pkg = 0; pkg < 50; pkg++) {
                Path p = dir.resolve("node_modules/@scope-" + scope + "/pkg-" + pkg);
                for (int d = 0; d < 10; d++) {
                    Path folder = Files.createDirectories(p.resolve("lib/d" + d));
                    for (int f = 0; f < 10; f++) {
                        Files.writeString(folder.resolve("file-" + f + ".js"), "module.exports = " + n++ + ";\n");
                    }
                }
                for (int f = 0; f < 100; f++) {
                    Files.writeString(p.resolve("extra-" + f + ".json"), "{\"n\": " + n++ + "}\n");
                }
            }
        }
        assertThat(n).isEqualTo(FILES);
        assertThat(repo.git("status", "--porcelain")).isEmpty();
        return repo;
    }

    /** Files (not folders), their bytes, and folders that could not be read under {@code dir}; links not followed. */
    private record Usage(long files, long bytes, long unreadable) {}

    private static Usage usage(Path dir) throws IOException {
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return new Usage(0, 0, 0);
        }
        long[] u = new long[3];
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                u[0]++;
                u[1] += attrs.size();
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
                u[2]++;
                return FileVisitResult.CONTINUE;
            }
        });
        return new Usage(u[0], u[1], u[2]);
    }

    /** The 1-minute load average (the machine may be shared), or "?". */
    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (IOException e) {
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
