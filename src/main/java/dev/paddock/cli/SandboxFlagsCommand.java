package dev.paddock.cli;

import dev.paddock.api.SandboxClient;
import dev.paddock.common.PaddockException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code paddock sandbox flags [--repo PATH] [AGENT [--clear | -- FLAG...]]}: the extra flags an agent preset's
 * command lines get in the repository.
 */
@Command(
        name = "flags",
        mixinStandardHelpOptions = true,
        description = "Show or set the extra flags an agent's command line gets in the repository's sandboxes, e.g."
                + " paddock sandbox flags claude -- --max-turns 30. Without FLAG, shows them.")
public final class SandboxFlagsCommand implements Callable<Integer> {
    @ParentCommand
    SandboxCommand parent;

    @Spec
    CommandSpec spec;

    @Mixin
    RepoOption repo;

    @Option(names = "--clear", description = "Remove the agent's extra flags.")
    boolean clear;

    @Parameters(
            index = "0",
            arity = "0..1",
            paramLabel = "AGENT",
            converter = OptionValues.AgentName.class,
            description = "claude, codex, gemini or aider.")
    String agent;

    @Parameters(
            index = "1..*",
            arity = "0..*",
            paramLabel = "FLAG",
            description = "The flags, each one argument, after -- (e.g. -- --max-turns 30).")
    List<String> flags;

    @Override
    public Integer call() throws PaddockException {
        boolean setting = flags != null && !flags.isEmpty();
        if (clear && setting) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "Give FLAGs or --clear, not both.");
        }
        if ((clear || setting) && agent == null) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "Name the AGENT whose flags to set.");
        }
        Path target = repo.orCurrentDirectory();
        SandboxClient client = RunningPaddock.require(parent.root.resolveHome());
        PrintWriter out = spec.commandLine().getOut();
        if (clear || setting) {
            String main = client.setAgentFlags(target, agent, clear ? List.of() : flags);
            out.println(
                    clear
                            ? "Sandboxes of " + agent + " in " + main + " run with no extra flags now."
                            : "Sandboxes of " + agent + " in " + main + " run with the extra flags " + words(flags)
                                    + " from their next run on.");
        } else {
            Map<String, List<String>> all = client.agentFlags(target);
            if (agent != null) {
                List<String> own = all.getOrDefault(agent, List.of());
                out.println(own.isEmpty() ? agent + ": no extra flags" : agent + ": " + words(own));
            } else if (all.isEmpty()) {
                out.println("No agent has extra flags in this repository.");
            } else {
                all.forEach((a, f) -> out.println(a + ": " + words(f)));
            }
        }
        out.flush();
        return 0;
    }

    /** The flags as a shell would take them back: words with blanks or quotes single-quoted. */
    static String words(List<String> flags) {
        return flags.stream()
                .map(w -> w.matches("[A-Za-z0-9_./:=@%+,-]+") ? w : "'" + w.replace("'", "'\\''") + "'")
                .collect(Collectors.joining(" "));
    }
}
