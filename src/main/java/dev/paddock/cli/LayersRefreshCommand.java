package dev.paddock.cli;

import dev.paddock.api.LayerClient;
import dev.paddock.common.PaddockException;
import dev.paddock.layer.SharedLayers;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code paddock layers refresh [--repo PATH]}: builds a new generation of the shared layer. */
@Command(
        name = "refresh",
        mixinStandardHelpOptions = true,
        description = "Build a new generation of the repository's shared layer (its setup command, or a copy of the"
                + " main checkout's folders). Sandboxes started after it see it; running ones keep theirs.")
public final class LayersRefreshCommand implements Callable<Integer> {
    @ParentCommand
    LayersCommand parent;

    @Spec
    CommandSpec spec;

    @Mixin
    RepoOption repo;

    @Override
    public Integer call() throws PaddockException {
        PrintWriter out = spec.commandLine().getOut();
        out.println("Building a new generation of the shared layer…");
        out.flush();
        SharedLayers.Status s =
                new LayerClient(RunningPaddock.api(parent.root.resolveHome())).refresh(repo.orCurrentDirectory());
        out.print(LayersCommand.text(s));
        out.flush();
        return 0;
    }
}
