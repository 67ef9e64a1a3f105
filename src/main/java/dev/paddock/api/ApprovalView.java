package dev.paddock.api;

import dev.paddock.approval.Approval;
import java.time.Instant;

/**
 * An approval request as the API shows it ({@code GET /v1/approvals}, the approve and deny routes).
 *
 * @param state {@code pending}, {@code approved}, {@code denied}, {@code expired} or {@code cancelled}
 * @param decision {@code allow}, {@code deny}, or null while pending / when cancelled
 * @param decidedBy {@code policy}, {@code human}, {@code timeout} or null
 * @param toolUseId the id of the tool call in the agent's session (Claude Code's {@code tool_use_id}), or null
 */
public record ApprovalView(
        long id,
        String sandboxId,
        String tool,
        String request,
        String cwd,
        String matchedRule,
        String state,
        String decision,
        String decidedBy,
        String decider,
        String reason,
        String sessionId,
        String toolUseId,
        Instant requestedAt,
        Instant expiresAt,
        Instant decidedAt) {
    static ApprovalView of(Approval a) {
        return new ApprovalView(
                a.id(),
                a.sandboxId(),
                a.tool(),
                a.request(),
                a.cwd(),
                a.matchedRule(),
                a.state().id(),
                a.decision(),
                a.decidedBy(),
                a.decider(),
                a.reason(),
                a.sessionId(),
                a.toolUseId(),
                a.requestedAt(),
                a.expiresAt(),
                a.decidedAt());
    }
}
