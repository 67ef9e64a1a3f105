package dev.paddock.cli;

import dev.paddock.api.SettingView;
import dev.paddock.common.PaddockException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code paddock config set NAME VALUE}: changes a setting (recorded as an event). A value the setting does
 * not take, or an unknown name, changes nothing and exits with 1 saying what is allowed.
 */
@Command(name = "set", mixinStandardHelpOptions = true, description = "Change a setting.")
public final class ConfigSetCommand implements Callable<Integer> {
    @ParentCommand
    ConfigCommand parent;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "NAME", description = "The setting, e.g. sandbox.maxRetries.")
    String name;

    @Parameters(index = "1", paramLabel = "VALUE", description = "The new value, e.g. 5.")
    String value;

    @Override
    public Integer call() throws PaddockException {
        String who = RunningPaddock.who();
        SettingView s = SettingsAccess.run(
                parent.root.resolveHome(),
                c -> c.set(name, value, who),
                store -> SettingView.of(store.set(name, value, who)));
        spec.commandLine()
                .getOut()
                .println(s.name() + " is now " + SettingsText.withUnit(s.value(), s) + " (default "
                        + SettingsText.withUnit(s.defaultValue(), s) + ").");
        spec.commandLine().getOut().flush();
        return 0;
    }
}
