package dev.paddock.policy.shell;

import java.util.List;

/**
 * What {@link ShellParser} found in a command line: every simple command that would run, in source
 * order, including those inside subshells, groups, control structures and command substitutions (a
 * substitution's commands come before the command that uses its output), and the problems: what could
 * not be read or resolved without running it.
 */
public record ShellScript(List<SimpleCommand> commands, List<String> problems) {
    public ShellScript {
        commands = List.copyOf(commands);
        problems = List.copyOf(problems);
    }
}
