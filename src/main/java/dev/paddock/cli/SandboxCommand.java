package dev.paddock.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code paddock sandbox new|list|stop|retry|say|rm|image|flags|transcript|checkpoints|rollback|diff|push|pr|comment|
 * comments|approve|reject|request-changes}: the agents' sandboxes, through the running panel or
 * server (which runs them).
 */
@Command(
        name = "sandbox",
        mixinStandardHelpOptions = true,
        description =
                "Create, list, stop, retry, follow up, review and remove sandboxes, set the container image and agents'"
                        + " flags, push their branches and open pull requests (through the running Paddock).",
        subcommands = {
            SandboxNewCommand.class,
            SandboxListCommand.class,
            SandboxStopCommand.class,
            SandboxRetryCommand.class,
            SandboxSayCommand.class,
            SandboxRmCommand.class,
            SandboxImageCommand.class,
            SandboxFlagsCommand.class,
            SandboxTranscriptCommand.class,
            SandboxCompareCommand.class,
            SandboxCheckpointsCommand.class,
            SandboxRollbackCommand.class,
            SandboxDiffCommand.class,
            SandboxPushCommand.class,
            SandboxPrCommand.class,
            SandboxCommentCommand.class,
            SandboxCommentsCommand.class,
            SandboxApproveCommand.class,
            SandboxRejectCommand.class,
            SandboxRequestChangesCommand.class
        })
public final class SandboxCommand implements Runnable {
    @ParentCommand
    PaddockCommand root;

    @Spec
    CommandSpec spec;

    /** {@code paddock sandbox} alone is a usage error: it needs a subcommand. */
    @Override
    public void run() {
        throw new ParameterException(
                spec.commandLine(),
                "Missing a command: new, list, stop, retry, say, rm, image,"
                        + " flags, transcript, compare, checkpoints, rollback, diff, push, pr, comment, comments,"
                        + " approve, reject or request-changes.");
    }
}
