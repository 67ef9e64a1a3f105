package dev.paddock.policy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules in force for one repository: the deny, ask and allow lists (merged from every source), what
 * an unmatched request gets, and the directories path rules are anchored to. A broken policy (a file or
 * rule that does not parse) keeps the reason and denies everything until it is fixed: fail-closed.
 *
 * @param rules every rule, each with its list and source
 * @param unmatched what a request no rule matches gets: {@link Verdict#ASK} (default) or {@link Verdict#DENY}
 * @param projectRoot the repository root, for {@code /path} rules; null to use the request's cwd
 * @param home the user's home directory, for {@code ~} in rules and commands
 * @param broken why the policy cannot be used (file, line, column or rule), or null when it is sound
 */
public record Policy(List<PolicyRule> rules, Verdict unmatched, Path projectRoot, Path home, String broken) {
    public Policy {
        rules = List.copyOf(rules);
        if (unmatched == Verdict.ALLOW) {
            throw new IllegalArgumentException("unmatched requests may be asked or denied, never allowed");
        }
    }

    /** A sound policy. */
    public static Policy of(List<PolicyRule> rules, Verdict unmatched, Path projectRoot, Path home) {
        return new Policy(rules, unmatched, projectRoot, home, null);
    }

    /** A policy that denies everything, saying {@code reason}. */
    public static Policy broken(String reason, Path home) {
        return new Policy(List.of(), Verdict.DENY, null, home, reason);
    }

    /** Whether the policy could not be read (and so denies everything). */
    public boolean isBroken() {
        return broken != null;
    }

    /** The rules of one list, in source order. */
    public List<PolicyRule> list(RuleList list) {
        List<PolicyRule> out = new ArrayList<>();
        for (PolicyRule r : rules) {
            if (r.list() == list) {
                out.add(r);
            }
        }
        return out;
    }
}
