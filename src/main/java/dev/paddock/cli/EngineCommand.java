package dev.paddock.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code paddock engine add|list|remove}: the Docker engines container sandboxes may run on, kept in the home's
 * {@code engines.json} (see docs/decisions/0029-several-docker-engines.md). Works without a running Paddock: the
 * registry is a file, and {@code list} asks each engine itself.
 */
@Command(
        name = "engine",
        mixinStandardHelpOptions = true,
        description = "Register, list and remove the Docker engines container sandboxes run on (besides local, the"
                + " docker CLI's choice).",
        subcommands = {EngineAddCommand.class, EngineListCommand.class, EngineRemoveCommand.class})
public final class EngineCommand implements Runnable {
    @ParentCommand
    PaddockCommand root;

    @Spec
    CommandSpec spec;

    /** {@code paddock engine} alone is a usage error: it needs a subcommand. */
    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing a command: add, list or remove.");
    }
}
