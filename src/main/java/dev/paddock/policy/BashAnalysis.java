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
 * @param carriers the whole words of commands whose program may run some of its arguments as a command, as far
 *     as the analysis knows ({@code flock f rm -rf x}, {@code foo --then git push}): every suffix starting at a
 *     word that a deny or ask rule names is judged by those rules, and one they match makes the command asked
 * @param embedded commands found in argument strings of such programs ({@code foo -c 'rm -rf x'}): judged by deny
 *     and ask rules, a match making the command asked
 */
public record BashAnalysis(
        List<Invocation> invocations,
        List<PathAccess> accesses,
        List<String> problems,
        List<PathAccess> arguments,
        List<Invocation> carriers,
        List<Invocation> embedded) {
    public BashAnalysis {
        invocations = List.copyOf(invocations);
        accesses = List.copyOf(accesses);
        problems = List.copyOf(problems);
        arguments = List.copyOf(arguments);
        carriers = List.copyOf(carriers);
        embedded = List.copyOf(embedded);
    }

    /** An analysis without carriers or embedded commands. */
    public BashAnalysis(
            List<Invocation> invocations,
            List<PathAccess> accesses,
            List<String> problems,
            List<PathAccess> arguments) {
        this(invocations, accesses, problems, arguments, List.of(), List.of());
    }
}
