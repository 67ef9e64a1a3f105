package dev.paddock.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code paddock policy check}: the command policy, from the command line (no running Paddock needed). */
@Command(
        name = "policy",
        mixinStandardHelpOptions = true,
        description = "Check what the command policy decides for a request.",
        subcommands = {PolicyCheckCommand.class})
public final class PolicyCommand implements Runnable {
    @ParentCommand
    PaddockCommand root;

    @Spec
    CommandSpec spec;

    /** {@code paddock policy} alone is a usage error: it needs a subcommand. */
    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing a command: check.");
    }
}
