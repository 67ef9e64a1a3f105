package dev.paddock.container;

import java.time.Instant;
import java.util.Map;

/**
 * A container that carries Paddock's label, as the engine lists it.
 *
 * @param id full container id
 * @param sandboxId the value of its {@code paddock.sandbox} label
 * @param repository the value of its {@code paddock.repo} label (the repository's path), or null
 * @param state the engine's state word: {@code created}, {@code running}, {@code exited}, ...
 * @param createdAt when the engine created it
 * @param labels all its labels
 * @param name its name without the leading slash, or null
 * @param engine the registered engine it is on ({@link EngineRegistry}), or null for the local one
 */
public record LabelledContainer(
        String id,
        String sandboxId,
        String repository,
        String state,
        Instant createdAt,
        Map<String, String> labels,
        String name,
        String engine) {

    /** A container of the local engine. */
    public LabelledContainer(
            String id,
            String sandboxId,
            String repository,
            String state,
            Instant createdAt,
            Map<String, String> labels,
            String name) {
        this(id, sandboxId, repository, state, createdAt, labels, name, null);
    }

    /** The same container, found on the registered engine {@code engine}. */
    public LabelledContainer on(String engine) {
        return new LabelledContainer(id, sandboxId, repository, state, createdAt, labels, name, engine);
    }

    /** A container whose name is not known. */
    public LabelledContainer(
            String id,
            String sandboxId,
            String repository,
            String state,
            Instant createdAt,
            Map<String, String> labels) {
        this(id, sandboxId, repository, state, createdAt, labels, null);
    }

    /** The home that made it ({@code paddock.home}), or null for a container of a Paddock from before that label. */
    public String home() {
        return labels.get(DockerContainers.HOME_LABEL);
    }

    /** Whether it is running (or paused, or restarting: its processes exist). */
    public boolean running() {
        return "running".equals(state) || "paused".equals(state) || "restarting".equals(state);
    }
}
