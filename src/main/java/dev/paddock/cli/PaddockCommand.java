package dev.paddock.cli;

import dev.paddock.common.PaddockException;
import dev.paddock.settings.PaddockHome;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * {@code paddock}: with no subcommand, opens the panel; subcommands are the command-line interface.
 * Exit codes: 0 success, 1 failure (message on stderr), 2 bad usage.
 */
@Command(name = "paddock", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "A control panel for many coding agents, each in its own sandbox.%n"
                + "With no command, opens the panel on the repository of --repo or of the current directory.",
        subcommands = {StatusCommand.class, ServeCommand.class, SandboxCommand.class, MergeCommand.class,
            HeartbeatCommand.class, PolicyCommand.class, ConfigCommand.class, HookCommand.class,
            ConflictsCommand.class})
public final class PaddockCommand implements Callable<Integer> {

    /** Starts the panel; given by the launcher so this package does not depend on the UI. */
    @FunctionalInterface
    public interface PanelStarter {
        /** Runs the panel until its window closes; returns the process exit code. */
        int run(PaddockHome home, Path repo);
    }

    @Option(names = "--home", scope = ScopeType.INHERIT, paramLabel = "DIR",
            description = "State directory; default $PADDOCK_HOME or ~/.paddock.")
    Path home;

    @Option(names = "--repo", paramLabel = "PATH",
            description = "Repository to open (default: the one containing the current directory).")
    Path repo;

    private final PanelStarter panel;

    public PaddockCommand(PanelStarter panel) {
        this.panel = panel;
    }

    @Override
    public Integer call() throws PaddockException {
        return panel.run(resolveHome(), repo);
    }

    /**
     * Resolves the home directory and tells the logging configuration where it is. Must run before
     * anything logs.
     */
    PaddockHome resolveHome() throws PaddockException {
        PaddockHome h = PaddockHome.resolve(home, System.getenv());
        System.setProperty("paddock.home", h.dir().toString());
        return h;
    }
}
