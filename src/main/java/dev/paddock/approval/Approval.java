package dev.paddock.approval;

import java.time.Instant;

/**
 * One request an agent made and its decision, as stored in {@code approvals}. Immutable snapshot for the
 * panel's approval queue and the API. Built by naming its fields ({@link #builder()}, {@link #toBuilder()}).
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
 * @param toolUseId the id of the tool call in Claude Code's session (its hook's {@code tool_use_id}), or null
 * @param requestedAt when it was asked (UTC)
 * @param expiresAt when a pending request is denied by timeout; null for requests the policy decided
 * @param decidedAt when it reached its final state, or null
 */
public record Approval(
        long id,
        String sandboxId,
        Long repositoryId,
        String tool,
        String request,
        String cwd,
        String matchedRule,
        ApprovalState state,
        String decision,
        String decidedBy,
        String decider,
        String reason,
        String sessionId,
        String toolUseId,
        Instant requestedAt,
        Instant expiresAt,
        Instant decidedAt) {

    /** A builder with every field unset (null, zero or false). */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this record's fields, to make a changed copy. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.id = id;
        b.sandboxId = sandboxId;
        b.repositoryId = repositoryId;
        b.tool = tool;
        b.request = request;
        b.cwd = cwd;
        b.matchedRule = matchedRule;
        b.state = state;
        b.decision = decision;
        b.decidedBy = decidedBy;
        b.decider = decider;
        b.reason = reason;
        b.sessionId = sessionId;
        b.toolUseId = toolUseId;
        b.requestedAt = requestedAt;
        b.expiresAt = expiresAt;
        b.decidedAt = decidedAt;
        return b;
    }

    /** Builds a {@link Approval} by naming its fields; unset ones are null, zero or false. */
    public static final class Builder {
        private long id;
        private String sandboxId;
        private Long repositoryId;
        private String tool;
        private String request;
        private String cwd;
        private String matchedRule;
        private ApprovalState state;
        private String decision;
        private String decidedBy;
        private String decider;
        private String reason;
        private String sessionId;
        private String toolUseId;
        private Instant requestedAt;
        private Instant expiresAt;
        private Instant decidedAt;

        private Builder() {}

        public Builder id(long value) {
            this.id = value;
            return this;
        }

        public Builder sandboxId(String value) {
            this.sandboxId = value;
            return this;
        }

        public Builder repositoryId(Long value) {
            this.repositoryId = value;
            return this;
        }

        public Builder tool(String value) {
            this.tool = value;
            return this;
        }

        public Builder request(String value) {
            this.request = value;
            return this;
        }

        public Builder cwd(String value) {
            this.cwd = value;
            return this;
        }

        public Builder matchedRule(String value) {
            this.matchedRule = value;
            return this;
        }

        public Builder state(ApprovalState value) {
            this.state = value;
            return this;
        }

        public Builder decision(String value) {
            this.decision = value;
            return this;
        }

        public Builder decidedBy(String value) {
            this.decidedBy = value;
            return this;
        }

        public Builder decider(String value) {
            this.decider = value;
            return this;
        }

        public Builder reason(String value) {
            this.reason = value;
            return this;
        }

        public Builder sessionId(String value) {
            this.sessionId = value;
            return this;
        }

        public Builder toolUseId(String value) {
            this.toolUseId = value;
            return this;
        }

        public Builder requestedAt(Instant value) {
            this.requestedAt = value;
            return this;
        }

        public Builder expiresAt(Instant value) {
            this.expiresAt = value;
            return this;
        }

        public Builder decidedAt(Instant value) {
            this.decidedAt = value;
            return this;
        }

        public Approval build() {
            return new Approval(
                    id,
                    sandboxId,
                    repositoryId,
                    tool,
                    request,
                    cwd,
                    matchedRule,
                    state,
                    decision,
                    decidedBy,
                    decider,
                    reason,
                    sessionId,
                    toolUseId,
                    requestedAt,
                    expiresAt,
                    decidedAt);
        }
    }

    /** Whether the agent may go ahead: approved (by the policy or a person). */
    public boolean allowed() {
        return "allow".equals(decision);
    }

    /** The word answered to the agent: {@code allow} when approved, else {@code deny} (pending included). */
    public String answer() {
        return allowed() ? "allow" : "deny";
    }
}
