package dev.paddock.policy;

/**
 * The policy's answer to one request.
 *
 * @param verdict allow, ask or deny
 * @param reason a sentence for the human (shown in the approval queue, the CLI and the hook's answer)
 * @param rule the rule that decided, or null when none did (unmatched request, unresolvable command,
 *     broken policy)
 */
public record Decision(Verdict verdict, String reason, PolicyRule rule) {
    /** The list of the deciding rule, or null when no rule decided. */
    public RuleList list() {
        return rule == null ? null : rule.list();
    }

    /** Where the deciding rule came from (a file path), or null when no rule decided. */
    public String source() {
        return rule == null ? null : rule.source();
    }

    /** Whether the request may run without asking anyone. */
    public boolean isAllowed() {
        return verdict == Verdict.ALLOW;
    }
}
