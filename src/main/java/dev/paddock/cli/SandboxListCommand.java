package dev.paddock.cli;

import dev.paddock.api.SandboxClient;
import dev.paddock.api.SandboxView;
import dev.paddock.common.PaddockException;
import dev.paddock.settings.PaddockHome;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code paddock sandbox list}: the repository's sandboxes that are not closed, newest first. Asks the
 * running Paddock when there is one, else reads the store directly (as {@code status} does).
 */
@Command(name = "list", mixinStandardHelpOptions = true, description = "List the sandboxes that are not closed.")
public final class SandboxListCommand implements Callable<Integer> {
    @ParentCommand
    SandboxCommand parent;

    @Spec
    CommandSpec spec;

    @Mixin
    RepoOption repo;

    @Mixin
    JsonOption json;

    @Override
    public Integer call() throws PaddockException {
        PaddockHome home = parent.root.resolveHome();
        Path target = repo.orCurrentDirectory();
        List<SandboxView> list = fetch(home, target);
        PrintWriter out = spec.commandLine().getOut();
        out.print(json.on() ? SandboxText.json(Map.of("sandboxes", list)) + "\n" : SandboxText.table(list, target));
        out.flush();
        return 0;
    }

    private static List<SandboxView> fetch(PaddockHome home, Path target) throws PaddockException {
        return RunningPaddock.apiElseStore(
                home,
                api -> new SandboxClient(api).list(target),
                wiring -> wiring.sandboxService().list(target).stream()
                        .map(SandboxView::of)
                        .toList());
    }
}
