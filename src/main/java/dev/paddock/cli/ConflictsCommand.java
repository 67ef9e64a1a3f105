package dev.paddock.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code paddock conflicts classify}: merge conflicts, from the command line (no running Paddock needed). */
@Command(
        name = "conflicts",
        mixinStandardHelpOptions = true,
        description = "Inspect the conflicts a merge would have.",
        subcommands = {ConflictsClassifyCommand.class})
public final class ConflictsCommand implements Runnable {
    @ParentCommand
    PaddockCommand root;

    @Spec
    CommandSpec spec;

    /** {@code paddock conflicts} alone is a usage error: it needs a subcommand. */
    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing a command: classify.");
    }
}
