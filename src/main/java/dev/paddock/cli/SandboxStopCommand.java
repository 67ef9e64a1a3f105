package dev.paddock.cli;

import dev.paddock.api.SandboxView;
import dev.paddock.common.PaddockException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code paddock sandbox stop ID}: kills the agent's whole process tree; the sandbox then waits for a person. */
@Command(
        name = "stop",
        mixinStandardHelpOptions = true,
        description = "Stop a sandbox's agent (its whole process tree); the sandbox then waits for you.")
public final class SandboxStopCommand implements Callable<Integer> {
    @ParentCommand
    SandboxCommand parent;

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "ID", description = "The sandbox.")
    String id;

    @Override
    public Integer call() throws PaddockException {
        SandboxView s = RunningPaddock.require(parent.root.resolveHome()).stop(id, RunningPaddock.who());
        spec.commandLine()
                .getOut()
                .println("Stopped " + s.id() + "; it is " + s.state()
                        + " (retry it with: paddock sandbox retry " + s.id()
                        + ", or remove it with: paddock sandbox rm "
                        + s.id() + ").");
        spec.commandLine().getOut().flush();
        return 0;
    }
}
