package dev.paddock.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.Wiring;
import dev.paddock.events.Event;
import dev.paddock.isolation.host.ProcessTree;
import dev.paddock.settings.PaddockHome;
import dev.paddock.status.CountsQuery;
import dev.paddock.testing.TempRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lifecycle with real agents (shell scripts that edit files, commit and report progress), a real
 * repository, a real store, and the supervisor's tick driven by the test (worktree tier).
 */
class SandboxLifecycleTest {
    @TempDir
    Path tmp;

    TempRepo repo;
    Wiring wiring;

    @BeforeEach
    void open() throws Exception {
        repo = TempRepo.init(tmp.resolve("repo"));
        repo.commitFile("src/app.txt", "version 1\n", "Add the app");
        wiring = Wiring.open(PaddockHome.resolve(tmp.resolve("home"), Map.of()));
        wiring.setApiUrl("http://127.0.0.1:1");
    }

    @AfterEach
    void close() {
        wiring.close();
    }

    SandboxRecord create(String task, String command, Tier tier, long leaseMs, int retries) throws Exception {
        return wiring.sandboxService()
                .create(NewSandbox.custom(repo.dir(), task, command)
                        .tier(tier)
                        .leaseMs(leaseMs)
                        .maxRetries(retries)
                        .build());
    }

