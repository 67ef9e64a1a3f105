package dev.paddock.merge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.Paddock;
import dev.paddock.Wiring;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.Tier;
import dev.paddock.settings.PaddockHome;
import dev.paddock.testing.ChildJvm;
import dev.paddock.testing.TempRepo;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A real {@code paddock serve} is killed with SIGKILL while its merge queue runs a test command, again and again at
 * different moments (the very moment the test's shell appears, while its pid may not be recorded yet, and later);
 * each next {@code paddock serve} on the same home must end everything the killed one's test left running, before
 * it runs the test again: the shell, its child, and a grandchild that left the process group and the tree
 * ({@code setsid}), in the worktree tier and inside bubblewrap.
 */
class MergeTestOrphanTest {
    private static final String ID = "merge-orphan-001";
    private static final String AGENT = "echo one > one.txt && git add one.txt && git commit -q -m 'Agent: one'";
    private static final Duration PATIENCE = Duration.ofSeconds(90);
    /** How long after the test's shell appears each Paddock is killed, in ms. */
    private static final long[] MOMENTS = {0, 0, 40, 300, 1500};

    @TempDir
    Path tmp;

    private PaddockHome home;
    private TempRepo repo;
    /** Tags this test's processes: a sleep of 600.NNNN seconds that nothing else on the machine runs. */
    private String tag;

    private final List<ChildJvm> servers = new ArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        home = PaddockHome.resolve(tmp.resolve("home"), Map.of());
        repo = TempRepo.init(tmp.resolve("repo"));
        tag = "600." + ThreadLocalRandom.current().nextInt(1000, 10000)
                + ThreadLocalRandom.current().nextInt(1000, 10000);
    }

    @AfterEach
    void tearDown() {
        servers.forEach(ChildJvm::close);
        tagged().keySet().forEach(h -> h.destroyForcibly()); // never leave sleeps behind on a shared machine
    }

    @ParameterizedTest
    @EnumSource(
            value = Tier.class,
            names = {"WORKTREE", "NAMESPACE"})
    void noTestProcessOutlivesAKilledPaddockOnceTheNextOneRuns(Tier tier) throws Exception {
        try (Wiring w = Wiring.open(home)) {
            // A child, and a grandchild in a session of its own whose parent exits at once (a daemon).
            w.merges()
                    .configure(
                            repo.dir(),
                            null,
                            "sleep " + tag + " & (setsid sleep " + tag + " &); sleep " + tag + "; wait",
                            600_000L,
                            3,
                            null,
                            "auto");
            w.sandboxService()
                    .create(NewSandbox.custom(repo.dir(), "commit one file", AGENT)
                            .id(ID)
                            .branch("agent/orphan")
                            .tier(tier)
                            .maxRetries(0)
                            .build());
        }
        Map<ProcessHandle, Instant> left = new LinkedHashMap<>();
        Map<ProcessHandle, Instant> old = new LinkedHashMap<>();
        List<String> survivors = new ArrayList<>();
        for (int i = 0; i < MOMENTS.length; i++) {
            long moment = MOMENTS[i];
            ChildJvm serve = serve();
            awaitNewTestProcess(serve, old);
            checkGone(left, survivors, "after the restart that followed kill " + i);
            if (moment > 0) {
                Thread.sleep(moment);
            }
            serve.process().destroyForcibly();
            assertThat(serve.process().waitFor(20, TimeUnit.SECONDS)).isTrue();
            Thread.sleep(100); // the daemon's subshell exits
            left.putAll(tagged());
            old.putAll(left);
        }
        ChildJvm last = serve();
        awaitNewTestProcess(last, old);
        checkGone(left, survivors, "after the last restart");

        assertThat(survivors)
                .as("test processes of killed Paddocks still running")
                .isEmpty();
    }

    /** Waits until a tagged process that was not running before appears: the test runs (again). */
    private void awaitNewTestProcess(ChildJvm serve, Map<ProcessHandle, Instant> before) {
        serve.await(
                "a test command of the merge queue",
                () -> tagged().entrySet().stream().anyMatch(e -> !e.getValue().equals(before.get(e.getKey()))),
                PATIENCE);
    }

    /** Notes every process in {@code left} (by pid and start time) that still runs, then forgets them all. */
    private static void checkGone(Map<ProcessHandle, Instant> left, List<String> survivors, String when) {
        left.forEach((h, started) -> {
            Optional<Instant> now = h.info().startInstant();
            if (h.isAlive() && now.isPresent() && now.get().equals(started) && !zombie(h.pid())) {
                survivors.add(h.pid() + " " + h.info().commandLine().orElse("?") + " " + when);
            }
        });
        left.clear();
    }

    private static boolean zombie(long pid) {
        try {
            String stat = java.nio.file.Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2) == 'Z';
        } catch (java.io.IOException e) {
            return true;
        }
    }

    /** Every live process whose command line carries the tag, with its start time. */
    private Map<ProcessHandle, Instant> tagged() {
        Map<ProcessHandle, Instant> found = new LinkedHashMap<>();
        ProcessHandle.allProcesses().forEach(h -> {
            ProcessHandle.Info info = h.info();
            if (info.commandLine().map(c -> c.contains(tag)).orElse(false)
                    && info.startInstant().isPresent()
                    && !zombie(h.pid())) {
                found.put(h, info.startInstant().get());
            }
        });
        return found;
    }

    private ChildJvm serve() {
        ChildJvm serve = ChildJvm.start(
                tmp.resolve("child"),
                Map.of(),
                Paddock.class.getName(),
                List.of("--home", home.dir().toString(), "serve"));
        servers.add(serve);
        serve.awaitStdout("Paddock serving on", PATIENCE);
        return serve;
    }
}
