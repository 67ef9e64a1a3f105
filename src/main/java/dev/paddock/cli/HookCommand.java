package dev.paddock.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code paddock hook claude|install}: the Claude Code hook adapter and its installer. */
@Command(
        name = "hook",
        mixinStandardHelpOptions = true,
        description = "The Claude Code PreToolUse hook: answer one call, or install the hook in a repository.",
        subcommands = {HookClaudeCommand.class, HookInstallCommand.class})
public final class HookCommand implements Runnable {
    @ParentCommand
    PaddockCommand root;

    @Spec
    CommandSpec spec;

    /** {@code paddock hook} alone is a usage error: it needs a subcommand. */
    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing a command: claude or install.");
    }
}
