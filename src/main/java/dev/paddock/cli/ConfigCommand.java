package dev.paddock.cli;

import dev.paddock.api.SettingView;
import dev.paddock.common.PaddockException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code paddock config [list|get|set|reset]}: Paddock's settings (retries, lease, kill grace, reconcile
 * period). Alone, it lists them as {@code config list} does. Asks the running Paddock when there is one,
 * else uses the store directly.
 */
@Command(
        name = "config",
        mixinStandardHelpOptions = true,
        description = "Show and change Paddock's settings (alone: list them).",
        subcommands = {ConfigListCommand.class, ConfigGetCommand.class, ConfigSetCommand.class, ConfigResetCommand.class
        })
public final class ConfigCommand implements Callable<Integer> {
    @ParentCommand
    PaddockCommand root;

    @Spec
    CommandSpec spec;

    @Mixin
    JsonOption json;

    @Override
    public Integer call() throws PaddockException {
        return list(this, spec, json.on());
    }

    /** Prints every setting as a table, or as JSON; returns the exit code (0). */
    static int list(ConfigCommand config, CommandSpec spec, boolean json) throws PaddockException {
        List<SettingView> all = SettingsAccess.run(
                config.root.resolveHome(),
                c -> c.list(),
                s -> s.all().stream().map(SettingView::of).toList());
        PrintWriter out = spec.commandLine().getOut();
        out.print(json ? SandboxText.json(Map.of("settings", all)) + "\n" : SettingsText.table(all));
        out.flush();
        return 0;
    }
}
