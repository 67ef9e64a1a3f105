package dev.paddock.cli;

import dev.paddock.api.CreateSandboxRequest;
import dev.paddock.api.SandboxView;
import dev.paddock.common.PaddockException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code paddock sandbox new}: creates a sandbox in the running Paddock, which starts its agent. */
@Command(name = "new", mixinStandardHelpOptions = true,
        description = "Create a sandbox (branch and worktree under .worktrees/) and start its agent.")
public final class SandboxNewCommand implements Callable<Integer> {
    @ParentCommand
    SandboxCommand parent;

    @Spec
    CommandSpec spec;

    @Mixin
    RepoOption repo;

    @Option(names = "--task", required = true, paramLabel = "TEXT", description = "What the agent should do.")
    String task;

    @Option(names = "--agent", paramLabel = "AGENT", converter = OptionValues.AgentName.class,
            description = "claude, codex, gemini, aider or custom (default: custom, which runs --cmd).")
    String agent;

    @Option(names = "--model", paramLabel = "M", description = "The agent's model (default: the agent's own).")
    String model;

    @Option(names = "--cmd", paramLabel = "CMD",
            description = "The custom agent's command line (run with /bin/sh -c in the worktree; the task is in"
                    + " $PADDOCK_TASK).")
    String command;

    @Option(names = "--tier", paramLabel = "TIER", converter = OptionValues.TierName.class,
            description = "worktree (default for --cmd and claude), namespace (bubblewrap; default for codex, gemini"
                    + " and aider) or container (Docker).")
    String tier;

    @Option(names = "--branch", paramLabel = "B", description = "Branch (default: agent/<words of the task>).")
    String branch;

    @Option(names = "--base", paramLabel = "B", description = "Base branch (default: the repository's).")
    String base;

    @Option(names = "--id", paramLabel = "ID", description = "Sandbox id (default: <words>-<yyyymmdd>-<nnn>).")
    String id;

    @Option(names = "--lease-minutes", paramLabel = "N", converter = OptionValues.LeaseMinutes.class,
            description = "Lease: minutes without a heartbeat before the agent times out (default 15).")
    Integer leaseMinutes;

    @Option(names = "--retries", paramLabel = "N", converter = OptionValues.Retries.class, description = "Automatic retries after a failure or timeout.")
    Integer retries;

    @Option(names = "--network", description = "Give a namespace or container sandbox a network.")
    boolean network;

    @Option(names = "--image", paramLabel = "IMAGE",
            description = "Container tier: the image to run in (default: the repository's). Never pulled.")
    String image;

    @Option(names = "--cpus", paramLabel = "N", description = "Container tier: CPUs, e.g. 1.5 (default 2).")
    Double cpus;

    @Option(names = "--memory-mib", paramLabel = "MIB",
            description = "Container tier: memory in MiB, swap included (default 4096).")
    Long memoryMiB;

    @Option(names = "--pids", paramLabel = "N", description = "Container tier: process limit (default 512).")
    Long pids;

    @Option(names = "--nofile", paramLabel = "N", description = "Container tier: open files per process (default 4096).")
    Long nofile;

    @Mixin
    JsonOption json;

    @Override
    public Integer call() throws PaddockException {
        boolean custom = agent == null || agent.equals("custom");
        if (custom && command == null) {
            throw new ParameterException(spec.commandLine(), "Missing --cmd: the custom agent runs a command line of"
                    + " your own. Give --cmd CMD, or pick an agent with --agent " + OptionValues.AgentName.LIST + ".");
        }
        if (!custom && command != null) {
            throw new ParameterException(spec.commandLine(), "--cmd is for the custom agent only: Paddock builds the "
                    + agent + " agent's command line itself. Leave out --cmd, or use --agent custom --cmd CMD.");
        }
        if (custom && model != null) {
            throw new ParameterException(spec.commandLine(), "--model is for an agent preset (--agent claude, codex,"
                    + " gemini or aider); a custom command names its own model.");
        }
        var home = parent.root.resolveHome();
        Path target = repo.orCurrentDirectory();
        Long leaseMs = leaseMinutes == null ? null : leaseMinutes * 60_000L;
        SandboxView s = RunningPaddock.require(home).create(new CreateSandboxRequest(target.toString(), task, command,
                tier, branch, base, id, leaseMs, retries, network, image, cpus, memoryMiB, pids, nofile, agent, model));
        PrintWriter out = spec.commandLine().getOut();
        if (json.on()) {
            out.println(SandboxText.json(s));
        } else {
            out.print(SandboxText.created(s));
        }
        out.flush();
        return 0;
    }
}
