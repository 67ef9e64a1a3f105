package dev.paddock.cli;

import dev.paddock.common.PaddockException;
import dev.paddock.container.EngineEntry;
import dev.paddock.container.EngineRegistry;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code paddock engine add NAME --host tcp://HOST:2376 --tls-dir DIR [--label k=v ...]} or
 * {@code paddock engine add NAME --context CTX}: registers an engine after checking what can be checked without
 * reaching it (the name, the address, the TLS files, the context).
 */
@Command(
        name = "add",
        mixinStandardHelpOptions = true,
        description = "Register a Docker engine: --host tcp://HOST:2376 with --tls-dir DIR (ca.pem, cert.pem,"
                + " key.pem), or --context NAME (a docker context). ssh:// is not supported.")
public final class EngineAddCommand implements Callable<Integer> {
    @ParentCommand
    EngineCommand parent;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "NAME", description = "The engine's name (lower-case, digits, . - _).")
    String name;

    @Option(names = "--host", paramLabel = "URL", description = "The engine's address: tcp://HOST:2376.")
    String host;

    @Option(names = "--tls-dir", paramLabel = "DIR", description = "Folder with ca.pem, cert.pem and key.pem.")
    Path tlsDir;

    @Option(names = "--context", paramLabel = "CTX", description = "A docker context (docker context ls).")
    String context;

    @Option(
            names = "--label",
            paramLabel = "K=V",
            description = "A label sandboxes can ask for (sandbox new --engine-label K=V); repeatable.")
    Map<String, String> labels = new LinkedHashMap<>();

    @Override
    public Integer call() throws PaddockException {
        EngineRegistry registry = EngineRegistry.in(parent.root.resolveHome().dir());
        EngineEntry e = registry.add(new EngineEntry(name, host, tlsDir, context, labels));
        PrintWriter out = spec.commandLine().getOut();
        out.println("Engine " + e.name() + " added: " + e.where()
                + (e.labels().isEmpty() ? "" : ", labels " + e.labels()) + ". Check it with paddock engine list.");
        out.flush();
        return 0;
    }
}
