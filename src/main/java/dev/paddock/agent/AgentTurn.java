package dev.paddock.agent;

import java.util.List;
import java.util.Objects;

/**
 * What one headless run of an agent is asked: the text (the task for the first run, a follow-up prompt after),
 * the session it belongs to, the model, and the repository's extra flags.
 *
 * @param text the task or follow-up; passed as one argument after {@code --} where the agent takes that, so a text
 *     that starts with {@code -} is never read as an option
 * @param sessionId the agent's session id: chosen by Paddock for agents that take one at start (Claude Code, Gemini
 *     CLI), learnt from the agent's own output for the others (Codex's {@code thread_id}); null when none is known
 * @param model the model to ask for, or null for the agent's default
 * @param flags extra arguments for the agent, set for its repository ({@link AgentFlags}: checked before they are
 *     stored), placed after Paddock's own options and before the text; empty for none
 */
public record AgentTurn(String text, String sessionId, String model, List<String> flags) {
    public AgentTurn {
        Objects.requireNonNull(text, "text");
        if (model != null && model.isBlank()) {
            model = null;
        }
        if (sessionId != null && sessionId.isBlank()) {
            sessionId = null;
        }
        flags = flags == null ? List.of() : List.copyOf(flags);
    }

    /** A turn without extra flags. */
    public AgentTurn(String text, String sessionId, String model) {
        this(text, sessionId, model, List.of());
    }
}
