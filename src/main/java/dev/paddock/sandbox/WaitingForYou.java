package dev.paddock.sandbox;

import java.time.Instant;

/**
 * A sandbox whose agent waits for a person: its turn ended (it takes a follow-up, {@code paddock sandbox say}) or it
 * asked for attention. Stored beside the sandbox ({@link AgentTurns}), shown as "waiting for you"; gone once a
 * follow-up or a retry starts, the merge queue takes it, or it is removed. See
 * docs/decisions/0016-waiting-for-you.md.
 *
 * @param sandboxId the sandbox
 * @param kind why it waits
 * @param run the run (its {@link SandboxRecord#iteration()}) whose agent said so
 * @param since when Paddock heard of it
 * @param sessionId the agent's session id, or null
 * @param detail the agent's last message, cut to {@value AgentTurns#DETAIL_MAX} characters; may be empty
 * @param notificationType a notification's type, or null
 */
public record WaitingForYou(
        String sandboxId,
        AgentSignal.Kind kind,
        int run,
        Instant since,
        String sessionId,
        String detail,
        String notificationType) {

    /** One line for people: "its turn ended" or "it asks for you (…)". */
    public String describe() {
        if (kind == AgentSignal.Kind.TURN_ENDED) {
            return "its turn ended; send a follow-up, or merge or remove it";
        }
        return "it waits for you" + (detail == null || detail.isBlank() ? "" : ": " + detail);
    }
}
