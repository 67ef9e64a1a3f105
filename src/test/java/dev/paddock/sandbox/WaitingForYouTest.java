package dev.paddock.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.agent.PresetPrograms;
import dev.paddock.events.EventKinds;
import dev.paddock.worktree.GitCli;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * "Waiting for you" on real parts: a real store, real git worktrees and real agent processes that write their turn
 * file as Claude Code's turn hook does; the supervisor reads it, the API's channel brings the same signal, and it
 * counts once.
 */
class WaitingForYouTest {
    private static final String STOP = "{\"session_id\":\"s-1\",\"transcript_path\":\"/t.jsonl\",\"cwd\":\"/w\","
            + "\"hook_event_name\":\"Stop\",\"stop_hook_active\":false,\"last_assistant_message\":\"All done.\"}";
    /** What the turn hook does with its input: the file beside the heartbeat file, replaced through a rename. */
    private static final String WRITES_TURN_FILE = "d=$(dirname \"$PADDOCK_HEARTBEAT_FILE\"); printf '%s\\n' '" + STOP
            + "' > \"$d/turn.json.tmp\" && mv -f \"$d/turn.json.tmp\" \"$d/turn.json\"";

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    Path tmp;

    private SandboxRig rig;

    @BeforeEach
    void open() throws Exception {
        rig = new SandboxRig(tmp);
        rig.launcher.agentPrograms(
                new PresetPrograms(tmp.resolve("home"), tmp, new GitCli(), () -> 60_000, System::getenv));
    }

    @AfterEach
    void close() {
        rig.close();
    }

    private long turnEnded(String id) throws Exception {
        return rig.kinds(id).stream()
                .filter(EventKinds.AGENT_TURN_ENDED::equals)
                .count();
    }

    @Test
    void theSupervisorReadsTheTurnFileAndTheSameSignalByTheApiCountsOnce() throws Exception {
        rig.create("wait-001", "agent/wait-1", WRITES_TURN_FILE + "; exit 0");

        rig.tickUntil("wait-001", SandboxState.DONE, TIMEOUT);

        WaitingForYou w = rig.store.turns().waiting("wait-001").orElseThrow();
        assertThat(w.kind()).isEqualTo(AgentSignal.Kind.TURN_ENDED);
        assertThat(w.sessionId()).isEqualTo("s-1");
        assertThat(w.detail()).isEqualTo("All done.");
        assertThat(w.run()).isEqualTo(1);
        assertThat(turnEnded("wait-001")).isEqualTo(1);
        assertThat(rig.events.ofSandbox("wait-001"))
                .filteredOn(e -> e.kind().equals(EventKinds.AGENT_TURN_ENDED))
                .singleElement()
                .satisfies(e -> {
                    assertThat(e.sandboxId()).isEqualTo("wait-001");
                    assertThat(e.details()).contains("\"via\":\"file\"");
                });

        // The hook posts the same input without the file's newline: taken already.
        AgentSignal signal = new AgentSignal(AgentSignal.Kind.TURN_ENDED, "s-1", "All done.", null);
        assertThat(rig.supervisor.followUps().signal("wait-001", signal, STOP)).isEqualTo(AgentTurns.Outcome.DUPLICATE);
        rig.tick();
        assertThat(turnEnded("wait-001")).isEqualTo(1);
    }

    @Test
    void aSignalTakenByTheApiFirstIsNotTakenAgainFromTheFile() throws Exception {
        rig.create("wait-002", "agent/wait-2", "sleep 60");
        SandboxRecord running = rig.tickUntil("wait-002", SandboxState.RUNNING, TIMEOUT);
        AgentSignal signal = new AgentSignal(AgentSignal.Kind.TURN_ENDED, "s-1", "All done.", null);

        assertThat(rig.supervisor.followUps().signal("wait-002", signal, STOP)).isEqualTo(AgentTurns.Outcome.RECORDED);
        Path turnFile = new SandboxLayout(
                        rig.repo.dir(), running.id(), running.workspace().branch())
                .turnFile();
        Files.writeString(turnFile, STOP + "\n");
        rig.tick();
        rig.tick();

        assertThat(turnEnded("wait-002")).isEqualTo(1);
        assertThat(rig.store.turns().waiting("wait-002")).isPresent();
        assertThat(rig.events.ofSandbox("wait-002"))
                .filteredOn(e -> e.kind().equals(EventKinds.AGENT_TURN_ENDED))
                .singleElement()
                .satisfies(e -> assertThat(e.details()).contains("\"via\":\"api\""));
    }

