package dev.paddock.sandbox;

import java.util.Objects;

/**
 * What an agent's turn hook tells Paddock, in this package's terms (Claude Code's {@code Stop} and
 * {@code Notification} hooks are read by {@code dev.paddock.agent.TurnSignal}): its turn ended, or it waits for a
 * person. Either way the sandbox is "waiting for you" ({@link AgentTurns}).
 *
 * @param kind what happened
 * @param sessionId the agent's session id, or null
 * @param detail the agent's last message (turn ended) or the notification's text; may be empty
 * @param notificationType the notification's type ({@code idle_prompt}, {@code permission_prompt}, ...), or null
 */
public record AgentSignal(Kind kind, String sessionId, String detail, String notificationType) {
    /** What the hook tells. */
    public enum Kind {
        /** The agent's turn ended: it waits for a follow-up. */
        TURN_ENDED,
        /** The agent waits for a person (a permission dialog, or idle at its prompt). */
        WAITING;

        /** The stored name: {@code turn_ended}, {@code waiting}. */
        public String id() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        /** Parses a stored name. */
        static Kind of(String id) {
            return valueOf(id.toUpperCase(java.util.Locale.ROOT));
        }
    }

    public AgentSignal {
        Objects.requireNonNull(kind, "kind");
        detail = detail == null ? "" : detail;
    }
}
