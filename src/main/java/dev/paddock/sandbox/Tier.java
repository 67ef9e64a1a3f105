package dev.paddock.sandbox;

import dev.paddock.isolation.IsolationRuntime;
import dev.paddock.isolation.IsolationRuntimes;
import java.util.Locale;

/**
 * Isolation tiers: host process, bubblewrap namespace, or Docker container (see
 * docs/decisions/0009-three-isolation-tiers.md).
 */
public enum Tier {
    WORKTREE,
    NAMESPACE,
    CONTAINER;

    /** The stored and shown name, e.g. {@code namespace}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The runtime that runs this tier's sandboxes and their merge tests: picked here, once. */
    public IsolationRuntime runtimeIn(IsolationRuntimes runtimes, String engine) {
        return this == CONTAINER && !dev.paddock.isolation.Engines.isLocal(engine)
                ? runtimes.engines().runtime(engine)
                : runtimeIn(runtimes);
    }

    /** This tier's runtime in {@code runtimes}, the container tier's on the local engine. */
    public IsolationRuntime runtimeIn(IsolationRuntimes runtimes) {
        return switch (this) {
            case WORKTREE -> runtimes.host();
            case NAMESPACE -> runtimes.bubblewrap();
            case CONTAINER -> runtimes.container();
        };
    }

    /**
     * Whether this tier's agents reach Paddock's API through their sandbox's own Unix socket (relayed to the
     * loopback, docs/decisions/0019-hook-channel-per-sandbox-socket.md) rather than the loopback itself.
     */
    public boolean dialsSandboxSocket() {
        return switch (this) {
            case WORKTREE -> false;
            case NAMESPACE, CONTAINER -> true;
        };
    }

    /** Parses a stored name. @throws IllegalArgumentException for an unknown tier */
    public static Tier of(String id) {
        return valueOf(id.toUpperCase(Locale.ROOT));
    }
}