    @Test
    void aRetryEndsTheWaitAndTheNewRunDoesNotInheritTheOldTurnFileAndRemovalEndsItToo() throws Exception {
        rig.create(
                "wait-003",
                "agent/wait-3",
                "if [ -f \"$PADDOCK_WORKTREE/again\" ]; then sleep 60; fi; " + WRITES_TURN_FILE + "; exit 0");
        SandboxRecord done = rig.tickUntil("wait-003", SandboxState.DONE, TIMEOUT);
        assertThat(rig.store.turns().waiting("wait-003")).isPresent();
        Path turnFile =
                new SandboxLayout(rig.repo.dir(), done.id(), done.workspace().branch()).turnFile();
        assertThat(turnFile).exists();

        Files.writeString(done.workspace().worktree().resolve("again"), "");
        rig.supervisor.retry("wait-003", "the test");
        assertThat(rig.store.turns().waiting("wait-003")).isEmpty();
        rig.tickUntil("wait-003", SandboxState.RUNNING, TIMEOUT);
        rig.tick();
        // Run 2 sleeps before its turn ends: the file of run 1 is gone and nothing waits.
        assertThat(turnFile).doesNotExist();
        assertThat(rig.store.turns().waiting("wait-003")).isEmpty();
        assertThat(turnEnded("wait-003")).isEqualTo(1);

        rig.supervisor.stop("wait-003", "the test");
        assertThat(rig.find("wait-003").state()).isEqualTo(SandboxState.AWAITING_HUMAN);
        Files.delete(done.workspace().worktree().resolve("again"));
        rig.reclaimer.remove("wait-003", RemoveMode.FORCE, true, "the test");
        assertThat(rig.store.turns().waiting("wait-003")).isEmpty();
        assertThat(rig.db.jdbc().query("SELECT sandbox_id FROM sandbox_waiting", rs -> rs.getString(1)))
                .isEmpty();
    }

    @Test
    void aSignalForASandboxThatCannotWaitOrDoesNotExistChangesNothing() throws Exception {
        rig.create("wait-004", "agent/wait-4", "sleep 60");
        AgentSignal signal = new AgentSignal(AgentSignal.Kind.TURN_ENDED, "s-1", "All done.", null);

        assertThat(rig.supervisor.followUps().signal("wait-004", signal, STOP)).isEqualTo(AgentTurns.Outcome.NOT_NOW);
        assertThatThrownBy(() -> rig.supervisor.followUps().signal("no-such-001", signal, STOP))
                .isInstanceOf(SandboxNotFoundException.class);

        assertThat(rig.store.turns().waiting("wait-004")).isEmpty();
        assertThat(rig.kinds("wait-004")).doesNotContain(EventKinds.AGENT_TURN_ENDED, EventKinds.AGENT_WAITING);
    }

    @Test
    void aFollowUpIsRefusedWhileTheAgentRunsAndForACustomCommandAndNothingMoves() throws Exception {
        rig.create("wait-005", "agent/wait-5", "sleep 60");
        rig.tickUntil("wait-005", SandboxState.RUNNING, TIMEOUT);

        assertThatThrownBy(() -> rig.supervisor.followUps().followUp("wait-005", "and now the tests", "me"))
                .isInstanceOf(SandboxConflictException.class)
                .hasMessageContaining("still at work");
        rig.supervisor.stop("wait-005", "the test");
        assertThatThrownBy(() -> rig.supervisor.followUps().followUp("wait-005", "and now the tests", "me"))
                .isInstanceOf(SandboxException.class)
                .hasMessageContaining("a custom command has no session to resume");
        assertThatThrownBy(() -> rig.supervisor.followUps().followUp("wait-005", "  ", "me"))
                .isInstanceOf(SandboxException.class)
                .hasMessageContaining("The follow-up is empty");

        assertThat(rig.find("wait-005").state()).isEqualTo(SandboxState.AWAITING_HUMAN);
        assertThat(rig.store.turns().followUp("wait-005")).isEmpty();
    }
}
