package dev.paddock.cli;

import dev.paddock.api.LayerClient;
import dev.paddock.common.PaddockException;
import dev.paddock.layer.SharedLayers;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code paddock layers set [--repo PATH] [--setup CMD] FOLDER... | --none}: what the repository shares. */
@Command(
        name = "set",
        mixinStandardHelpOptions = true,
        description = "Set the folders the repository's namespace sandboxes share, e.g. paddock layers set"
                + " --setup 'npm ci' node_modules. Folders git tracks cannot be shared.")
public final class LayersSetCommand implements Callable<Integer> {
    @ParentCommand
    LayersCommand parent;

    @Spec
    CommandSpec spec;

    @Mixin
    RepoOption repo;

    @Option(
            names = "--setup",
            paramLabel = "COMMAND",
            description =
                    "Shell command that builds the folders in a namespace sandbox, in a fresh checkout of the base"
                            + " branch (npm ci);"
                            + " without it, refresh copies them from the main checkout.")
    String setup;

    @Option(names = "--none", description = "Share nothing.")
    boolean none;

    @Parameters(paramLabel = "FOLDER", arity = "0..*", description = "node_modules, .venv, ~/.m2 ...")
    List<String> folders;

    @Override
    public Integer call() throws PaddockException {
        boolean any = folders != null && !folders.isEmpty();
        if (any == none) {
            throw new ParameterException(
                    spec.commandLine(),
                    any ? "Give the FOLDERs to share or --none, not both." : "Give the FOLDERs to share, or --none.");
        }
        SharedLayers.Status s = new LayerClient(RunningPaddock.api(parent.root.resolveHome()))
                .configure(repo.orCurrentDirectory(), none ? List.of() : folders, setup);
        PrintWriter out = spec.commandLine().getOut();
        out.print(LayersCommand.text(s));
        if (!s.folders().isEmpty()) {
            out.println("Run paddock layers refresh to build a new generation; sandboxes started after it see it.");
        }
        out.flush();
        return 0;
    }
}
