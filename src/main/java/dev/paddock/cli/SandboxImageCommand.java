package dev.paddock.cli;

import dev.paddock.common.PaddockException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code paddock sandbox image [--repo PATH] IMAGE|--clear}: the image of the repository's container sandboxes. */
@Command(
        name = "image",
        mixinStandardHelpOptions = true,
        description = "Set the Docker image the repository's container sandboxes run in (a sandbox may name"
                + " another with --image). Paddock never pulls: the engine must have it.")
public final class SandboxImageCommand implements Callable<Integer> {
    @ParentCommand
    SandboxCommand parent;

    @Spec
    CommandSpec spec;

    @Mixin
    RepoOption repo;

    @Option(names = "--clear", description = "Forget the image.")
    boolean clear;

    @Parameters(paramLabel = "IMAGE", arity = "0..1", description = "Image reference, e.g. node:22.")
    String image;

    @Override
    public Integer call() throws PaddockException {
        if (clear == (image != null)) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "Give an IMAGE, or --clear.");
        }
        Path target = repo.orCurrentDirectory();
        String main = RunningPaddock.require(parent.root.resolveHome()).setContainerImage(target, clear ? null : image);
        PrintWriter out = spec.commandLine().getOut();
        out.println(
                clear
                        ? "Container sandboxes of " + main + " have no image now (give one with --image)."
                        : "Container sandboxes of " + main + " run in " + image.strip() + ".");
        out.flush();
        return 0;
    }
}
