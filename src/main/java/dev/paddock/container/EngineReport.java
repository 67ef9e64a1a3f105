package dev.paddock.container;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * One engine's health and load, asked now: whether it answers, its version, and (when it does) its
 * {@link EngineLoad}.
 *
 * @param entry the engine
 * @param status whether it answered
 * @param load its CPUs, memory and what Paddock's running containers hold there, or null when it did not answer
 */
public record EngineReport(EngineEntry entry, EngineStatus status, EngineLoad load) {

    /** Connects to {@code entry}, checks it and reads its load; never throws (an engine away is a status). */
    public static EngineReport of(EngineEntry entry, Clock clock) {
        try (DockerEngine engine = new DockerEngine(clock, entry.endpoint())) {
            return of(entry, engine);
        }
    }

    /** Checks {@code engine} (the connection to {@code entry}) and reads its load. */
    public static EngineReport of(EngineEntry entry, DockerEngine engine) {
        EngineStatus s = engine.check();
        if (!s.reachable()) {
            return new EngineReport(entry, s, null);
        }
        try {
            return new EngineReport(entry, s, EngineLoad.of(engine));
        } catch (ContainerException e) {
            return new EngineReport(
                    entry,
                    new EngineStatus(false, s.endpoint(), null, e.getMessage(), s.checkedAt(), s.source()),
                    null);
        }
    }

    /** Every engine of {@code entries}, asked at once (one that does not answer costs its connect timeout). */
    public static List<EngineReport> all(List<EngineEntry> entries, Clock clock) {
        List<CompletableFuture<EngineReport>> asked = entries.stream()
                .map(e -> CompletableFuture.supplyAsync(() -> of(e, clock)))
                .toList();
        return asked.stream().map(CompletableFuture::join).toList();
    }

    /** Whether it answered. */
    public boolean healthy() {
        return status.reachable() && load != null;
    }

    /** "build: up, Docker 27.1, 8 CPUs, 5.0 free; ...", one line for the panel. */
    public String line() {
        return entry.name() + ": "
                + (healthy()
                        ? "up, Docker " + load.version() + ", " + load.summary()
                        : "DOWN (" + status.error() + ")");
    }

    /** As JSON fields ({@code paddock engine list --json}). */
    public Map<String, Object> fields() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", entry.name());
        m.put("where", entry.where());
        m.put("endpoint", status.endpoint());
        m.put("remote", entry.isRemote());
        m.put("labels", entry.labels());
        m.put("healthy", healthy());
        m.put("error", healthy() ? null : status.error());
        if (load != null) {
            m.putAll(load.fields());
        }
        return m;
    }
}
