package dev.paddock.agent;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.common.Json;
import java.util.Optional;

/**
 * What Claude Code's {@code Stop} or {@code Notification} hook tells Paddock (checked against 2.1.332; every hook
 * input also carries {@code session_id}, {@code transcript_path}, {@code cwd} and mostly {@code prompt_id},
 * {@code permission_mode}):
 * <ul>
 * <li>{@code Stop}: {@code {"hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"Done.",
 *     "background_tasks":[],"session_crons":[],"effort":{"level":"medium"},...}} at the end of every turn,
 *     headless or not: the agent waits for a follow-up.</li>
 * <li>{@code Notification}: {@code {"hook_event_name":"Notification","message":"Claude is waiting for your input",
 *     "notification_type":"idle_prompt",...}}. Seen only in an interactive session (after about 60 s idle); the
 *     CLI also sends {@code permission_prompt} when it shows a permission dialog. With {@code -p} no dialog is
 *     shown (a call its rules would ask about is refused), so Paddock's headless agents do not send it.</li>
 * </ul>
 *
 * @param kind what happened
 * @param sessionId Claude Code's session id, or null
 * @param detail the last assistant message (stop) or the notification's message; may be empty
 * @param notificationType {@code idle_prompt}, {@code permission_prompt}, ... for a notification; null otherwise
 */
public record TurnSignal(Kind kind, String sessionId, String detail, String notificationType) {
    /** What the hook tells. */
    public enum Kind {
        /** The turn ended: the agent waits for a follow-up. */
        TURN_ENDED,
        /** The agent waits for a person (a permission dialog, or idle at its prompt). */
        WAITING
    }

    /** The signal in a hook input, or empty when it is not JSON or not a Stop / Notification event. */
    public static Optional<TurnSignal> parse(String payload) {
        JsonNode n;
        try {
            n = payload == null ? null : Json.mapper().readTree(payload);
        } catch (JsonProcessingException e) {
            return Optional.empty();
        }
        if (n == null || !n.isObject()) {
            return Optional.empty();
        }
        String session = n.path("session_id").isTextual() ? n.path("session_id").asText() : null;
        return switch (n.path("hook_event_name").asText()) {
            case "Stop" ->
                Optional.of(new TurnSignal(
                        Kind.TURN_ENDED,
                        session,
                        TranscriptEntry.cut(n.path("last_assistant_message").asText("")),
                        null));
            case "Notification" ->
                Optional.of(new TurnSignal(
                        Kind.WAITING,
                        session,
                        TranscriptEntry.cut(n.path("message").asText("")),
                        n.path("notification_type").isTextual()
                                ? n.path("notification_type").asText()
                                : null));
            default -> Optional.empty();
        };
    }
}
