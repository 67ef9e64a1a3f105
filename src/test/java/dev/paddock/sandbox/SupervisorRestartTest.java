package dev.paddock.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.isolation.RunRef;
import dev.paddock.isolation.host.ProcessTree;
import dev.paddock.testing.TestRuntimes;
import dev.paddock.worktree.GitCli;
import dev.paddock.worktree.RepositoryLocator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Paddock that stops and starts again while agents run (in this JVM: a second supervisor and reconciler
 * over the same store, knowing no process of their own). Agents still running are adopted; agents that
 * ended meanwhile get their state from the exit-code file, or fail when they left none.
 */
class SupervisorRestartTest {
    private static final String UP = "echo up > \"$PADDOCK_HEARTBEAT_FILE\"; ";
    /** Waits for a "go" file beside the heartbeat file, which the test writes once Paddock is gone. */
    private static final String AWAIT_GO = "while [ ! -e \"$PADDOCK_HEARTBEAT_FILE.go\" ]; do sleep 0.05; done; ";

    @TempDir
    Path tmp;

    private SandboxRig rig;
    private Supervisor restarted;

    @BeforeEach
    void setUp() throws Exception {
        rig = new SandboxRig(tmp);
    }

    @AfterEach
    void tearDown() {
        if (restarted != null) {
            restarted.close();
        }
        rig.close();
    }

    @Test
    void agentsStillRunningAreAdoptedAndThoseThatEndedMeanwhileAreDoneOrFailed() throws Exception {
        rig.create("alive-001", "agent/alive", UP + "exec sleep 60");
        rig.create("killed-001", "agent/killed", UP + "exec sleep 60");
        rig.create("exit3-001", "agent/exit3", UP + AWAIT_GO + "exit 3");
        rig.create("exit0-001", "agent/exit0", UP + AWAIT_GO + "exit 0");
        for (String id : new String[] {"alive-001", "killed-001", "exit3-001", "exit0-001"}) {
            rig.tickUntil(id, SandboxState.RUNNING, Duration.ofSeconds(10));
        }
        SandboxRecord alive = rig.find("alive-001");
        SandboxRecord killed = rig.find("killed-001");
        awaitFile(layout("alive-001", "agent/alive").heartbeatFile());
        awaitFile(layout("killed-001", "agent/killed").heartbeatFile());

        rig.supervisor.close(); // Paddock goes away; its agents do not
        ProcessTree.kill(killed.runRef().pid(), Duration.ofMillis(500));
        Files.writeString(Path.of(layout("exit3-001", "agent/exit3").heartbeatFile() + ".go"), "");
        Files.writeString(Path.of(layout("exit0-001", "agent/exit0").heartbeatFile() + ".go"), "");
        awaitFile(layout("exit3-001", "agent/exit3").exitCodeFile());
        awaitFile(layout("exit0-001", "agent/exit0").exitCodeFile());

        restarted = rig.newSupervisor();
        Reconciler.Report report = rig.newReconciler().reconcile();
        restarted.tick();

        assertThat(report.adopted()).containsExactly("alive-001");
        SandboxRecord stillRunning = rig.find("alive-001");
        assertThat(stillRunning.state()).isEqualTo(SandboxState.RUNNING);
        assertThat(stillRunning.runRef().pid()).isEqualTo(alive.runRef().pid());
        assertThat(ProcessTree.isAlive(alive.runRef().pid(), alive.runRef().startedAt()))
                .isTrue();
        assertThat(rig.kinds("alive-001")).endsWith("sandbox.running", "sandbox.adopted_process");
        SandboxRecord failed = rig.find("killed-001");
        assertThat(failed.state()).isEqualTo(SandboxState.FAILED);
        assertThat(failed.run().lastError()).startsWith("the agent ");
        SandboxRecord exit3 = rig.find("exit3-001");
        assertThat(exit3.state()).isEqualTo(SandboxState.FAILED);
        assertThat(exit3.run().exitCode()).isEqualTo(3);
        assertThat(exit3.run().lastError()).isEqualTo("the agent exited with 3");
        SandboxRecord exit0 = rig.find("exit0-001");
        assertThat(exit0.state()).isEqualTo(SandboxState.DONE);
        assertThat(exit0.run().exitCode()).isZero();
    }

