package dev.paddock.cli;

import dev.paddock.api.ApiAnswerException;
import dev.paddock.api.SandboxClient;
import dev.paddock.api.SandboxView;
import dev.paddock.common.PaddockException;
import dev.paddock.sandbox.RemoveMode;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code paddock sandbox rm ID [--commit|--force] [--delete-branch]}: removes a sandbox's worktree and
 * closes it. Strict by default: when the worktree holds work that would be lost, nothing is removed, the
 * command prints what would be lost (the refusal's message lists the files and commits) and how to go on,
 * and exits with 1.
 */
@Command(
        name = "rm",
        mixinStandardHelpOptions = true,
        description = "Remove a sandbox: stop its agent, remove its worktree, close its record. Refuses when work"
                + " would be lost unless --commit or --force says what to do with it.")
public final class SandboxRmCommand implements Callable<Integer> {
    @ParentCommand
    SandboxCommand parent;

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "ID", description = "The sandbox.")
    String id;

    @ArgGroup(exclusive = true)
    Leftovers leftovers;

    @Option(names = "--delete-branch", description = "Also delete its branch when it is not merged.")
    boolean deleteBranch;

    /** What to do with work the worktree holds: one of the two, or neither (strict). */
    static final class Leftovers {
        @Option(
                names = "--commit",
                required = true,
                description = "Commit uncommitted files on the sandbox's branch (kept), then remove the worktree.")
        boolean commit;

        @Option(names = "--force", required = true, description = "Remove the worktree whatever it holds.")
        boolean force;
    }

    @Override
    public Integer call() throws PaddockException {
        SandboxClient client = RunningPaddock.require(parent.root.resolveHome());
        RemoveMode mode =
                leftovers == null ? RemoveMode.STRICT : leftovers.commit ? RemoveMode.COMMIT : RemoveMode.FORCE;
        String ignored = ignoredFiles(client);
        try {
            SandboxView s = client.remove(id, mode, deleteBranch, RunningPaddock.who());
            spec.commandLine()
                    .getOut()
                    .println("Removed " + s.id() + " (" + s.state() + ")"
                            + (ignored.isEmpty() ? "." : "; that also deleted " + ignored + " (git ignores them)."));
            spec.commandLine().getOut().flush();
            return 0;
        } catch (ApiAnswerException refused) {
            if (!ApiAnswerException.REMOVAL_REFUSED.equals(refused.code())) {
                throw refused;
            }
            // The refusal says what would be lost (files, commits); the command line adds how to go on.
            PrintWriter err = spec.commandLine().getErr();
            err.println("paddock: " + refused.getMessage());
            err.print(SandboxText.howToGoOn(id, mode));
            err.flush();
            return 1;
        }
    }

    /** The ignored files removing would delete ("1,204 ignored files in build/"), or "" (also when unknown). */
    private String ignoredFiles(SandboxClient client) {
        try {
            return client.removalPlan(id).ignored().summary();
        } catch (PaddockException e) {
            return ""; // the removal itself says what is wrong
        }
    }
}
