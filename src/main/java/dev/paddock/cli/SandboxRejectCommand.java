package dev.paddock.cli;

import dev.paddock.api.ReviewClient;
import dev.paddock.api.SandboxView;
import dev.paddock.common.PaddockException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code paddock sandbox reject ID [--comment TEXT]}: discards a sandbox's change; its branch is kept. */
@Command(
        name = "reject",
        mixinStandardHelpOptions = true,
        description = "Reject a sandbox's change: the sandbox is removed (leftover files are committed on its"
                + " branch, which is kept, as paddock sandbox rm --commit does); nothing is merged.")
public final class SandboxRejectCommand implements Callable<Integer> {
    @ParentCommand
    SandboxCommand parent;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "ID", description = "The sandbox.")
    String id;

    @Option(names = "--comment", paramLabel = "TEXT", description = "Why (kept with the sandbox's comments).")
    String comment;

    @Override
    public Integer call() throws PaddockException {
        SandboxView s = new ReviewClient(RunningPaddock.api(parent.root.resolveHome()))
                .reject(id, comment, RunningPaddock.who());
        var out = spec.commandLine().getOut();
        out.println("Rejected " + s.id() + ": it is " + s.state().replace('_', ' ') + "; its branch " + s.branch()
                + " is kept.");
        out.flush();
        return 0;
    }
}
