package dev.paddock;

import dev.paddock.cli.PaddockCommand;
import dev.paddock.cli.thin.ThinCli;
import dev.paddock.common.PaddockException;
import dev.paddock.common.Utf8Locale;
import dev.paddock.ui.shell.PanelLauncher;
import java.io.PrintWriter;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

/**
 * Paddock's entry point: {@code paddock} opens the panel, {@code paddock <command>} runs a CLI
 * command. A plain class on purpose: a main class that extends {@code Application} fails with
 * "JavaFX runtime components are missing" when JavaFX is on the class path.
 */
public final class Paddock {
    private Paddock() {}

    public static void main(String[] args) {
        Utf8Locale.relaunchIfNeeded();
        System.exit(run(args));
    }

    /**
     * Runs Paddock with {@code args} and returns the exit code: 0 success, 1 failure (the message is
     * printed on stderr), 2 bad usage. The thin client answers first when it can ({@link ThinCli}: a few read-only
     * commands, asked of a running Paddock without loading picocli or Jackson); else {@link #runFull}.
     */
    public static int run(String[] args) {
        int thin = ThinCli.answer(args, System.getenv(), System.out);
        return thin != ThinCli.NOT_ANSWERED ? thin : runFull(args);
    }

    /** Runs Paddock with {@code args} through picocli (the full CLI) or opens the panel; see {@link #run}. */
    public static int runFull(String[] args) {
        PaddockCommand panelOnly = PaddockCommand.forPanelOnly(Paddock::panel, args);
        if (panelOnly != null) {
            PrintWriter err = new PrintWriter(System.err, true);
            try {
                return panelOnly.call();
            } catch (Exception e) {
                return failure(e, err);
            }
        }
        PaddockCommand.presetHomeForLogging(args);
        CommandLine cli = PaddockCommand.commandLine(Paddock::panel, args);
        cli.setExecutionExceptionHandler((e, cmd, parsed) -> failure(e, cmd.getErr()));
        return cli.execute(args);
    }

    /** Runs the panel on {@code home}: its Paddock is a {@link Host} whose backends it is given. */
    private static int panel(dev.paddock.settings.PaddockHome home, java.nio.file.Path repo) {
        return PanelLauncher.run(home, repo, h -> {
            Host host = Host.start(h, "panel");
            host.whenStoreLost(() -> System.exit(1)); // it stopped: its window must not stay on a closed Paddock
            return host.panel();
        });
    }

    /** Reports a command's failure on {@code err} and returns its exit code (1; 2 for a usage error). */
    private static int failure(Exception e, PrintWriter err) {
        if (e instanceof dev.paddock.common.UsageException) {
            err.println("paddock: " + e.getMessage());
            return 2;
        }
        if (e instanceof PaddockException) {
            err.println("paddock: " + e.getMessage());
            return 1;
        }
        // A bug, not a user error: keep the trace in the log, give the user one line.
        LoggerFactory.getLogger(Paddock.class).error("Unexpected failure", e);
        err.println("paddock: unexpected error: " + e + " (details in the log under "
                + System.getProperty("paddock.home", "~/.paddock") + "/logs)");
        return 1;
    }
}
