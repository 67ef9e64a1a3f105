package dev.paddock.policy;

import dev.paddock.policy.shell.Snippet;
import dev.paddock.policy.shell.Word;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * {@code sh|bash|zsh|dash|ksh -c BODY}: the body is parsed and judged; a script file or standard input cannot
 * be judged. The shell's own options are checked against {@link LoadingOptions}: {@code -i}, {@code -l},
 * {@code --rcfile}, {@code --init-file} run start-up files (the agent's, if it chose HOME or wrote them),
 * {@code -k} and {@code -a} change what reaches commands' environments, and {@code -o}/{@code -O} options
 * other than the harmless ones of {@link ShellOptions} change how the body is read or run.
 */
final class ShellCommand {
    private static final Set<String> WITH_VALUE = Set.of("-o", "+o", "-O", "+O", "--rcfile", "--init-file");

    private ShellCommand() {}

    static void check(String name, List<Word> args, ArgumentEffects fx, Consumer<String> body) {
        boolean c = false;
        int i = 0;
        while (i < args.size()) {
            Word w = args.get(i);
            String v = w.value();
            if (!w.isStatic()) {
                fx.problem("`" + name + " " + Snippet.of(w.raw()) + "`: a word only known at run time among the"
                        + " shell's options");
                return;
            }
            if (v.equals("--") || v.equals("-")) {
                i++;
                break;
            }
            if (WITH_VALUE.contains(v)) {
                i += 2;
            } else if (v.startsWith("--")) {
                i++;
            } else if ((v.startsWith("-") || v.startsWith("+")) && v.length() > 1) {
                c |= v.startsWith("-") && v.indexOf('c') > 0;
                i++;
            } else {
                break;
            }
        }
        int end = Math.min(i, args.size());
        for (LoadingCheck.Found f : LoadingCheck.scan("bash", args, 0, end).found()) {
            String o = f.option().spelling();
            boolean option = o.equals("-o") || o.equals("-O");
            if (option
                    && f.value() != null
                    && f.value().isStatic()
                    && ShellOptions.harmless(f.value().value())) {
                continue;
            }
            fx.problem("`" + name + " "
                    + Snippet.of(f.word().raw()
                            + (option && f.value() != null ? " " + f.value().raw() : "")) + "`: "
                    + f.option().reason());
        }
        if (c && i < args.size()) {
            Word b = args.get(i);
            if (b.expands()) {
                fx.problem("the command `" + name + " -c` runs is only known at run time");
            }
            body.accept(b.value());
        } else if (c) {
            fx.problem("`" + name + " -c` without a command");
        } else if (i < args.size()) {
            fx.problem("`" + name + "` runs the commands of the file `"
                    + Snippet.of(args.get(i).raw()) + "`");
        } else {
            fx.problem("`" + name + "` runs commands read from its standard input");
        }
    }
}
