package dev.paddock.api;

import dev.paddock.container.ResourceLimits;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.Tier;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The body of {@code POST /v1/sandboxes}. Only {@code repo}, {@code task} and either {@code command} (a custom
 * agent) or {@code agent} (a preset) are required; the rest take Paddock's defaults (see {@link NewSandbox}).
 *
 * @param repo absolute path of the repository (or of any folder inside it)
 * @param command the custom agent's shell command line (refused with another agent)
 * @param tier {@code worktree}, {@code namespace} or {@code container} (default: the agent's; {@code worktree} for
 *     a custom command and Claude Code)
 * @param branch branch name (default: from the task)
 * @param base base branch (default: the repository's)
 * @param id sandbox id (default: from the task and the day)
 * @param leaseMs lease in ms (default: the setting, 15 min)
 * @param maxRetries automatic retries (default: the setting)
 * @param network whether a namespace or container sandbox gets a network (default false)
 * @param image container tier: the image instead of the repository's (default: the repository's)
 * @param cpus container tier: CPUs, e.g. 1.5 (default 2)
 * @param memoryMiB container tier: memory in MiB, memory + swap alike (default 4096)
 * @param pids container tier: process limit (default 512)
 * @param nofile container tier: open files per process (default 4096)
 * @param agent {@code claude}, {@code codex}, {@code gemini}, {@code aider} or {@code custom} (default: custom)
 * @param model the preset's model (default: the agent's own)
 * @param agents a fan-out instead of one sandbox: agents and counts, {@code "claude:2,codex:1"} (not with
 *     {@code agent}); {@code id} and {@code branch} then name the group and the base of its branches
 * @param engine container tier: the Docker engine to run on (default: placement's choice, local when it is alone)
 * @param engineLabels container tier: labels the chosen engine must carry
 */
public record CreateSandboxRequest(
        String repo,
        String task,
        String command,
        String tier,
        String branch,
        String base,
        String id,
        Long leaseMs,
        Integer maxRetries,
        Boolean network,
        String image,
        Double cpus,
        Long memoryMiB,
        Long pids,
        Long nofile,
        String agent,
        String model,
        String agents,
        String engine,
        java.util.Map<String, String> engineLabels) {

    /** A request with the engine left to placement. */
    public CreateSandboxRequest(
            String repo,
            String task,
            String command,
            String tier,
            String branch,
            String base,
            String id,
            Long leaseMs,
            Integer maxRetries,
            Boolean network,
            String image,
            Double cpus,
            Long memoryMiB,
            Long pids,
            Long nofile,
            String agent,
            String model,
            String agents) {
        this(
                repo,
                task,
                command,
                tier,
                branch,
                base,
                id,
                leaseMs,
                maxRetries,
                network,
                image,
                cpus,
                memoryMiB,
                pids,
                nofile,
                agent,
                model,
                agents,
                null,
                null);
    }

    /** A request for one sandbox. */
    public CreateSandboxRequest(
            String repo,
            String task,
            String command,
            String tier,
            String branch,
            String base,
            String id,
            Long leaseMs,
            Integer maxRetries,
            Boolean network,
            String image,
            Double cpus,
            Long memoryMiB,
            Long pids,
            Long nofile,
            String agent,
            String model) {
        this(
                repo,
                task,
                command,
                tier,
                branch,
                base,
                id,
                leaseMs,
                maxRetries,
                network,
                image,
                cpus,
                memoryMiB,
                pids,
                nofile,
                agent,
                model,
                null);
    }

    /** A request for a custom agent (its own command line). */
    public CreateSandboxRequest(
            String repo,
            String task,
            String command,
            String tier,
            String branch,
            String base,
            String id,
            Long leaseMs,
            Integer maxRetries,
            Boolean network,
            String image,
            Double cpus,
            Long memoryMiB,
            Long pids,
            Long nofile) {
        this(
                repo,
                task,
                command,
                tier,
                branch,
                base,
                id,
                leaseMs,
                maxRetries,
                network,
                image,
                cpus,
                memoryMiB,
                pids,
                nofile,
                null,
                null,
                null);
    }

    /** Whether this asks for a fan-out ({@code agents} given). */
    boolean fanOut() {
        return agents != null;
    }

    /**
     * The agents of a fan-out.
     *
     * @throws ApiError 400 when {@code agent} is given too, or the text is not {@code AGENT:COUNT,...}
     */
    dev.paddock.sandbox.AgentCounts agentCounts() throws ApiError {
        if (agent != null && !agent.isBlank()) {
            throw ApiError.badRequest(
                    "give agent (one sandbox) or agents (a fan-out such as \"claude:2,codex:1\")," + " not both");
        }
        try {
            return dev.paddock.sandbox.AgentCounts.parse(agents);
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest("agents: " + e.getMessage());
        }
    }

    /**
     * The request for {@link dev.paddock.sandbox.SandboxService#create}.
     *
     * @throws ApiError 400 when the repository is missing, relative or not a path, or the tier is unknown
     */
    NewSandbox toNewSandbox() throws ApiError {
        if (repo == null || repo.isBlank()) {
            throw ApiError.badRequest("repo is missing: give the absolute path of the repository");
        }
        Path path = HttpIo.repoPath(repo);
        return NewSandbox.builder()
                .repository(path)
                .task(task)
                .agentCommand(command)
                .tier(parsedTier())
                .agent(agent)
                .model(model)
                .branch(branch)
                .baseBranch(base)
                .id(id)
                .leaseMs(leaseMs)
                .maxRetries(maxRetries)
                .network(Boolean.TRUE.equals(network))
                .image(image == null || image.isBlank() ? null : image.strip())
                .limits(limits())
                .engine(engine == null || engine.isBlank() ? null : engine.strip())
                .engineLabels(engineLabels)
                .build();
    }

    /** The container limits asked for, defaults for the rest; null when none is asked for. */
    private ResourceLimits limits() throws ApiError {
        if (cpus == null && memoryMiB == null && pids == null && nofile == null) {
            return null;
        }
        try {
            return ResourceLimits.orDefaults(
                    cpus == null ? null : Math.round(cpus * ResourceLimits.ONE_CPU),
                    memoryMiB == null ? null : memoryMiB * ResourceLimits.MIB,
                    pids,
                    nofile);
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest(e.getMessage());
        }
    }

    private Tier parsedTier() throws ApiError {
        if (tier == null || tier.isBlank()) {
            return null; // the agent's default
        }
        try {
            return Tier.of(tier.strip().toLowerCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest("unknown tier \"" + tier + "\": use worktree, namespace or container");
        }
    }
}
