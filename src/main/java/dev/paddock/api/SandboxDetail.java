package dev.paddock.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.common.Json;
import dev.paddock.events.Event;
import java.io.IOException;
import java.time.Instant;
import java.util.List;

/**
 * {@code GET /v1/sandboxes/{id}}: the sandbox and its history (every event recorded about it, oldest first:
 * its creation steps and state changes).
 */
public record SandboxDetail(SandboxView sandbox, List<HistoryEvent> history) {

    /**
     * One event of a sandbox's history.
     *
     * @param kind dotted kind, e.g. {@code sandbox.running}
     * @param details the event's machine-readable facts (a JSON object), or null
     */
    public record HistoryEvent(long id, Instant at, String kind, String message, JsonNode details) {

        static HistoryEvent of(Event e) {
            JsonNode details = null;
            if (e.details() != null) {
                try {
                    details = Json.mapper().readTree(e.details());
                } catch (IOException unreadable) {
                    details = Json.mapper().getNodeFactory().textNode(e.details());
                }
            }
            return new HistoryEvent(e.id(), e.at(), e.kind(), e.message(), details);
        }
    }
}
