package dev.paddock.cli;

import dev.paddock.api.ReviewClient;
import dev.paddock.common.PaddockException;
import dev.paddock.review.ReviewComment;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code paddock sandbox comments ID [--json]}: a sandbox's review comments, oldest first. */
@Command(
        name = "comments",
        mixinStandardHelpOptions = true,
        description = "List a sandbox's review comments, oldest first: where, who, the quoted line, and whether"
                + " they went to the agent (round N) or wait.")
public final class SandboxCommentsCommand implements Callable<Integer> {
    @ParentCommand
    SandboxCommand parent;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "ID", description = "The sandbox.")
    String id;

    @Mixin
    JsonOption json;

    @Override
    public Integer call() throws PaddockException {
        List<ReviewComment> all = new ReviewClient(RunningPaddock.api(parent.root.resolveHome())).comments(id);
        var out = spec.commandLine().getOut();
        if (json.on()) {
            out.println(SandboxText.json(java.util.Map.of("comments", all)));
        } else {
            out.print(ReviewText.comments(id, all));
        }
        out.flush();
        return 0;
    }
}
