package dev.paddock.cli;

import dev.paddock.api.ReviewClient;
import dev.paddock.common.PaddockException;
import dev.paddock.review.ReviewComment;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code paddock sandbox comment ID [--file PATH [--line N [--old]]] TEXT...}: a review comment on a sandbox's
 * change; it goes to the agent with the next request for changes.
 */
@Command(
        name = "comment",
        mixinStandardHelpOptions = true,
        description = {
            "Comment on a sandbox's change (on a file's line with --file and --line, else in general). Comments go"
                    + " to the agent with paddock sandbox request-changes.",
            "Put -- before a text that starts with a dash."
        })
public final class SandboxCommentCommand implements Callable<Integer> {
    @ParentCommand
    SandboxCommand parent;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "ID", description = "The sandbox.")
    String id;

    @Option(names = "--file", paramLabel = "PATH", description = "The file, relative to the repository.")
    String file;

    @Option(names = "--line", paramLabel = "N", description = "The line in that file, from 1.")
    Integer line;

    @Option(names = "--old", description = "The line is in base's version of the file (a removed or changed line).")
    boolean old;

    @Parameters(
            index = "1..*",
            arity = "1..*",
            paramLabel = "TEXT",
            description = "The comment (several words are joined with spaces).")
    List<String> text;

    @Override
    public Integer call() throws PaddockException {
        if (line != null && file == null) {
            throw new ParameterException(spec.commandLine(), "--line needs --file PATH.");
        }
        if (old && line == null) {
            throw new ParameterException(spec.commandLine(), "--old needs --line N.");
        }
        ReviewComment c = new ReviewClient(RunningPaddock.api(parent.root.resolveHome()))
                .comment(id, file, line, old ? "old" : null, String.join(" ", text), RunningPaddock.who());
        var out = spec.commandLine().getOut();
        out.println("Comment " + c.id() + " on " + id + " (" + c.where() + ")"
                + (c.quoted() == null ? "" : ": > " + c.quoted().strip())
                + ". It goes to the agent with paddock sandbox request-changes " + id + ".");
        out.flush();
        return 0;
    }
}
