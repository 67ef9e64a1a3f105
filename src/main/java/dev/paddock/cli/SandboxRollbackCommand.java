package dev.paddock.cli;

import dev.paddock.api.CheckpointClient;
import dev.paddock.api.CheckpointView;
import dev.paddock.common.PaddockException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code paddock sandbox rollback ID N}: stops the agent, takes a checkpoint, and makes the worktree's files those
 * of checkpoint N (through the running Paddock, which runs the agent).
 */
@Command(
        name = "rollback",
        mixinStandardHelpOptions = true,
        description = {
            "Roll a sandbox's files back to one of its checkpoints: its agent is stopped and the files as they"
                    + " are now are kept as a new checkpoint first (roll back to that one to undo).",
            "The branch and its commits are not changed unless --reset-branch is given; ignored files are not"
                    + " touched."
        })
public final class SandboxRollbackCommand implements Callable<Integer> {
    @ParentCommand
    SandboxCommand parent;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "ID", description = "The sandbox.")
    String id;

    @Parameters(index = "1", paramLabel = "N", description = "The checkpoint (see paddock sandbox checkpoints ID).")
    int number;

    @Option(
            names = "--reset-branch",
            description = "Also move the sandbox's branch back to the commit it named when checkpoint N was taken"
                    + " (as git reset --mixed; the commits left behind stay in the new checkpoint).")
    boolean resetBranch;

    @Override
    public Integer call() throws PaddockException {
        if (number < 1) {
            throw new PaddockException("Checkpoints are numbered from 1; see: paddock sandbox checkpoints " + id);
        }
        CheckpointView.RollbackView r = new CheckpointClient(RunningPaddock.api(parent.root.resolveHome()))
                .rollback(id, number, RunningPaddock.who(), resetBranch);
        PrintWriter out = spec.commandLine().getOut();
        out.print(CheckpointText.rollback(r));
        out.flush();
        return 0;
    }
}
