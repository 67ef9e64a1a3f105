package dev.paddock.agent;

import java.util.Objects;

/**
 * What one headless run of an agent is asked: the text (the task for the first run, a follow-up prompt after),
 * the session it belongs to, and the model.
 *
 * @param text the task or follow-up; passed as one argument after {@code --} where the agent takes that, so a text
 *     that starts with {@code -} is never read as an option
 * @param sessionId the agent's session id: chosen by Paddock for agents that take one at start (Claude Code, Gemini
 *     CLI), learnt from the agent's own output for the others (Codex's {@code thread_id}); null when none is known
 * @param model the model to ask for, or null for the agent's default
 */
public record AgentTurn(String text, String sessionId, String model) {
    public AgentTurn {
        Objects.requireNonNull(text, "text");
        if (model != null && model.isBlank()) {
            model = null;
        }
        if (sessionId != null && sessionId.isBlank()) {
            sessionId = null;
        }
    }
}