    @Test
    void noAgentStartsBeforeItsSandboxsHealthFingerprintIsRecordedEvenAfterARestart() throws Exception {
        SandboxRecord s = rig.create("fp-001", "agent/fp", UP + "exec sleep 60");
        assertThat(rig.fingerprints.await("fp-001", Duration.ofSeconds(30))).isTrue();
        assertThat(rig.store.fingerprintOf("fp-001")).isPresent();
        // What a Paddock killed between storing the sandbox and recording its fingerprint leaves behind.
        rig.db.jdbc().update("UPDATE sandboxes SET fingerprint = NULL WHERE id = ?", "fp-001");
        Files.writeString(s.workspace().worktree().resolve("dropped-in.txt"), "written after the checkout\n");

        rig.fingerprints.expect("fp-001"); // this Paddock is still taking it
        rig.tick();
        assertThat(rig.find("fp-001").state()).as("waits for the fingerprint").isEqualTo(SandboxState.PENDING);
        assertThat(rig.store.fingerprintOf("fp-001")).isEmpty();

        rig.supervisor.close();
        restarted = rig.newSupervisor(); // a Paddock started again: nothing is being taken
        restarted.tick();

        SandboxRecord running = rig.find("fp-001");
        assertThat(running.state()).isEqualTo(SandboxState.RUNNING);
        assertThat(rig.store.fingerprintOf("fp-001").orElseThrow())
                .contains("\"branch\":\"agent/fp\"")
                .contains("\"changedFiles\":1");
        assertThat(rig.kinds("fp-001"))
                .containsSubsequence(
                        "sandbox.created",
                        "sandbox.fingerprint_recorded",
                        "sandbox.fingerprint_recorded",
                        "sandbox.running");
        assertThat(Files.readString(layout("fp-001", "agent/fp").stateFile())).contains("\"changedFiles\" : 1");
    }

    @Test
    void anAdoptedAgentKeepsTheLeaseEndItHad() throws Exception {
        rig.creator.create(NewSandbox.custom(rig.repo.dir(), "long job", "exec sleep 60")
                .id("keep-001")
                .branch("agent/keep")
                .maxRetries(0)
                .leaseMs(60_000L)
                .build());
        rig.tickUntil("keep-001", SandboxState.RUNNING, Duration.ofSeconds(10));
        java.time.Instant leaseEnd = rig.find("keep-001").lease().expiresAt();
        rig.supervisor.close();
        Thread.sleep(1_100); // a restart takes a while; a lease renewed at adoption would end later

        restarted = rig.newSupervisor();
        rig.newReconciler().reconcile();
        restarted.tick();
        restarted.tick();

        SandboxRecord s = rig.find("keep-001");
        assertThat(s.state()).isEqualTo(SandboxState.RUNNING);
        assertThat(s.lease().expiresAt()).isEqualTo(leaseEnd);
    }

    @Test
    void anAgentSilentPastItsLeaseWhilePaddockWasAwayIsTimedOutWhenTakenOver() throws Exception {
        rig.creator.create(NewSandbox.custom(rig.repo.dir(), "silent job", "exec sleep 60")
                .id("silent-001")
                .branch("agent/silent")
                .maxRetries(0)
                .leaseMs(1_500L)
                .build());
        rig.tickUntil("silent-001", SandboxState.RUNNING, Duration.ofSeconds(10));
        long pid = rig.find("silent-001").runRef().pid();
        rig.supervisor.close();
        Thread.sleep(2_000); // longer than the lease, and no heartbeat in its file either

        restarted = rig.newSupervisor();
        restarted.tick();

        SandboxRecord s = rig.find("silent-001");
        assertThat(s.state()).isEqualTo(SandboxState.TIMEOUT);
        assertThat(s.run().lastError()).contains("lease of 1 s ran out");
        ProcessTree.kill(pid, Duration.ofMillis(500));
    }