    /** Ticks the supervisor until the sandbox satisfies {@code done} (or 30 s pass). */
    SandboxRecord tickUntil(String id, Predicate<SandboxRecord> done) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        SandboxRecord s = wiring.sandboxService().find(id);
        while (!done.test(s)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        "timed out waiting; last state " + s.state().id() + ", error "
                                + s.run().lastError()
                                + ", log:\n" + wiring.sandboxService().logTail(id));
            }
            wiring.supervisor().tick();
            Thread.sleep(100);
            s = wiring.sandboxService().find(id);
        }
        return s;
    }

    static Predicate<SandboxRecord> in(SandboxState state) {
        return s -> s.state() == state;
    }

    List<String> kinds(String id) throws Exception {
        return wiring.sandboxService().history(id).stream().map(Event::kind).toList();
    }

    @Test
    void anAgentThatCommitsAndExitsZeroEndsDoneWithItsWorkOnTheBranch() throws Exception {
        SandboxRecord s = create(
                "Write the greeting",
                "echo 'hello from the agent'; paddock heartbeat halfway;"
                        + " sleep 1.5; printf 'hi\\n' > greeting.txt && git add greeting.txt && git commit -q -m 'Add greeting'"
                        + " && paddock heartbeat committed",
                Tier.WORKTREE,
                60_000,
                0);
        assertThat(s.state()).isEqualTo(SandboxState.PENDING);
        assertThat(s.workspace().worktree())
                .isEqualTo(repo.dir().resolve(".worktrees").resolve(s.id()).resolve("agent/write-greeting"));

        SandboxRecord running = tickUntil(s.id(), in(SandboxState.RUNNING));
        assertThat(running.runRef().pid()).isNotNull();
        SandboxRecord heartbeat =
                tickUntil(s.id(), r -> r.lease().progress() != null || r.state() != SandboxState.RUNNING);
        assertThat(heartbeat.lease().progress()).isEqualTo("halfway");
        SandboxRecord done = tickUntil(s.id(), in(SandboxState.DONE));

        assertThat(done.run().exitCode()).isZero();
        assertThat(done.lease().progress())
                .as("the heartbeat just before the exit")
                .isEqualTo("committed");
        assertThat(done.run().iteration()).isEqualTo(1);
        assertThat(done.runRef().pid()).isNull();
        assertThat(kinds(s.id()))
                .containsSubsequence(
                        "sandbox.branch_created",
                        "sandbox.worktree_added",
                        "sandbox.identity_set",
                        "sandbox.state_file_written",
                        "sandbox.created",
                        "sandbox.fingerprint_recorded",
                        "sandbox.running",
                        "sandbox.done");
        assertThat(repo.git("log", "-1", "--format=%an <%ae> %s", "agent/write-greeting")
                        .strip())
                .isEqualTo("Paddock agent " + s.id() + " <" + s.id() + "@agents.paddock.invalid> Add greeting");
        assertThat(Files.readString(done.workspace().worktree().resolve("greeting.txt")))
                .isEqualTo("hi\n");
        assertThat(wiring.sandboxService().logTail(s.id())).contains("hello from the agent");
        assertThat(wiring.sandboxService().changes(s.id()).added()).containsExactly("greeting.txt");
        // The main worktree stays clean: .worktrees/ is excluded.
        assertThat(repo.git("status", "--porcelain").strip()).isEmpty();
    }

    @Test
    void anAgentThatExitsNonZeroFailsAndIsRetriedUntilItsRetriesAreUsedUp() throws Exception {
        SandboxRecord s = create(
                "Break the build",
                "echo broken >> src/app.txt; git commit -qam 'Break it'; exit 3",
                Tier.WORKTREE,
                60_000,
                1);

        SandboxRecord waiting = tickUntil(s.id(), in(SandboxState.AWAITING_HUMAN));

        assertThat(waiting.run().exitCode()).isEqualTo(3);
        assertThat(waiting.run().iteration()).isEqualTo(2);
        assertThat(waiting.run().retryCount()).isEqualTo(1);
        assertThat(waiting.run().lastError()).isEqualTo("the agent exited with 3");
        assertThat(kinds(s.id()))
                .containsSubsequence(
                        "sandbox.running",
                        "sandbox.failed",
                        "sandbox.retrying",
                        "sandbox.running",
                        "sandbox.failed",
                        "sandbox.awaiting_human");
        assertThat(repo.git("log", "--format=%s", "agent/break-build").lines()).startsWith("Break it", "Break it");
        assertThat(wiring.sandboxService().history(s.id()))
                .extracting(dev.paddock.events.Event::message)
                .anySatisfy(m -> assertThat(m).contains("needs a person: its 1 retry is used up"));
        assertThat(new CountsQuery(wiring.database(), wiring.clock())
                        .of(s.repositoryId())
                        .failed24h())
                .as("the Failed (24 h) tile counts it though it waits for a person now")
                .isEqualTo(1);
    }

    @Test
    void anAgentSilentPastItsLeaseTimesOutAndItsWholeProcessTreeIsKilled() throws Exception {
        Path pids = tmp.resolve("child.pid");
        SandboxRecord s = create("Hang forever", "sleep 300 & echo $! > " + pids + "; wait", Tier.WORKTREE, 1_500, 0);

        SandboxRecord running = tickUntil(s.id(), in(SandboxState.RUNNING));
        long wrapper = running.runRef().pid();
        SandboxRecord waiting = tickUntil(s.id(), in(SandboxState.AWAITING_HUMAN));

        assertThat(waiting.run().lastError()).contains("the lease of 1 s ran out");
        assertThat(kinds(s.id())).containsSubsequence("sandbox.running", "sandbox.timeout", "sandbox.awaiting_human");
        long sleeper = Long.parseLong(Files.readString(pids).strip());
        assertThat(ProcessTree.isRunning(sleeper)).as("the agent's child").isFalse();
        assertThat(ProcessTree.isRunning(wrapper)).as("the wrapper").isFalse();
        assertThat(new CountsQuery(wiring.database(), wiring.clock())
                        .of(s.repositoryId())
                        .failed24h())
                .as("a timeout counts as a failure of the last 24 h")
                .isEqualTo(1);
    }

    @Test
    void aHeartbeatRenewsTheLease() throws Exception {
        SandboxRecord s = create("Work slowly", "sleep 300", Tier.WORKTREE, 3_000, 0);
        tickUntil(s.id(), in(SandboxState.RUNNING));
        for (int i = 0; i < 4; i++) {
            Thread.sleep(1_000);
            wiring.sandboxService().heartbeat(s.id(), "step " + i);
            wiring.supervisor().tick();
        }
        SandboxRecord still = wiring.sandboxService().find(s.id());
        assertThat(still.state()).isEqualTo(SandboxState.RUNNING);
        assertThat(still.lease().progress()).isEqualTo("step 3");
        assertThat(still.lease().expiresAt()).isAfter(still.lease().lastHeartbeatAt());
        wiring.sandboxService().stop(s.id(), "the test");
    }

    /**
     * Heartbeats do not grow the store with their count: each used to be a commit that appended several KB to the
     * file (3,000 heartbeats: about 20 MB). The latest one per sandbox is written every few seconds; reads see it at
     * once, and a sandbox leaving "running" takes its last progress with it.
     */
    @Test
    void heartbeatsDoNotGrowTheStoreWithTheirCount() throws Exception {
        SandboxRecord s = create("Report often", "sleep 300", Tier.WORKTREE, 600_000, 0);
        tickUntil(s.id(), in(SandboxState.RUNNING));
        long before = Files.size(wiring.database().file());

        for (int i = 1; i <= 3_000; i++) {
            wiring.sandboxService().heartbeat(s.id(), "step " + i + " of a long task, reported as agents do");
        }

        long grown = Files.size(wiring.database().file()) - before;
        assertThat(grown).as("bytes the store grew by").isLessThan(1_000_000);
        assertThat(wiring.sandboxService().find(s.id()).lease().progress()).startsWith("step 3000 ");
        SandboxRecord stopped = wiring.sandboxService().stop(s.id(), "the test");
        assertThat(stopped.lease().progress()).startsWith("step 3000 ");
        assertThat(wiring.database()
                        .jdbc()
                        .queryOne("SELECT progress FROM sandboxes WHERE id = ?", rs -> rs.getString(1), s.id()))
                .get()
                .asString()
                .startsWith("step 3000 ");
    }

    @Test
    void stoppingKillsTheTreeSoAServerTheAgentStartedLetsGoOfItsPort() throws Exception {
        int port;
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        SandboxRecord s = create(
                "Serve the docs", "python3 -m http.server " + port + " --bind 127.0.0.1", Tier.WORKTREE, 60_000, 2);
        tickUntil(s.id(), in(SandboxState.RUNNING));
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!listening(port)) {
            assertThat(System.nanoTime()).as("the agent's server listens").isLessThan(deadline);
            Thread.sleep(100);
        }

        SandboxRecord stopped = wiring.sandboxService().stop(s.id(), "a person");

        assertThat(stopped.state()).isEqualTo(SandboxState.AWAITING_HUMAN);
        assertThat(stopped.run().lastError()).isEqualTo("stopped by a person");
        assertThat(listening(port)).isFalse();
        wiring.supervisor().tick();
        assertThat(wiring.sandboxService().find(s.id()).state())
                .as("not retried")
                .isEqualTo(SandboxState.AWAITING_HUMAN);
    }

    private static boolean listening(int port) {
        try (java.net.Socket ignored = new java.net.Socket("127.0.0.1", port)) {
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }
}
