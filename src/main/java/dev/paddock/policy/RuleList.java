package dev.paddock.policy;

/**
 * The three rule lists of a policy, in the order they are consulted: a request matching a {@code deny}
 * rule is denied whatever else matches, then {@code ask}, then {@code allow} (the precedence of Claude
 * Code's permission rules, https://code.claude.com/docs/en/permissions).
 */
public enum RuleList {
    DENY(Verdict.DENY),
    ASK(Verdict.ASK),
    ALLOW(Verdict.ALLOW);

    private final Verdict verdict;

    RuleList(Verdict verdict) {
        this.verdict = verdict;
    }

    /** The verdict a rule of this list gives. */
    public Verdict verdict() {
        return verdict;
    }

    /** The JSON key of the list in a settings file: {@code deny}, {@code ask}, {@code allow}. */
    public String key() {
        return verdict.word();
    }
}
