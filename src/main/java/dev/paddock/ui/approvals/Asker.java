package dev.paddock.ui.approvals;

/**
 * Who asks, beside a request's sandbox id, so that the requests of a fan-out's sandboxes (one task, the same command)
 * can be told apart: the sandbox's place in its fan-out ({@code claude-2}, the end of its id), its agent and its
 * branch.
 *
 * @param member the end of the id that tells a fan-out's sandboxes apart ({@code claude-2}), or null for a sandbox on
 *     its own
 * @param agent  the agent ({@code claude}, {@code codex}, {@code custom}), or null
 * @param branch the sandbox's branch, or null
 */
public record Asker(String member, String agent, String branch) {
    /** "claude · agent/fix-login-claude-2", the parts known. */
    String detail() {
        String a = agent == null || agent.isBlank() ? null : agent;
        String b = branch == null || branch.isBlank() ? null : branch;
        return a == null ? b : b == null ? a : a + " · " + b;
    }
}
