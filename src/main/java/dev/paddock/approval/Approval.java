package dev.paddock.approval;

import java.time.Instant;

/**
 * One request an agent made and its decision, as stored in {@code approvals}. Immutable snapshot for the
 * panel's approval queue and the API.
 *
 * @param id store id
 * @param sandboxId the sandbox whose agent asked
 * @param repositoryId that sandbox's repository
 * @param tool Claude Code's tool name ({@code Bash}, {@code Edit}, ...)
 * @param request what the policy judged: the command line, the file path, the URL, or "" for other tools
 * @param cwd the agent's working directory
 * @param matchedRule the rule that decided (e.g. {@code Bash(git push:*)}), or null when none did
 * @param state pending or a final state
 * @param decision {@code allow} or {@code deny}; null while pending and for cancelled requests
 * @param decidedBy {@code policy}, {@code human} or {@code timeout}; null while pending or cancelled
 * @param decider who decided (a person's name), or null
 * @param reason why, one sentence for people (also sent to the agent)
 * @param sessionId the Claude Code session that asked, or null
 * @param requestedAt when it was asked (UTC)
 * @param expiresAt when a pending request is denied by timeout; null for requests the policy decided
 * @param decidedAt when it reached its final state, or null
 */
public record Approval(long id, String sandboxId, Long repositoryId, String tool, String request, String cwd,
                       String matchedRule, ApprovalState state, String decision, String decidedBy, String decider,
                       String reason, String sessionId, Instant requestedAt, Instant expiresAt, Instant decidedAt) {

    /** Whether the agent may go ahead: approved (by the policy or a person). */
    public boolean allowed() {
        return "allow".equals(decision);
    }

    /** The word answered to the agent: {@code allow} when approved, else {@code deny} (pending included). */
    public String answer() {
        return allowed() ? "allow" : "deny";
    }
}
