package dev.paddock.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.common.Json;
import dev.paddock.common.PrivateFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * {@code instance.json} in the Paddock home: which process runs the API and on which loopback port,
 * so CLI commands can find the running panel or server. Written atomically; removed on shutdown;
 * ignored when its process is gone (a crash leaves it behind).
 *
 * @param pid process id of the panel or server
 * @param port loopback TCP port of its API
 * @param mode {@code panel} or {@code serve}
 */
public record InstanceFile(long pid, int port, String mode, Instant startedAt) {

    /** Writes the file atomically, readable by its owner alone (mode 600). */
    public void write(Path file) throws IOException {
        PrivateFiles.writeString(file, Json.mapper().writeValueAsString(this));
    }

    /** Deletes the file if it still names this process. */
    public void deleteIfOurs(Path file) {
        read(file).filter(i -> i.pid() == pid).ifPresent(i -> {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // best effort: a stale file is ignored by readers anyway
            }
        });
    }

    /** Reads the file; empty when missing or unreadable. */
    public static Optional<InstanceFile> read(Path file) {
        try {
            if (!Files.exists(file)) {
                return Optional.empty();
            }
            JsonNode n = Json.mapper().readTree(file.toFile());
            return Optional.of(new InstanceFile(
                    n.path("pid").asLong(),
                    n.path("port").asInt(),
                    n.path("mode").asText(),
                    n.hasNonNull("startedAt") ? Instant.parse(n.get("startedAt").asText()) : null));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * Reads the file and keeps it only when its process is alive and is the one that wrote it: a
     * crashed Paddock leaves the file behind, and its pid may since belong to another program, which
     * then started after the file was written.
     */
    public static Optional<InstanceFile> live(Path file) {
        return read(file)
                .filter(i -> ProcessHandle.of(i.pid())
                        .filter(ProcessHandle::isAlive)
                        .map(p -> startedBefore(p, i.startedAt()))
                        .orElse(false));
    }

    private static boolean startedBefore(ProcessHandle p, Instant written) {
        Optional<Instant> start = p.info().startInstant();
        // Clock tick granularity and rounding: allow a little slack.
        return written == null || start.isEmpty() || !start.get().isAfter(written.plusSeconds(2));
    }
}
