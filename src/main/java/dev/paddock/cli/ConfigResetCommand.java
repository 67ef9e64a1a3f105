package dev.paddock.cli;

import dev.paddock.api.SettingView;
import dev.paddock.common.PaddockException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code paddock config reset NAME}: puts a setting back to its default (recorded as an event). */
@Command(name = "reset", mixinStandardHelpOptions = true, description = "Put a setting back to its default.")
public final class ConfigResetCommand implements Callable<Integer> {
    @ParentCommand
    ConfigCommand parent;

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "NAME", description = "The setting, e.g. sandbox.maxRetries.")
    String name;

    @Override
    public Integer call() throws PaddockException {
        String who = RunningPaddock.who();
        SettingView s = SettingsAccess.run(
                parent.root.resolveHome(), c -> c.reset(name, who), store -> SettingView.of(store.reset(name, who)));
        spec.commandLine()
                .getOut()
                .println(s.name() + " is back to its default, " + SettingsText.withUnit(s.value(), s) + ".");
        spec.commandLine().getOut().flush();
        return 0;
    }
}