    @Test
    void anAgentThatWroteHeartbeatsWhilePaddockWasAwayRunsOnWithALeaseFromItsLastOne() throws Exception {
        String beating =
                "i=0; while true; do i=$((i+1)); echo \"step $i\" > \"$PADDOCK_HEARTBEAT_FILE\"; sleep 0.2; done";
        rig.creator.create(NewSandbox.custom(rig.repo.dir(), "busy job", beating)
                .id("busy-001")
                .branch("agent/busy")
                .maxRetries(0)
                .leaseMs(1_500L)
                .build());
        rig.tickUntil("busy-001", SandboxState.RUNNING, Duration.ofSeconds(10));
        rig.supervisor.close();
        Thread.sleep(2_000); // longer than the lease; its heartbeats go to its file meanwhile

        restarted = rig.newSupervisor();
        restarted.tick();

        SandboxRecord s = rig.find("busy-001");
        assertThat(s.state()).isEqualTo(SandboxState.RUNNING);
        assertThat(s.lease().progress()).startsWith("step ");
        assertThat(s.lease().expiresAt()).isAfter(java.time.Instant.now());
    }

    @Test
    void aRunStartedButNotRecordedBeforePaddockWasKilledIsAdoptedNotStartedTwice() throws Exception {
        SandboxRecord running = rig.create("unrec-001", "agent/unrec", UP + "exec sleep 60");
        SandboxRecord ended = rig.create("unrec-002", "agent/unrec-2", UP + "exit 3");
        // What a Paddock killed between starting the agents and recording them leaves: the agents, pending records.
        long pid = launch(running).pid();
        launch(ended);
        awaitFile(layout("unrec-001", "agent/unrec").heartbeatFile());
        awaitFile(layout("unrec-002", "agent/unrec-2").exitCodeFile());

        restarted = rig.newSupervisor();
        restarted.tick();
        restarted.tick();

        SandboxRecord adopted = rig.find("unrec-001");
        assertThat(adopted.state()).isEqualTo(SandboxState.RUNNING);
        assertThat(adopted.runRef().pid()).isEqualTo(pid);
        assertThat(adopted.run().iteration()).isEqualTo(1);
        assertThat(agentsOf("unrec-001", "agent/unrec"))
                .as("agent processes of unrec-001")
                .isEqualTo(1);
        assertThat(rig.events.ofSandbox("unrec-001"))
                .last()
                .satisfies(e -> assertThat(e.message())
                        .isEqualTo(
                                "unrec-001: run 1 was started by a Paddock that stopped before recording it; its agent"
                                        + " (pid " + pid + ") runs on and is watched again"));
        SandboxRecord failed = rig.find("unrec-002");
        assertThat(failed.state()).isEqualTo(SandboxState.FAILED);
        assertThat(failed.run().exitCode()).isEqualTo(3);
        for (String id : new String[] {"unrec-001", "unrec-002"}) {
            assertThat(Files.readAllLines(rig.supervisor.logFile(id)))
                    .as("runs started of " + id)
                    .filteredOn(l -> l.startsWith("=== "))
                    .hasSize(1);
        }
    }

    @Test
    void aSupervisorThatWasNeverStartedStartsNoAgentWhenPoked() throws Exception {
        rig.create("quiet-001", "agent/quiet");

        rig.supervisor.poke();
        Thread.sleep(1_500);

        assertThat(rig.find("quiet-001").state()).isEqualTo(SandboxState.PENDING);
        assertThat(rig.find("quiet-001").runRef().pid()).isNull();
    }

    /** Starts a sandbox's agent the way the supervisor does, without recording it. */
    private RunRef launch(SandboxRecord s) throws Exception {
        AgentLauncher launcher = new AgentLauncher(TestRuntimes.local());
        return launcher.start(
                new AgentLauncher.Launch(
                        s,
                        layout(s.id(), s.workspace().branch()),
                        new RepositoryLocator(new GitCli()).locate(rig.repo.dir()),
                        rig.store.issueToken(s.id()),
                        "http://127.0.0.1:9",
                        rig.supervisor.logFile(s.id())),
                () -> {});
    }

    /** Live processes whose command line names the sandbox's exit-code file: its agent wrappers. */
    private long agentsOf(String id, String branch) throws SandboxException {
        String exitFile = layout(id, branch).exitCodeFile().toString();
        return ProcessHandle.allProcesses()
                .filter(ProcessTree::isRunning)
                .filter(h -> h.info()
                        .arguments()
                        .map(a -> List.of(a).contains(exitFile))
                        .orElse(false))
                .count();
    }

    private SandboxLayout layout(String id, String branch) throws SandboxException {
        return new SandboxLayout(rig.repo.dir(), id, branch);
    }

    private static void awaitFile(Path file) throws InterruptedException {
        SandboxRig.await(file.toString(), () -> Files.exists(file), Duration.ofSeconds(10));
    }
}
