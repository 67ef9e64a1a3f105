package dev.paddock.cli;

import dev.paddock.api.CheckpointClient;
import dev.paddock.api.CheckpointView;
import dev.paddock.common.PaddockException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code paddock sandbox checkpoints ID [--json]}: a sandbox's checkpoints, oldest first, each with what it changed.
 * Asks the running Paddock when there is one, else reads the store directly.
 */
@Command(
        name = "checkpoints",
        mixinStandardHelpOptions = true,
        description = "List a sandbox's checkpoints with the files each one added, modified and deleted.")
public final class SandboxCheckpointsCommand implements Callable<Integer> {
    @ParentCommand
    SandboxCommand parent;

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "ID", description = "The sandbox.")
    String id;

    @Mixin
    JsonOption json;

    @Override
    public Integer call() throws PaddockException {
        List<CheckpointView> list = RunningPaddock.apiElseStore(
                parent.root.resolveHome(),
                api -> new CheckpointClient(api).list(id),
                wiring -> wiring.checkpoints().list(id).stream()
                        .map(CheckpointView::of)
                        .toList());
        PrintWriter out = spec.commandLine().getOut();
        out.print(json.on() ? SandboxText.json(Map.of("checkpoints", list)) + "\n" : CheckpointText.list(id, list));
        out.flush();
        return 0;
    }
}
