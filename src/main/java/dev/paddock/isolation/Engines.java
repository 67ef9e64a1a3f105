package dev.paddock.isolation;

import dev.paddock.container.ResourceLimits;
import java.util.Map;
import java.util.Optional;

/**
 * The container tier's engines by name (see docs/decisions/0029-several-docker-engines.md): the runtime of each, and
 * where a new container sandbox goes. {@value #LOCAL} (or null) is the engine the docker CLI would use.
 */
public interface Engines {
    /** The implicit engine's name. */
    String LOCAL = "local";

    /** The runtime of the engine {@code name} (null or {@value #LOCAL}: the local one). */
    IsolationRuntime runtime(String name);

    /**
     * The engine a new container sandbox runs on: {@code pinned} when given (it must exist), else among the engines
     * that answer and carry every one of {@code labels}, the one with the most room left after {@code limits}.
     *
     * @return the engine's name, or null for {@value #LOCAL}
     * @throws IsolationException when the pinned engine is unknown, or no engine fits the labels or answers
     */
    String place(String pinned, Map<String, String> labels, ResourceLimits limits) throws IsolationException;

    /** One engine: the local runtime, nothing to choose. */
    static Engines single(IsolationRuntime local) {
        return new Engines() {
            @Override
            public IsolationRuntime runtime(String name) {
                return local;
            }

            @Override
            public String place(String pinned, Map<String, String> labels, ResourceLimits limits)
                    throws IsolationException {
                if ((pinned != null && !pinned.equals(LOCAL)) || !labels.isEmpty()) {
                    throw new IsolationException("This Paddock has no engines besides local.");
                }
                return null;
            }
        };
    }

    /** Whether {@code name} is the local engine. */
    static boolean isLocal(String name) {
        return name == null || name.equals(LOCAL);
    }

    /** The name as stored: null for local. */
    static Optional<String> stored(String name) {
        return isLocal(name) ? Optional.empty() : Optional.of(name);
    }
}
