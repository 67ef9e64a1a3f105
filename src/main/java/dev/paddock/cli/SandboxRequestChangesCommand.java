package dev.paddock.cli;

import dev.paddock.api.ReviewClient;
import dev.paddock.common.PaddockException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code paddock sandbox request-changes ID [--comment TEXT]}: the sandbox's unsent review comments go to its agent,
 * which runs again.
 */
@Command(
        name = "request-changes",
        mixinStandardHelpOptions = true,
        description = "Send a sandbox's unsent review comments to its agent, which runs again in the same worktree:"
                + " an agent that resumes gets them as a follow-up; a custom command is retried and finds them in"
                + " .paddock-review/review-comments.md in its worktree.")
public final class SandboxRequestChangesCommand implements Callable<Integer> {
    @ParentCommand
    SandboxCommand parent;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "ID", description = "The sandbox.")
    String id;

    @Option(names = "--comment", paramLabel = "TEXT", description = "A general comment to send with the others.")
    String comment;

    @Override
    public Integer call() throws PaddockException {
        ReviewClient.ChangesRequested r = new ReviewClient(RunningPaddock.api(parent.root.resolveHome()))
                .requestChanges(id, comment, RunningPaddock.who());
        var out = spec.commandLine().getOut();
        int n = r.comments().size();
        out.println("Sent " + n + (n == 1 ? " comment" : " comments") + " to " + id + " (round " + r.round() + "): "
                + (r.followUp()
                        ? "its agent resumes with them"
                        : "its agent cannot resume, so it runs again and finds them in " + r.file())
                + ".");
        out.flush();
        return 0;
    }
}
