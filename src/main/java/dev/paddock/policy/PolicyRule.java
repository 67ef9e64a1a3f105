package dev.paddock.policy;

/**
 * A rule as it stands in a policy: the parsed rule, the list it is in, and where it came from.
 *
 * @param rule the parsed rule
 * @param list deny, ask or allow
 * @param source the file it was read from (or another description, such as "--policy"); never null
 */
public record PolicyRule(Rule rule, RuleList list, String source) {
    /** The rule as written, e.g. {@code Bash(git push:*)}. */
    public String text() {
        return rule.text();
    }

    /** For messages: {@code deny rule Bash(git push:*) from /home/ann/.paddock/policy.json}. */
    public String describe() {
        return list.key() + " rule " + rule.text() + " from " + source;
    }
}
