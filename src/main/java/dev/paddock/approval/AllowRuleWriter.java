package dev.paddock.approval;

import dev.paddock.approval.ApprovalException.Kind;
import dev.paddock.common.PaddockException;
import dev.paddock.policy.Decision;
import dev.paddock.policy.PolicyFile;
import dev.paddock.policy.PolicyRule;
import dev.paddock.policy.ToolRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Writes the allow rule of {@link ApprovalBroker#approveAndAllow}: the rule {@link AllowPlan} finds for an
 * approval, then the removal of the ask rules that read exactly like it, then a check that the policy as it now is
 * allows the request.
 */
final class AllowRuleWriter {
    /**
     * What was written.
     *
     * @param deciding the rule that now decides such a request
     * @param droppedAsks the ask rules removed (each with its file)
     */
    record Written(String rule, Path file, String deciding, List<String> droppedAsks) {}

    private final PolicyCache policies;
    private final Path paddockHome;

    AllowRuleWriter(PolicyCache policies, Path paddockHome) {
        this.policies = policies;
        this.paddockHome = paddockHome;
    }

    /**
     * Writes the allow rule for {@code a} to {@code repository}'s policy file.
     *
     * @param root the project root the policy judges paths against (the sandbox's worktree)
     * @throws ApprovalException no sensible rule, the policy would still not allow it, or a policy file does not
     *     parse (nothing changed); the policy still does not allow it after writing (conflict)
     */
    Written write(Approval a, Path repository, Path root) throws PaddockException {
        Path file = PolicyFile.repositoryFile(repository);
        AllowPlan plan = AllowPlan.of(
                a,
                policies.engine(repository, root),
                root,
                file,
                Set.copyOf(PolicyFile.standardFiles(paddockHome, repository)));
        // The allow rule first: until the ask rule goes too, the request is still asked (never allowed by half).
        PolicyFileEditor.addAllow(file, plan.rule());
        List<String> dropped = new ArrayList<>();
        for (PolicyRule ask : plan.dropped()) {
            if (!dropped.contains(ask.describe())) {
                PolicyFileEditor.removeAsk(Path.of(ask.source()), ask.text());
                dropped.add(ask.describe());
            }
        }
        policies.invalidate();
        Decision now =
                policies.engine(repository, root).decide(new ToolRequest(a.tool(), a.request(), Path.of(a.cwd())));
        if (!now.isAllowed()) { // a policy file changed meanwhile
            throw new ApprovalException(
                    Kind.CONFLICT,
                    "The rule " + plan.rule() + " was written to " + file
                            + ", but the policy still does not allow request " + a.id() + " (" + now.reason()
                            + "); it still waits for you.");
        }
        String deciding = now.rule() == null ? plan.rule() : now.rule().describe();
        return new Written(plan.rule(), file, deciding, List.copyOf(dropped));
    }
}
