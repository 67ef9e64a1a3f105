package dev.paddock.cli;

import dev.paddock.api.PublishClient;
import dev.paddock.api.PublishView;
import dev.paddock.common.PaddockException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code paddock sandbox pr ID [--remote NAME] [--draft] [--json]}: pushes the sandbox's branch, then opens a pull
 * request of it against its base branch with the GitHub CLI.
 */
@Command(
        name = "pr",
        mixinStandardHelpOptions = true,
        description = {
            "Push a sandbox's branch (as paddock sandbox push does), then open a pull request of it against its base"
                    + " branch with the GitHub CLI: gh pr create, titled with the task, its body the task, the agent,"
                    + " the commits and the agent's last message.",
            "Needs gh installed and signed in (gh auth login); nothing is pushed when it is not."
        })
public final class SandboxPrCommand implements Callable<Integer> {
    @ParentCommand
    SandboxCommand parent;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "ID", description = "The sandbox.")
    String id;

    @Option(names = "--remote", paramLabel = "NAME", description = "The remote (default: origin, or the only one).")
    String remote;

    @Option(names = "--draft", description = "Open the pull request as a draft.")
    boolean draft;

    @Mixin
    JsonOption json;

    @Override
    public Integer call() throws PaddockException {
        PublishView v = RunningPaddock.apiElseStore(
                parent.root.resolveHome(),
                api -> new PublishClient(api).pullRequest(id, remote, draft, RunningPaddock.who()),
                wiring -> PublishView.of(wiring.publish().pullRequest(id, remote, draft, RunningPaddock.who())));
        SandboxPushCommand.print(spec, json, v);
        return 0;
    }
}
