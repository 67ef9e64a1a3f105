package dev.paddock.sandbox;

import dev.paddock.common.PaddockException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A sandbox's turn file ({@link SandboxLayout#turnFile()}), as an agent's turn hook writes it: the hook's whole input,
 * replaced atomically at each turn's end. The supervisor reads it like the heartbeat file, on every tick of a running
 * sandbox and once more when its run ends, for the tiers whose agent cannot reach the API (and as a second channel
 * for the others: {@link AgentTurns} counts the same signal once). What was taken is remembered in memory per run, so
 * an unchanged file costs one read a tick and no store access.
 */
final class TurnFile {
    private static final Logger LOG = LoggerFactory.getLogger(TurnFile.class);
    /** At most this much of a file is read (the hook sends at most 1 MiB). */
    static final int MAX_BYTES = 1024 * 1024;

    private record Taken(int run, String key) {}

    private final Map<String, Taken> taken = new ConcurrentHashMap<>();

    /**
     * The file's content when it changed since it was last taken for this sandbox's run, else empty. Call
     * {@link #taken} once it is handled.
     *
     * @throws IOException when the file exists but cannot be read
     */
    Optional<String> poll(SandboxRecord s, Path file) throws IOException {
        if (!Files.exists(file)) {
            return Optional.empty(); // most agents have no turn hook: no exception a tick for them
        }
        String content;
        try (InputStream in = Files.newInputStream(file)) {
            content = new String(in.readNBytes(MAX_BYTES), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        if (content.isBlank()) {
            return Optional.empty();
        }
        Taken last = taken.get(s.id());
        if (last != null && last.run() == s.run().iteration() && last.key().equals(AgentTurns.key(content))) {
            return Optional.empty();
        }
        return Optional.of(content);
    }

    /**
     * Takes the file's signal, if it changed: records it ({@link AgentTurns#record}, via {@code file}) when it is one.
     *
     * @return whether it was recorded now
     */
    boolean take(SandboxRecord s, Path file, AgentLauncher launcher, AgentTurns turns) throws PaddockException {
        Optional<String> content;
        try {
            content = poll(s, file);
        } catch (IOException e) {
            LOG.debug("Turn file of {}: {}", s.id(), e.getMessage());
            return false;
        }
        if (content.isEmpty()) {
            return false;
        }
        Optional<AgentSignal> signal = launcher.turnSignal(content.get());
        boolean recorded = signal.isPresent()
                && turns.record(s.id(), signal.get(), content.get(), "file") == AgentTurns.Outcome.RECORDED;
        taken(s, content.get());
        return recorded;
    }

    /**
     * Records the turn's end that the agent's exit is ({@link AgentLauncher#exitTurn}), if it is one: for agents that
     * have no turn hook. Keyed by the run, so a run's exit counts once.
     */
    void takeExit(SandboxRecord s, Integer exitCode, AgentLauncher launcher, AgentTurns turns) throws PaddockException {
        Optional<AgentSignal> signal = launcher.exitTurn(s, exitCode);
        if (signal.isPresent()) {
            turns.record(
                    s.id(),
                    signal.get(),
                    "exit " + s.run().iteration() + " " + signal.get().sessionId(),
                    "exit");
        }
    }

    /** Remembers {@code content} as taken for the sandbox's current run. */
    void taken(SandboxRecord s, String content) {
        taken.put(s.id(), new Taken(s.run().iteration(), AgentTurns.key(content)));
    }

    /** Forgets a sandbox. */
    void forget(String sandboxId) {
        taken.remove(sandboxId);
    }
}
