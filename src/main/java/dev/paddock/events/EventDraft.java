package dev.paddock.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.paddock.common.Json;
import java.util.Map;

/**
 * An event about to be appended: everything but its id and time.
 *
 * @param details JSON object text, or null
 */
public record EventDraft(Long repositoryId, String sandboxId, String kind, String message, String details) {

    /** Builds a draft whose details are the given map written as a JSON object. */
    public static EventDraft of(
            Long repositoryId, String sandboxId, String kind, String message, Map<String, ?> details) {
        try {
            String json =
                    details == null || details.isEmpty() ? null : Json.mapper().writeValueAsString(details);
            return new EventDraft(repositoryId, sandboxId, kind, message, json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("Event details are not serialisable: " + details, e);
        }
    }
}
