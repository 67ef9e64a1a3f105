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
 * {@code paddock sandbox push ID [--remote NAME] [--json]}: pushes the sandbox's branch, as it is, to a remote of its
 * repository with git (the user's own credentials), through the running Paddock or on the store.
 */
@Command(
        name = "push",
        mixinStandardHelpOptions = true,
        description = {
            "Push a sandbox's branch to a remote of its repository (origin, or the only remote), as the remote's"
                    + " branch of the same name.",
            "git pushes with your own credentials and credential helpers; it never asks for a password here (set"
                    + " up a credential helper or an SSH key first). Nothing is committed: uncommitted changes in the"
                    + " worktree are not pushed, and the result says so."
        })
public final class SandboxPushCommand implements Callable<Integer> {
    @ParentCommand
    SandboxCommand parent;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "ID", description = "The sandbox.")
    String id;

    @Option(names = "--remote", paramLabel = "NAME", description = "The remote (default: origin, or the only one).")
    String remote;

    @Mixin
    JsonOption json;

    @Override
    public Integer call() throws PaddockException {
        PublishView v = RunningPaddock.apiElseStore(
                parent.root.resolveHome(),
                api -> new PublishClient(api).push(id, remote, RunningPaddock.who()),
                wiring -> PublishView.of(wiring.publish().push(id, remote, RunningPaddock.who())));
        print(spec, json, v);
        return 0;
    }

    /** The result: its message, or the view as JSON. */
    static void print(CommandSpec spec, JsonOption json, PublishView v) throws PaddockException {
        spec.commandLine().getOut().println(json.on() ? SandboxText.json(v) : v.message());
        spec.commandLine().getOut().flush();
    }
}
