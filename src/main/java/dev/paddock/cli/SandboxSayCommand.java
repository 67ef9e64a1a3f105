package dev.paddock.cli;

import dev.paddock.api.SandboxView;
import dev.paddock.common.PaddockException;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code paddock sandbox say ID TEXT...}: a follow-up prompt. The sandbox's agent resumes its session with it, in the
 * same worktree and tier; refused while the agent still runs and for agents that cannot resume ({@code custom}).
 */
@Command(
        name = "say",
        mixinStandardHelpOptions = true,
        description = {
            "Send a follow-up prompt to a sandbox whose agent's turn ended (it shows \"waiting for you\"):"
                    + " the agent resumes its session with it, in the same worktree and tier.",
            "Put -- before a text that starts with a dash."
        })
public final class SandboxSayCommand implements Callable<Integer> {
    @ParentCommand
    SandboxCommand parent;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "ID", description = "The sandbox.")
    String id;

    @Parameters(
            index = "1..*",
            arity = "1..*",
            paramLabel = "TEXT",
            description = "The follow-up prompt (several words are joined with spaces).")
    List<String> text;

    @Override
    public Integer call() throws PaddockException {
        SandboxView s =
                RunningPaddock.require(parent.root.resolveHome()).say(id, String.join(" ", text), RunningPaddock.who());
        spec.commandLine()
                .getOut()
                .println("Sent the follow-up to " + s.id() + "; its agent resumes"
                        + (s.agentSession() == null ? " its session" : " session " + s.agentSession()) + " in run "
                        + (s.iteration() + 1) + " (paddock sandbox list shows its state).");
        spec.commandLine().getOut().flush();
        return 0;
    }
}
