package dev.paddock.policy;

import java.util.List;

/**
 * The three rule lists of a policy, in the order they are consulted: a request matching a {@code deny}
 * rule is denied whatever else matches, then {@code ask}, then {@code allow} (the precedence of Claude
 * Code's permission rules, https://code.claude.com/docs/en/permissions).
 */
public enum RuleList {
    DENY(Verdict.DENY),
    ASK(Verdict.ASK),
    ALLOW(Verdict.ALLOW);

    /** The lists in the order they are consulted. */
    static final List<RuleList> ALL = List.of(values());
    /** The lists whose rules may keep a request from running: deny, then ask. */
    static final List<RuleList> STRICT = List.of(DENY, ASK);

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
