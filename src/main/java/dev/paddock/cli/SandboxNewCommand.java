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
@Command(
        name = "new",
        mixinStandardHelpOptions = true,
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

    @Option(
            names = "--agent",
            paramLabel = "AGENT",
            converter = OptionValues.AgentName.class,
            description = "claude, codex, gemini, aider or custom (default: custom, which runs --cmd).")
    String agent;

    @Option(
            names = "--agents",
            paramLabel = "AGENT:N,...",
            converter = OptionValues.AgentCountsSpec.class,
            description = "Fan out: the task to several agents at once, each in a sandbox and branch of its own"
                    + " (<branch>-<agent>-<n>), e.g. claude:2,codex:1; each count 1 to 20. Not with --agent.")
    dev.paddock.sandbox.AgentCounts agents;

    @Option(names = "--model", paramLabel = "M", description = "The agent's model (default: the agent's own).")
    String model;

    @Option(
            names = "--cmd",
            paramLabel = "CMD",
            description = "The custom agent's command line (run with /bin/sh -c in the worktree; the task is in"
                    + " $PADDOCK_TASK).")
    String command;

    @Option(
            names = "--tier",
            paramLabel = "TIER",
            converter = OptionValues.TierName.class,
            description = "worktree (default for --cmd and claude), namespace (bubblewrap; default for codex, gemini"
                    + " and aider) or container (Docker).")
    String tier;

    @Option(names = "--branch", paramLabel = "B", description = "Branch (default: agent/<words of the task>).")
    String branch;

    @Option(names = "--base", paramLabel = "B", description = "Base branch (default: the repository's).")
    String base;

    @Option(names = "--id", paramLabel = "ID", description = "Sandbox id (default: <words>-<yyyymmdd>-<nnn>).")
    String id;

    @Option(
            names = "--lease-minutes",
            paramLabel = "N",
            converter = OptionValues.LeaseMinutes.class,
            description = "Lease: minutes without a heartbeat before the agent times out (default 15).")
    Integer leaseMinutes;

    @Option(
            names = "--retries",
            paramLabel = "N",
            converter = OptionValues.Retries.class,
            description = "Automatic retries after a failure or timeout.")
    Integer retries;

    @Option(names = "--network", description = "Give a namespace or container sandbox a network.")
    boolean network;

    @Option(
            names = "--image",
            paramLabel = "IMAGE",
            description = "Container tier: the image to run in (default: the repository's). Never pulled.")
    String image;

    @Option(names = "--cpus", paramLabel = "N", description = "Container tier: CPUs, e.g. 1.5 (default 2).")
    Double cpus;

    @Option(
            names = "--memory-mib",
            paramLabel = "MIB",
            description = "Container tier: memory in MiB, swap included (default 4096).")
    Long memoryMiB;

    @Option(names = "--pids", paramLabel = "N", description = "Container tier: process limit (default 512).")
    Long pids;

    @Option(
            names = "--nofile",
            paramLabel = "N",
            description = "Container tier: open files per process (default 4096).")
    Long nofile;

    @Option(
            names = "--engine",
            paramLabel = "NAME",
            description = "Container tier: the Docker engine to run on (paddock engine list; default: the one with the"
                    + " most room).")
    String engine;

    @Option(
            names = "--engine-label",
            paramLabel = "K=V",
            description = "Container tier: place it on an engine with this label; repeatable.")
    java.util.Map<String, String> engineLabels;

    @Mixin
    JsonOption json;

    @Override
    public Integer call() throws PaddockException {
        if ((engine != null || (engineLabels != null && !engineLabels.isEmpty()))
                && tier != null
                && !tier.equals("container")) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--engine and --engine-label are for the container tier, not --tier " + tier
                            + ": add --tier container, or leave them out.");
        }
        if (agents != null) {
            return fanOut();
        }
        boolean custom = agent == null || agent.equals("custom");
        if (custom && command == null) {
            throw new ParameterException(
                    spec.commandLine(),
                    "Missing --cmd: the custom agent runs a command line of"
                            + " your own. Give --cmd CMD, or pick an agent with --agent " + OptionValues.AgentName.LIST
                            + ".");
        }
        if (!custom && command != null) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--cmd is for the custom agent only: Paddock builds the " + agent
                            + " agent's command line itself. Leave out --cmd, or use --agent custom --cmd CMD.");
        }
        if (custom && model != null) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--model is for an agent preset (--agent claude, codex,"
                            + " gemini or aider); a custom command names its own model.");
        }
        var home = parent.root.resolveHome();
        Path target = repo.orCurrentDirectory();
        Long leaseMs = leaseMinutes == null ? null : leaseMinutes * 60_000L;
        SandboxView s = RunningPaddock.require(home)
                .create(new CreateSandboxRequest(
                        target.toString(),
                        task,
                        command,
                        tier,
                        branch,
                        base,
                        id,
                        leaseMs,
                        retries,
                        network,
                        image,
                        cpus,
                        memoryMiB,
                        pids,
                        nofile,
                        agent,
                        model,
                        null,
                        engine,
                        engineLabels));
        PrintWriter out = spec.commandLine().getOut();
        if (json.on()) {
            out.println(SandboxText.json(s));
        } else {
            out.print(SandboxText.created(s));
        }
        out.flush();
        return 0;
    }

    /** {@code --agents}: the usage checked here (exit 2), the rest by the running Paddock. */
    private int fanOut() throws PaddockException {
        if (agent != null) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--agent and --agents cannot go together: --agent makes"
                            + " one sandbox, --agents a fan-out (e.g. --agents " + agent + ":2).");
        }
        boolean allCustom = agents.agents().stream().allMatch("custom"::equals);
        boolean anyCustom = agents.agents().contains("custom");
        if (command != null && !allCustom) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--cmd is for the custom agent only: Paddock builds the"
                            + " other agents' command lines itself. Leave out --cmd, or fan out to custom alone.");
        }
        if (anyCustom && command == null) {
            throw new ParameterException(
                    spec.commandLine(), "Missing --cmd: the custom agent runs a command line of" + " your own.");
        }
        if (model != null && (agents.entries().size() > 1 || allCustom)) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--model is one agent's model: give it with a fan-out to"
                            + " one agent preset (e.g. --agents claude:3 --model M), or leave it out.");
        }
        Path target = repo.orCurrentDirectory();
        Long leaseMs = leaseMinutes == null ? null : leaseMinutes * 60_000L;
        dev.paddock.api.SandboxGroupView g = RunningPaddock.require(parent.root.resolveHome())
                .createGroup(new CreateSandboxRequest(
                        target.toString(),
                        task,
                        command,
                        tier,
                        branch,
                        base,
                        id,
                        leaseMs,
                        retries,
                        network,
                        image,
                        cpus,
                        memoryMiB,
                        pids,
                        nofile,
                        null,
                        model,
                        agents.toString(),
                        engine,
                        engineLabels));
        PrintWriter out = spec.commandLine().getOut();
        out.print(json.on() ? SandboxText.json(g) + "\n" : SandboxText.group(g));
        out.flush();
        return 0;
    }
}
