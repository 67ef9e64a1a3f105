package dev.paddock.cli;

import dev.paddock.api.ReviewClient;
import dev.paddock.common.PaddockException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code paddock sandbox approve ID}: a sandbox's reviewed change enters the merge queue. */
@Command(
        name = "approve",
        mixinStandardHelpOptions = true,
        description = "Approve a sandbox's change (it shows \"ready for review\"): its branch enters the merge queue.")
public final class SandboxApproveCommand implements Callable<Integer> {
    @ParentCommand
    SandboxCommand parent;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "ID", description = "The sandbox.")
    String id;

    @Override
    public Integer call() throws PaddockException {
        ReviewClient.Approved a =
                new ReviewClient(RunningPaddock.api(parent.root.resolveHome())).approve(id, RunningPaddock.who());
        var out = spec.commandLine().getOut();
        out.println(
                a.entry() != null
                        ? "Approved " + id + ": entry #" + a.entry().id() + " in the merge queue (paddock merge list"
                                + " shows it)."
                        : a.message());
        out.flush();
        return 0;
    }
}
