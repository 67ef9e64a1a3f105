package dev.paddock.cli;

import dev.paddock.api.SettingView;
import dev.paddock.common.PaddockException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code paddock config get NAME}: the value in effect, alone on a line (or the whole entry as JSON). */
@Command(name = "get", mixinStandardHelpOptions = true, description = "Print a setting's value.")
public final class ConfigGetCommand implements Callable<Integer> {
    @ParentCommand
    ConfigCommand parent;

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "NAME", description = "The setting, e.g. sandbox.maxRetries.")
    String name;

    @Mixin
    JsonOption json;

    @Override
    public Integer call() throws PaddockException {
        SettingView s = SettingsAccess.run(
                parent.root.resolveHome(), c -> c.get(name), store -> SettingView.of(store.entry(name)));
        PrintWriter out = spec.commandLine().getOut();
        out.println(json.on() ? SandboxText.json(s) : s.value());
        out.flush();
        return 0;
    }
}
