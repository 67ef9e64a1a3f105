package dev.paddock.policy;

import java.util.List;

/**
 * Everything a Bash command line would do that the policy judges.
 *
 * @param invocations the programs it runs
 * @param accesses the files it reads or writes through redirections and the like ({@code tee}, {@code time -o},
 *     {@code find -fprint}): judged by every rule list
 * @param problems what cannot be known without running it (each keeps the whole command from being
 *     allowed automatically)
 * @param arguments the files programs read or write through their arguments ({@code cat f}, {@code cp a b},
 *     {@code git show :f}; see {@link PathAccess#argument()}): judged by deny and ask rules only, so they are
 *     what the program's own allow rule allows
 */
public record BashAnalysis(List<Invocation> invocations, List<PathAccess> accesses, List<String> problems,
        List<PathAccess> arguments) {
    public BashAnalysis {
        invocations = List.copyOf(invocations);
        accesses = List.copyOf(accesses);
        problems = List.copyOf(problems);
        arguments = List.copyOf(arguments);
    }
}
