package dev.paddock.cli;

import dev.paddock.api.MergeReviewView;
import dev.paddock.api.MergeView;
import dev.paddock.common.PaddockException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code paddock merge review|approve|reject ID}: a branch that changes policy or hook configuration
 * ({@code .paddock/}, {@code .claude/}) waits in the merge queue (state {@code policy_review}) until a person looks at
 * the diff and approves it (it is merged as usual, as long as the branch stays at the reviewed commit) or rejects it
 * (cancelled, base unchanged). Through the running Paddock, with the install token.
 */
final class MergeReviewCommand {
    private MergeReviewCommand() {}

    /** {@code paddock merge review ID [--json]}: the files and their diff from base to the commit under review. */
    @Command(
            name = "review",
            mixinStandardHelpOptions = true,
            description = "Show the policy or hook configuration change an entry waits with: files and diff.")
    static final class Review implements Callable<Integer> {
        @ParentCommand
        MergeCommand parent;

        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "ID", description = "The entry (a number).")
        long id;

        @Mixin
        JsonOption json;

        @Override
        public Integer call() throws PaddockException {
            MergeReviewView r = parent.client().review(id);
            PrintWriter out = spec.commandLine().getOut();
            if (json.on()) {
                out.println(SandboxText.json(r));
            } else {
                out.println("#" + r.entry().id() + " " + r.entry().branch() + " ("
                        + r.entry().state() + ")");
                out.println("changes   " + String.join(", ", r.files()));
                out.println("reviewed  " + r.reviewCommit());
                out.println(
                        "base      " + r.baseBranch() + " at " + (r.baseCommit() == null ? "(none)" : r.baseCommit()));
                if (r.approvedCommit() != null) {
                    out.println("approved  " + r.approvedCommit() + " by " + r.approvedBy());
                }
                out.println();
                out.print(r.diff());
                if ("policy_review".equals(r.entry().state())) {
                    out.println();
                    out.println(
                            "Approve with: paddock merge approve " + r.entry().id() + " --commit " + r.reviewCommit());
                    out.println(
                            "Reject with:  paddock merge reject " + r.entry().id());
                }
            }
            out.flush();
            return 0;
        }
    }

    /** {@code paddock merge approve ID [--commit SHA]}. */
    @Command(
            name = "approve",
            mixinStandardHelpOptions = true,
            description = "Approve the policy or hook configuration change an entry waits with; it is merged as usual.")
    static final class Approve implements Callable<Integer> {
        @ParentCommand
        MergeCommand parent;

        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "ID", description = "The entry (a number).")
        long id;

        @Option(
                names = "--commit",
                paramLabel = "SHA",
                description = "The commit you reviewed (see paddock merge review); refused if the entry waits with"
                        + " another.")
        String commit;

        @Override
        public Integer call() throws PaddockException {
            MergeView v = parent.client().approve(id, RunningPaddock.who(), commit);
            spec.commandLine()
                    .getOut()
                    .println("Approved the policy change of #" + v.id() + " " + v.branch() + "; it is " + v.state()
                            + " (it waits for a review again if its branch moves).");
            spec.commandLine().getOut().flush();
            return 0;
        }
    }

    /** {@code paddock merge reject ID [--reason TEXT]}. */
    @Command(
            name = "reject",
            mixinStandardHelpOptions = true,
            description = "Reject the policy or hook configuration change an entry waits with; it is cancelled.")
    static final class Reject implements Callable<Integer> {
        @ParentCommand
        MergeCommand parent;

        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "ID", description = "The entry (a number).")
        long id;

        @Option(names = "--reason", paramLabel = "TEXT", description = "Why (in the event and the entry's result).")
        String reason;

        @Override
        public Integer call() throws PaddockException {
            MergeView v = parent.client().reject(id, RunningPaddock.who(), reason);
            spec.commandLine()
                    .getOut()
                    .println("Rejected the policy change of #" + v.id() + " " + v.branch() + "; it is " + v.state()
                            + " and base is unchanged.");
            spec.commandLine().getOut().flush();
            return 0;
        }
    }
}
