package dev.paddock.checkpoint;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.common.Json;
import dev.paddock.common.PaddockException;
import dev.paddock.events.Event;
import dev.paddock.events.EventBus;
import dev.paddock.events.EventKinds;
import dev.paddock.sandbox.SandboxState;
import java.io.IOException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What takes or forgets checkpoints: an agent's turn ending ({@link EventKinds#AGENT_TURN_ENDED}, with its turn), a
 * run ending by itself (told by the supervisor before the sandbox leaves {@code running}, so the checkpoint is written
 * before anyone sees the end; none when the turn's end took one already), and a sandbox closing (its checkpoints are
 * forgotten).
 */
final class CheckpointTriggers {
    private static final Logger LOG = LoggerFactory.getLogger(CheckpointTriggers.class);
    private static final String CLOSED = "sandbox." + SandboxState.CLOSED.id();

    private CheckpointTriggers() {}

    /**
     * A run that ended by itself (told by the supervisor, on its thread, before the sandbox leaves {@code running}):
     * a checkpoint when its files changed. An agent without turns of its own, such as a custom command, ends its one
     * turn there. Never throws.
     */
    static void runEnded(String sandboxId, CheckpointService checkpoints) {
        try {
            checkpoints.checkpointIfChanged(sandboxId, CheckpointService.RUN_ENDED, null, "Paddock");
        } catch (PaddockException | RuntimeException ex) {
            LOG.warn("Checkpoint of {} at the end of its run: {}", sandboxId, ex.getMessage());
        }
    }

    static EventBus.Subscription subscribe(EventBus bus, CheckpointService checkpoints) {
        return bus.subscribe(List.of(EventKinds.AGENT_TURN_ENDED, CLOSED), e -> on(e, checkpoints));
    }

    private static void on(Event e, CheckpointService checkpoints) {
        if (e.sandboxId() == null) {
            return;
        }
        try {
            if (e.kind().equals(CLOSED)) {
                checkpoints.forget(e.sandboxId());
            } else if (e.kind().equals(EventKinds.AGENT_TURN_ENDED)) {
                checkpoints.checkpointIfChanged(e.sandboxId(), CheckpointService.TURN_ENDED, turnOf(e), "Paddock");
            }
        } catch (PaddockException ex) {
            LOG.warn("Checkpoint of {} after {}: {}", e.sandboxId(), e.kind(), ex.getMessage());
        }
    }

    /**
     * The turn an {@link EventKinds#AGENT_TURN_ENDED} event ended: its {@code run} (the sandbox's run it came from, as
     * {@code AgentTurns} writes it; a headless agent has one turn per run, a follow-up starts the next), or null.
     */
    private static Integer turnOf(Event e) {
        if (e.details() == null) {
            return null;
        }
        try {
            JsonNode turn = Json.mapper().readTree(e.details()).path("run");
            return turn.canConvertToInt() ? turn.asInt() : null;
        } catch (IOException ex) {
            return null;
        }
    }
}
