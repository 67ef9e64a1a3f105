package dev.paddock.cli;

import dev.paddock.common.PaddockException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code paddock config list}: every setting with its value, default and meaning. */
@Command(
        name = "list",
        mixinStandardHelpOptions = true,
        description = "List the settings: NAME VALUE DEFAULT" + " DESCRIPTION.")
public final class ConfigListCommand implements Callable<Integer> {
    @ParentCommand
    ConfigCommand parent;

    @Spec
    CommandSpec spec;

    @Mixin
    JsonOption json;

    @Override
    public Integer call() throws PaddockException {
        return ConfigCommand.list(parent, spec, json.on());
    }
}
