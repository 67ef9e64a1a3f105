package dev.paddock.sandbox;

import dev.paddock.container.ResourceLimits;
import java.nio.file.Path;
import java.util.Map;

/**
 * What a person or a script asks for when creating a sandbox. Null fields take defaults: the id and
 * branch are made from the task, the base is the repository's base branch, the lease and retries come
 * from the settings, the image is the repository's, the limits are {@link ResourceLimits#DEFAULTS}.
 * Built by naming its fields: {@link #builder()}, {@link #custom} for a custom command, {@link #toBuilder()}.
 *
 * @param repository any path inside the repository
 * @param task what the agent is asked to do (required)
 * @param agentCommand the command line a {@code custom} agent runs, with {@code /bin/sh -c} (required for it; refused
 *     with another preset, whose command line Paddock builds)
 * @param tier isolation tier; null means the agent's default ({@link Tier#WORKTREE} for a custom command, the
 *     preset's otherwise: {@code worktree} for Claude Code, whose hook asks Paddock, {@code namespace} for the others)
 * @param leaseMs lease in ms, or null for the default (15 min)
 * @param maxRetries automatic retries, or null for the default
 * @param network whether the namespace or container tier gives the agent a network
 * @param image container tier: the image to use instead of the repository's, or null
 * @param limits container tier: CPU, memory, pids and open-file limits, or null for the defaults; the sandbox keeps
 *     them as its {@link SandboxRecord#limits()}
 * @param agent the agent preset ({@code claude}, {@code codex}, {@code gemini}, {@code aider}, {@code custom}); null
 *     means {@code custom}
 * @param model the model for the preset's {@code --model}, or null for the agent's default
 * @param group the fan-out the sandbox is made in (its sandboxes share this id; {@link SandboxService#createGroup}
 *     sets it), or null for a sandbox on its own
 * @param engine container tier: the Docker engine to run on ({@code sandbox new --engine}), or null to let placement
 *     choose (the local engine when no other is registered)
 * @param engineLabels container tier: labels the chosen engine must carry ({@code --engine-label k=v}); never null
 */
public record NewSandbox(
        Path repository,
        String task,
        String agentCommand,
        Tier tier,
        String branch,
        String baseBranch,
        String id,
        Long leaseMs,
        Integer maxRetries,
        boolean network,
        String image,
        ResourceLimits limits,
        String agent,
        String model,
        String group,
        String engine,
        Map<String, String> engineLabels) {
    public NewSandbox {
        engineLabels = engineLabels == null ? Map.of() : Map.copyOf(engineLabels);
    }

    /** A request with only the required parts; everything else defaults. */
    public static NewSandbox of(Path repository, String task, String agentCommand) {
        return custom(repository, task, agentCommand).build();
    }

    /**
     * A builder for a {@code custom} agent (its own command line) on {@link Tier#WORKTREE}, the custom agent's
     * default tier; everything else unset (defaults).
     */
    public static Builder custom(Path repository, String task, String agentCommand) {
        return builder()
                .repository(repository)
                .task(task)
                .agentCommand(agentCommand)
                .tier(Tier.WORKTREE);
    }

    /** A builder with every field unset (null or false: the defaults). */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this record's fields, to make a changed copy. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.repository = repository;
        b.task = task;
        b.agentCommand = agentCommand;
        b.tier = tier;
        b.branch = branch;
        b.baseBranch = baseBranch;
        b.id = id;
        b.leaseMs = leaseMs;
        b.maxRetries = maxRetries;
        b.network = network;
        b.image = image;
        b.limits = limits;
        b.agent = agent;
        b.model = model;
        b.group = group;
        b.engine = engine;
        b.engineLabels = engineLabels;
        return b;
    }

    /** Builds a {@link NewSandbox} by naming its fields; unset ones are null or false (the defaults). */
    public static final class Builder {
        private Path repository;
        private String task;
        private String agentCommand;
        private Tier tier;
        private String branch;
        private String baseBranch;
        private String id;
        private Long leaseMs;
        private Integer maxRetries;
        private boolean network;
        private String image;
        private ResourceLimits limits;
        private String agent;
        private String model;
        private String group;
        private String engine;
        private Map<String, String> engineLabels;

        private Builder() {}

        public Builder repository(Path value) {
            this.repository = value;
            return this;
        }

        public Builder task(String value) {
            this.task = value;
            return this;
        }

        public Builder agentCommand(String value) {
            this.agentCommand = value;
            return this;
        }

        public Builder tier(Tier value) {
            this.tier = value;
            return this;
        }

        public Builder branch(String value) {
            this.branch = value;
            return this;
        }

        public Builder baseBranch(String value) {
            this.baseBranch = value;
            return this;
        }

        public Builder id(String value) {
            this.id = value;
            return this;
        }

        public Builder leaseMs(Long value) {
            this.leaseMs = value;
            return this;
        }

        public Builder maxRetries(Integer value) {
            this.maxRetries = value;
            return this;
        }

        public Builder network(boolean value) {
            this.network = value;
            return this;
        }

        public Builder image(String value) {
            this.image = value;
            return this;
        }

        public Builder limits(ResourceLimits value) {
            this.limits = value;
            return this;
        }

        public Builder agent(String value) {
            this.agent = value;
            return this;
        }

        public Builder model(String value) {
            this.model = value;
            return this;
        }

        public Builder group(String value) {
            this.group = value;
            return this;
        }

        public Builder engine(String value) {
            this.engine = value;
            return this;
        }

        public Builder engineLabels(Map<String, String> value) {
            this.engineLabels = value;
            return this;
        }

        public NewSandbox build() {
            return new NewSandbox(
                    repository,
                    task,
                    agentCommand,
                    tier,
                    branch,
                    baseBranch,
                    id,
                    leaseMs,
                    maxRetries,
                    network,
                    image,
                    limits,
                    agent,
                    model,
                    group,
                    engine,
                    engineLabels);
        }
    }
}
