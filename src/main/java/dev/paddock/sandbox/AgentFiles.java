package dev.paddock.sandbox;

import dev.paddock.common.PaddockException;
import dev.paddock.isolation.RunExit;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a sandbox's agent tells the supervisor through files and its exit: heartbeats from its heartbeat file (an
 * agent without network), its turn hook's turn file ("waiting for you"), the session id an agent picks itself
 * (read from its log when the run ends), and the turn's end that a one-turn agent's good exit is.
 */
final class AgentFiles {
    private static final Logger LOG = LoggerFactory.getLogger(AgentFiles.class);

    private final SandboxStore store;
    private final AgentLauncher launcher;
    private final HeartbeatFile heartbeatFiles = new HeartbeatFile();
    private final TurnFile turnFiles = new TurnFile();

    AgentFiles(SandboxStore store, AgentLauncher launcher) {
        this.store = store;
        this.launcher = launcher;
    }

    /**
     * A heartbeat file whose content changed since the last one taken is a heartbeat ({@link HeartbeatFile}).
     *
     * @return whether one was recorded
     */
    boolean heartbeat(SandboxRecord s, SandboxLayout layout) throws PaddockException {
        try {
            Optional<HeartbeatFile.Beat> beat = heartbeatFiles.poll(s, layout.heartbeatFile());
            if (beat.isEmpty()) {
                return false;
            }
            boolean recorded = store.heartbeat(s.id(), beat.get().progress());
            heartbeatFiles.taken(beat.get());
            return recorded;
        } catch (IOException e) {
            LOG.debug("Heartbeat file of {}: {}", s.id(), e.getMessage());
            return false;
        }
    }

    /**
     * Takes what the agent's turn hook wrote into its turn file: the sandbox is then waiting for you (the same signal
     * sent to the API too counts once).
     *
     * @return whether it was recorded now
     */
    boolean turn(SandboxRecord s, SandboxLayout layout) throws PaddockException {
        return turnFiles.take(s, layout.turnFile(), launcher, store.turns());
    }

    /**
     * The run ended: the agent's last heartbeat and turn signal count too (`paddock heartbeat done; exit 0` ends
     * within one tick; a turn hook writes just before the agent exits), then the session an agent picked itself
     * (Codex's thread) is stored, and a good exit of a one-turn agent is its turn's end.
     */
    void atExit(SandboxRecord s, SandboxLayout layout, RunExit exit, Path log) throws PaddockException {
        heartbeat(s, layout);
        heartbeatFiles.forget(s.id());
        turn(s, layout);
        turnFiles.forget(s.id());
        Optional<String> own = s.run().agentSession() == null ? launcher.sessionOf(s, log) : Optional.empty();
        if (own.isPresent()) {
            store.recordAgentSession(s.id(), own.get());
        }
        turnFiles.takeExit(store.find(s.id()).orElse(s), exit.code(), launcher, store.turns());
    }
}
