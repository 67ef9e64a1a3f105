package dev.paddock.cli;

import dev.paddock.common.PaddockException;
import dev.paddock.container.ContainerException;
import dev.paddock.container.DockerContainers;
import dev.paddock.container.DockerEngine;
import dev.paddock.container.EngineEntry;
import dev.paddock.container.EngineRegistry;
import dev.paddock.container.LabelledContainer;
import dev.paddock.settings.PaddockHome;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code paddock engine remove NAME}: forgets an engine, refused while this home's sandboxes run there (their
 * containers, asked of the engine; an engine that does not answer cannot say, so it is refused too).
 */
@Command(
        name = "remove",
        mixinStandardHelpOptions = true,
        description = "Forget a Docker engine; refused while sandboxes of this home run there.")
public final class EngineRemoveCommand implements Callable<Integer> {
    @ParentCommand
    EngineCommand parent;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "NAME", description = "The engine's name (paddock engine list).")
    String name;

    @Option(names = "--force", description = "Remove it even when it does not answer (its containers stay).")
    boolean force;

    @Override
    public Integer call() throws PaddockException {
        PaddockHome home = parent.root.resolveHome();
        EngineRegistry registry = EngineRegistry.in(home.dir());
        EngineEntry e = registry.require(name);
        if (e.isLocal()) {
            registry.remove(name); // says why not
        }
        List<String> running;
        try {
            running = runningSandboxes(e, home.id());
        } catch (ContainerException ex) {
            if (!force) {
                throw new ContainerException(ex.getMessage() + " (--force removes it all the same)");
            }
            running = List.of();
        }
        if (!running.isEmpty()) {
            throw new PaddockException("Engine " + name + " runs sandboxes " + String.join(", ", running)
                    + "; stop or remove them first (paddock sandbox rm ID).");
        }
        List<String> recorded = recordedSandboxes(home, name);
        if (!recorded.isEmpty()) {
            throw new PaddockException("Engine " + name + " has live sandboxes " + String.join(", ", recorded)
                    + "; stop or remove them first (paddock sandbox rm ID).");
        }
        registry.remove(name);
        PrintWriter out = spec.commandLine().getOut();
        out.println("Engine " + name + " removed.");
        out.flush();
        return 0;
    }

    /**
     * The live sandboxes the store records on engine {@code name}, read when no Paddock runs (one that runs holds
     * the store; the containers the engine runs are asked of it in any case).
     */
    private static List<String> recordedSandboxes(PaddockHome home, String name) throws PaddockException {
        if (dev.paddock.api.ApiClient.discover(home.instanceFile(), home.tokenFile())
                .isPresent()) {
            return List.of();
        }
        try (dev.paddock.Wiring w = dev.paddock.Wiring.open(home)) {
            return w.sandboxes().listLive().stream()
                    .filter(s -> name.equals(s.spec().engine()))
                    .map(dev.paddock.sandbox.SandboxRecord::id)
                    .toList();
        }
    }

    /** The ids of this home's sandboxes whose containers run on {@code e}. */
    static List<String> runningSandboxes(EngineEntry e, String homeId) throws ContainerException {
        try (DockerContainers c = new DockerContainers(new DockerEngine(Clock.systemUTC(), e.endpoint()), homeId)) {
            List<LabelledContainer> all;
            try {
                all = c.labelled();
            } catch (ContainerException ex) {
                throw new ContainerException("Cannot tell whether sandboxes run on engine " + e.name()
                        + ", so it stays: " + ex.getMessage());
            }
            return all.stream()
                    .filter(k -> "running".equals(k.state()))
                    .map(LabelledContainer::sandboxId)
                    .toList();
        }
    }
}
