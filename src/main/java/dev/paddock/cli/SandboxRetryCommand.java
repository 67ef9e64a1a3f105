package dev.paddock.cli;

import dev.paddock.api.SandboxView;
import dev.paddock.common.PaddockException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code paddock sandbox retry ID}: runs the agent of a stopped, failed, timed-out or done sandbox again. */
@Command(
        name = "retry",
        mixinStandardHelpOptions = true,
        description = "Run a sandbox's agent again (one that was stopped, failed, timed out or is done).")
public final class SandboxRetryCommand implements Callable<Integer> {
    @ParentCommand
    SandboxCommand parent;

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "ID", description = "The sandbox.")
    String id;

    @Override
    public Integer call() throws PaddockException {
        SandboxView s = RunningPaddock.require(parent.root.resolveHome()).retry(id, RunningPaddock.who());
        spec.commandLine().getOut().println("Retrying " + s.id() + " (run " + (s.iteration() + 1) + ").");
        spec.commandLine().getOut().flush();
        return 0;
    }
}
