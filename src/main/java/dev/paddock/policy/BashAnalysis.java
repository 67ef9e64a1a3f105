package dev.paddock.policy;

import java.util.List;

/**
 * Everything a Bash command line would do that the policy judges.
 *
 * @param invocations the programs it runs
 * @param accesses the files it reads or writes through redirections and the like
 * @param problems what cannot be known without running it (each keeps the whole command from being
 *     allowed automatically)
 */
public record BashAnalysis(List<Invocation> invocations, List<PathAccess> accesses, List<String> problems) {
    public BashAnalysis {
        invocations = List.copyOf(invocations);
        accesses = List.copyOf(accesses);
        problems = List.copyOf(problems);
    }
}
