package dev.paddock.agent;

import dev.paddock.approval.Approval;
import java.time.Instant;
import java.util.Locale;

/**
 * What was decided about one tool call of a transcript: its approval ({@link ToolCallApprovals}) told in the words
 * the panel's Transcript tab and {@code paddock sandbox transcript} both use. Immutable.
 *
 * @param verdict what happened to the call
 * @param who the person who approved or denied it, or null (the policy, a timeout, nobody yet)
 * @param rule the policy's rule that decided or asked (e.g. {@code Bash(git push:*)}), or null
 * @param reason the reason stored with it (for a person's denial, only the words they added), or null
 * @param approvalId the approval's id in the store
 * @param requestedAt when the hook asked, or null
 * @param decidedAt when it was decided, or null while undecided
 */
public record ToolCallDecision(
        Verdict verdict,
        String who,
        String rule,
        String reason,
        long approvalId,
        Instant requestedAt,
        Instant decidedAt) {
    /** What happened to a tool call. */
    public enum Verdict {
        /** The policy allowed it. */
        ALLOWED,
        /** The policy asked and a person approved it. */
        APPROVED,
        /** The policy denied it. */
        DENIED,
        /** The policy asked and a person denied it. */
        REJECTED,
        /** The policy asked, nobody answered in time: denied. */
        EXPIRED,
        /** Cancelled before anyone decided (the agent went away, its sandbox stopped). */
        CANCELLED,
        /** The policy asked and a person has not answered yet. */
        WAITING;

        /** The name in JSON, lower case. */
        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** Whether the call was refused (by the policy, a person or a timeout). */
        public boolean refused() {
            return this == DENIED || this == REJECTED || this == EXPIRED;
        }
    }

    /** The decision an approval stands for. */
    public static ToolCallDecision of(Approval a) {
        boolean human = "human".equals(a.decidedBy());
        String who = human ? (a.decider() == null ? "a person" : a.decider()) : null;
        String reason =
                a.reason() == null || a.reason().isBlank() ? null : a.reason().strip();
        Verdict v = switch (a.state()) {
            case APPROVED -> human ? Verdict.APPROVED : Verdict.ALLOWED;
            case DENIED -> human ? Verdict.REJECTED : Verdict.DENIED;
            case EXPIRED -> Verdict.EXPIRED;
            case CANCELLED -> Verdict.CANCELLED;
            case PENDING -> Verdict.WAITING;
        };
        if (v == Verdict.REJECTED) {
            reason = personsReason(reason, "denied by " + who);
        }
        return new ToolCallDecision(v, who, a.matchedRule(), reason, a.id(), a.requestedAt(), a.decidedAt());
    }

    /** "allowed", "asked · approved by ann", "denied", "asked · denied by ann", "asked · no answer: denied", ... */
    public String label() {
        return switch (verdict) {
            case ALLOWED -> "allowed";
            case APPROVED -> "asked · approved by " + who;
            case DENIED -> "denied";
            case REJECTED -> "asked · denied by " + who;
            case EXPIRED -> "asked · no answer: denied";
            case CANCELLED -> "cancelled";
            case WAITING -> "asked · waiting for you";
        };
    }

    /** Whether it can no longer change (every verdict but {@link Verdict#WAITING}). */
    public boolean isFinal() {
        return verdict != Verdict.WAITING;
    }

    /** The words a person added to "denied by ann: ...", or null when they added none. */
    private static String personsReason(String reason, String prefix) {
        if (reason == null || !reason.startsWith(prefix)) {
            return reason;
        }
        String rest =
                reason.substring(prefix.length()).replaceFirst("^:\\s*", "").strip();
        return rest.isEmpty() ? null : rest;
    }
}
