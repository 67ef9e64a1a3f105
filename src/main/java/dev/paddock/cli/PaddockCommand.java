package dev.paddock.cli;

import dev.paddock.common.PaddockException;
import dev.paddock.settings.PaddockHome;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * {@code paddock}: with no subcommand, opens the panel; subcommands are the command-line interface.
 * Exit codes: 0 success, 1 failure (message on stderr), 2 bad usage.
 */
@Command(
        name = "paddock",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        resourceBundle = "dev.paddock.cli.OptionTexts",
        description = "A control panel for many coding agents, each in its own sandbox.%n"
                + "With no command, opens the panel on the repository of --repo or of the current directory.")
public final class PaddockCommand implements Callable<Integer> {

    /**
     * The commands, by name, in the order the help lists them. Added by {@link #commandLine}, not by the
     * annotation: picocli builds the model of every command it is given, which loads every command's option
     * types and took most of a CLI call's start.
     */
    static final Map<String, Class<?>> COMMANDS = commands();

    /** Starts the panel; given by the launcher so this package does not depend on the UI. */
    @FunctionalInterface
    public interface PanelStarter {
        /** Runs the panel until its window closes; returns the process exit code. */
        int run(PaddockHome home, Path repo);
    }

    @Option(
            names = "--home",
            scope = ScopeType.INHERIT,
            paramLabel = "DIR",
            description = "State directory; default $PADDOCK_HOME or ~/.paddock.")
    Path home;

    @Option(
            names = "--store",
            scope = ScopeType.INHERIT,
            paramLabel = "URL",
            description =
                    "Shared store on a PostgreSQL server (jdbc:postgresql://HOST:PORT/DATABASE?user=NAME; the password"
                            + " in ~/.pgpass) instead of the home's own; default $PADDOCK_STORE.")
    String store;

    @Option(
            names = "--repo",
            paramLabel = "PATH",
            description = "Repository to open (default: the one containing the current directory).")
    Path repo;

    private final PanelStarter panel;

    public PaddockCommand(PanelStarter panel) {
        this.panel = panel;
    }

    /**
     * Tells the logging configuration the home named by {@code --home DIR} (or {@code --home=DIR}) among the options
     * before the command's name, before picocli builds its model: building it loads classes whose first logger
     * starts logging, which would otherwise write into the default home's log. {@link #resolveHome} sets the
     * same property again once the home is checked. A value this system cannot represent is left to picocli.
     */
    public static void presetHomeForLogging(String... args) {
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String value = null;
            if (a.equals("--home") && i + 1 < args.length) {
                value = args[++i];
            } else if (a.startsWith("--home=")) {
                value = a.substring("--home=".length());
            } else if (a.equals("--repo") || a.equals("--store")) {
                i++;
                continue;
            } else if (!a.startsWith("-")) {
                return; // the command's name: --home is an option of the root command only
            }
            if (value != null && !value.isBlank()) {
                try {
                    System.setProperty(
                            "paddock.home",
                            Path.of(value).toAbsolutePath().normalize().toString());
                } catch (java.nio.file.InvalidPathException e) {
                    return;
                }
            }
        }
    }

    /**
     * The command for arguments that only open the panel: none, or only {@code --home DIR}, {@code --repo PATH}
     * and {@code --store URL} (either form, each with its value). The panel starts without picocli: building its
     * model (type converters, every subcommand's annotations) takes about 0.3 s of a 2-core machine's start,
     * which the panel's first frame would wait for.
     *
     * @return null for any other arguments (a command, {@code --help}, a missing value, a path this system
     *     cannot represent), which picocli then parses and reports on
     */
    public static PaddockCommand forPanelOnly(PanelStarter panel, String... args) {
        PaddockCommand c = new PaddockCommand(panel);
        try {
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                String value;
                if (a.equals("--home") || a.equals("--repo") || a.equals("--store")) {
                    if (i + 1 >= args.length || args[i + 1].startsWith("-")) {
                        return null;
                    }
                    value = args[++i];
                } else if (a.startsWith("--home=") || a.startsWith("--repo=")) {
                    value = a.substring(7);
                } else if (a.startsWith("--store=")) {
                    value = a.substring(8);
                } else {
                    return null;
                }
                if (a.startsWith("--store")) {
                    c.store = value;
                } else if (a.startsWith("--home")) {
                    c.home = Path.of(value);
                } else {
                    c.repo = Path.of(value);
                }
            }
        } catch (java.nio.file.InvalidPathException e) {
            return null;
        }
        return c;
    }

    private static Map<String, Class<?>> commands() {
        Map<String, Class<?>> m = new LinkedHashMap<>();
        m.put("status", StatusCommand.class);
        m.put("serve", ServeCommand.class);
        m.put("sandbox", SandboxCommand.class);
        m.put("merge", MergeCommand.class);
        m.put("heartbeat", HeartbeatCommand.class);
        m.put("checkpoint", CheckpointCommand.class);
        m.put("policy", PolicyCommand.class);
        m.put("config", ConfigCommand.class);
        m.put("hook", HookCommand.class);
        m.put("conflicts", ConflictsCommand.class);
        m.put("layers", LayersCommand.class);
        m.put("engine", EngineCommand.class);
        return Collections.unmodifiableMap(m);
    }

    /**
     * The command line for {@code args}: when they name a command (the first word that is not an option or the
     * value of {@code --home}/{@code --repo}), only that command is added, so picocli builds only its model;
     * otherwise (no command, {@code --help}, a misspelt name) all of them, for the usage and picocli's
     * suggestions.
     */
    public static CommandLine commandLine(PanelStarter panel, String... args) {
        CommandLine cli = new CommandLine(new PaddockCommand(panel));
        String named = commandName(args);
        if (named != null && COMMANDS.containsKey(named)) {
            cli.addSubcommand(named, COMMANDS.get(named));
        } else {
            COMMANDS.forEach(cli::addSubcommand);
        }
        return cli;
    }

    /** The first word of {@code args} that is neither an option nor the value of the root's options, or null. */
    static String commandName(String... args) {
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--home") || a.equals("--repo") || a.equals("--store")) {
                i++;
            } else if (!a.startsWith("-")) {
                return a;
            }
        }
        return null;
    }

    @Override
    public Integer call() throws PaddockException {
        return panel.run(resolveHome(), repo);
    }

    /**
     * Resolves the home directory (with the store of {@code --store} or {@code PADDOCK_STORE}, if any) and tells the
     * logging configuration where it is. Must run before anything logs.
     *
     * @throws dev.paddock.common.UsageException when the store named is not a PostgreSQL URL
     */
    PaddockHome resolveHome() throws PaddockException {
        PaddockHome h = PaddockHome.resolve(home, store, System.getenv());
        System.setProperty("paddock.home", h.dir().toString());
        return h;
    }
}
