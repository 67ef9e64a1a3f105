package dev.paddock.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.common.Json;
import dev.paddock.events.Event;
import java.io.IOException;
import java.time.Instant;
import java.util.List;

/**
 * {@code GET /v1/sandboxes/{id}}: the sandbox and its history (every event recorded about it, oldest first:
 * its creation steps and state changes), whether it is waiting for you, and the follow-up prompt it was last sent.
 *
 * @param waiting set while its agent's turn ended or it asks for attention ("waiting for you"), else null
 * @param followUp the follow-up prompt its agent was last resumed with (or is about to be), else null
 */
public record SandboxDetail(SandboxView sandbox, List<HistoryEvent> history, Waiting waiting, FollowUp followUp) {

    /** Without a wait or a follow-up. */
    public SandboxDetail(SandboxView sandbox, List<HistoryEvent> history) {
        this(sandbox, history, null, null);
    }

    /**
     * Why a sandbox is waiting for you.
     *
     * @param kind {@code turn_ended} (its agent's turn ended: it takes a follow-up) or {@code waiting} (it asks for
     *     attention)
     * @param run the run whose agent said so
     * @param since when Paddock heard of it
     * @param sessionId the agent's session id, or null
     * @param detail the agent's last message or the notification's text (at most 1000 characters)
     * @param notificationType a notification's type, or null
     */
    public record Waiting(
            String kind, int run, Instant since, String sessionId, String detail, String notificationType) {
        static Waiting of(dev.paddock.sandbox.WaitingForYou w) {
            return w == null
                    ? null
                    : new Waiting(w.kind().id(), w.run(), w.since(), w.sessionId(), w.detail(), w.notificationType());
        }
    }

    /** A follow-up prompt and who sent it when. */
    public record FollowUp(String text, String by, Instant at) {
        static FollowUp of(dev.paddock.sandbox.AgentTurns.FollowUp f) {
            return f == null ? null : new FollowUp(f.text(), f.askedBy(), f.askedAt());
        }
    }

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
