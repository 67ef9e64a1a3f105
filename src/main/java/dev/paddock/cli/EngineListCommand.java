package dev.paddock.cli;

import dev.paddock.common.PaddockException;
import dev.paddock.container.EngineRegistry;
import dev.paddock.container.EngineReport;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code paddock engine list [--json]}: every engine with its health, version, CPUs, memory, running Paddock
 * containers and what is free after their limits; each engine is asked now, all at once.
 */
@Command(
        name = "list",
        mixinStandardHelpOptions = true,
        description = "List the Docker engines: health, version, CPUs, memory, Paddock containers running, free"
                + " CPU and memory after their limits.")
public final class EngineListCommand implements Callable<Integer> {
    @ParentCommand
    EngineCommand parent;

    @Spec
    CommandSpec spec;

    @Mixin
    JsonOption json;

    @Override
    public Integer call() throws PaddockException {
        EngineRegistry registry = EngineRegistry.in(parent.root.resolveHome().dir());
        List<EngineReport> reports = EngineReport.all(registry.all(), Clock.systemUTC());
        PrintWriter out = spec.commandLine().getOut();
        if (json.on()) {
            out.println(SandboxText.json(
                    Map.of("engines", reports.stream().map(EngineReport::fields).toList())));
        } else {
            out.print(table(reports));
        }
        out.flush();
        return 0;
    }

    /** One line per engine under a header. */
    static String table(List<EngineReport> reports) {
        StringBuilder b = new StringBuilder(String.format(
                Locale.ROOT,
                "%-12s %-6s %-9s %5s %9s %7s %8s %10s  %s%n",
                "NAME",
                "HEALTH",
                "VERSION",
                "CPUS",
                "MEMORY",
                "RUNNING",
                "FREE-CPU",
                "FREE-MEM",
                "WHERE"));
        for (EngineReport r : reports) {
            String where = r.entry().where()
                    + (r.entry().labels().isEmpty() ? "" : " " + r.entry().labels());
            if (r.healthy()) {
                var l = r.load();
                b.append(String.format(
                        Locale.ROOT,
                        "%-12s %-6s %-9s %5d %9s %7d %8.1f %10s  %s%n",
                        r.entry().name(),
                        "up",
                        l.version(),
                        l.cpus(),
                        gib(l.memoryBytes()),
                        l.running(),
                        l.freeNanoCpus() / 1e9,
                        gib(l.freeMemoryBytes()),
                        where));
            } else {
                b.append(String.format(
                        Locale.ROOT,
                        "%-12s %-6s %-9s %5s %9s %7s %8s %10s  %s: %s%n",
                        r.entry().name(),
                        "down",
                        "-",
                        "-",
                        "-",
                        "-",
                        "-",
                        "-",
                        where,
                        r.status().error()));
            }
        }
        return b.toString();
    }

    private static String gib(long bytes) {
        return String.format(Locale.ROOT, "%.1fGiB", bytes / (1024.0 * 1024 * 1024));
    }
}
