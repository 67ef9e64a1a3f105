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

/**
 * {@code paddock layers [--repo PATH] [--json]}: the folders a repository's namespace sandboxes share read-only, and
 * its subcommands {@code set}, {@code refresh} and {@code changes}. Needs a running Paddock.
 */
@Command(
        name = "layers",
        mixinStandardHelpOptions = true,
        description = "Show the dependency folders (node_modules, .venv, ~/.m2 ...) the repository's namespace"
                + " sandboxes share read-only through an overlay, each writing into its own layer.",
        subcommands = {LayersSetCommand.class, LayersRefreshCommand.class, LayersChangesCommand.class})
public final class LayersCommand implements Callable<Integer> {
    @ParentCommand
    PaddockCommand root;

    @Spec
    CommandSpec spec;

    @Mixin
    RepoOption repo;

    @Mixin
    JsonOption json;

    @Override
    public Integer call() throws PaddockException {
        SharedLayers.Status s =
                new LayerClient(RunningPaddock.api(root.resolveHome())).status(repo.orCurrentDirectory());
        PrintWriter out = spec.commandLine().getOut();
        out.print(json.on() ? SandboxText.json(s) + "\n" : text(s));
        out.flush();
        return 0;
    }

    /** The status in words. */
    static String text(SharedLayers.Status s) {
        if (s.folders().isEmpty()) {
            return "Namespace sandboxes of this repository share no folders (paddock layers set node_modules).\n";
        }
        StringBuilder b = new StringBuilder();
        b.append("Shared folders: ").append(String.join(", ", s.folders())).append('\n');
        b.append("Built by:       ")
                .append(s.setupCommand() == null ? "copying them from the main checkout" : s.setupCommand())
                .append('\n');
        b.append("Generation:     ")
                .append(
                        s.generation() == 0
                                ? "none yet: run paddock layers refresh (until then sandboxes see their own folders)"
                                : s.generation() + ", built " + s.builtAt())
                .append('\n');
        return b.toString();
    }
}
