package dev.paddock.approval;

import dev.paddock.policy.Decision;
import dev.paddock.policy.Policy;
import dev.paddock.policy.PolicyEngine;
import dev.paddock.policy.PolicyRule;
import dev.paddock.policy.RuleList;
import dev.paddock.policy.RuleParser;
import dev.paddock.policy.RuleSyntaxException;
import dev.paddock.policy.ToolRequest;
import dev.paddock.policy.Verdict;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What "approve and always allow" changes in the policy files, worked out before any file is written: the allow rule
 * for the request ({@link AllowRules}), and the decision the policy would then give the same request. Deny beats ask
 * beats allow, so an allow rule alone does nothing while a deny or ask rule matches the request.
 *
 * <p>An ask rule that reads exactly like the allow rule about to be written, in a file Paddock may edit (the
 * repository's {@code .paddock/policy.json} or the global {@code policy.json}), is dropped: "always allow this rule"
 * is what the person asked for, and the allow rule covers everything that ask rule named. Nothing else is ever
 * dropped or changed: an ask rule broader or other than the allow rule (it would stop asking about more than the
 * person approved), a deny rule, and Paddock's built-in rule (which no file holds) still decide, and the plan is
 * refused naming what decides. A rule can only allow, never exclude, so there is no narrower rewrite of a broader
 * ask rule that keeps asking about the rest. See docs/decisions/0011-approve-and-always-allow.md.
 *
 * @param rule     the allow rule to write to {@code file}
 * @param file     the repository's policy file
 * @param dropped  the ask rules to remove, each with the file it is in
 * @param deciding the rule that decides the request once the plan is written
 */
record AllowPlan(String rule, Path file, List<PolicyRule> dropped, PolicyRule deciding) {

    /**
     * The plan for approval {@code a}.
     *
     * @param engine   the policy in force for the request's sandbox
     * @param file     the repository's policy file (where the allow rule goes)
     * @param editable the policy files Paddock may change (the repository's and the global one)
     * @throws ApprovalException (bad request) when no sensible rule exists for the request, or when, with it, the
     *     policy would still not allow the request; the message names what would decide
     */
    static AllowPlan of(Approval a, PolicyEngine engine, Path projectRoot, Path file, Set<Path> editable)
            throws ApprovalException {
        String rule = AllowRules.forApproval(a, engine, projectRoot);
        PolicyRule allow;
        try {
            allow = new PolicyRule(RuleParser.parse(rule), RuleList.ALLOW, file.toString());
        } catch (RuleSyntaxException e) {
            throw refused("the rule " + rule + " would not parse (" + e.getMessage() + ")");
        }
        ToolRequest request = new ToolRequest(a.tool(), a.request(), Path.of(a.cwd()));
        Policy now = engine.policy();
        List<PolicyRule> rules = new ArrayList<>(now.rules());
        rules.add(allow);
        Decision d = decide(engine, now, rules, request);
        List<PolicyRule> dropped = new ArrayList<>();
        if (d.verdict() == Verdict.ASK
                && d.rule() != null
                && d.list() == RuleList.ASK
                && d.rule().text().equals(rule)
                && editable.contains(Path.of(d.source()))) {
            for (PolicyRule r : List.copyOf(rules)) {
                if (r.list() == RuleList.ASK && r.text().equals(rule) && editable.contains(Path.of(r.source()))) {
                    rules.remove(r);
                    dropped.add(r);
                }
            }
            d = decide(engine, now, rules, request);
        }
        if (!d.isAllowed()) {
            throw refused(why(d, rule));
        }
        return new AllowPlan(rule, file, List.copyOf(dropped), d.rule());
    }

    private static Decision decide(PolicyEngine engine, Policy now, List<PolicyRule> rules, ToolRequest request) {
        Policy with = now.isBroken() ? now : Policy.of(rules, now.unmatched(), now.projectRoot(), now.home());
        return engine.withPolicy(with).decide(request);
    }

    /** Why the request would not be allowed with {@code rule}: what decides, for the person. */
    private static String why(Decision d, String rule) {
        String verdict = d.verdict() == Verdict.DENY ? "deny" : "ask about";
        if (d.rule() == null) {
            return "even with " + rule + " the policy would still " + verdict + " this request: " + d.reason()
                    + ". No allow rule can change that";
        }
        if (d.list() == RuleList.ASK) {
            return "the " + d.rule().describe() + " would still ask about this request (ask rules win over allow"
                    + " rules), and it covers more than " + rule + ": dropping it would stop asking about all of it."
                    + " Narrow that rule in the policy editor (Ctrl+P) if that is what you want";
        }
        return "the " + d.rule().describe() + " would still " + verdict + " this request ("
                + d.list().key() + " rules win over allow rules)";
    }

    private static ApprovalException refused(String why) {
        return new ApprovalException(
                ApprovalException.Kind.BAD_REQUEST,
                "No allow rule written: " + why + ". Approve or deny it once instead.");
    }
}
