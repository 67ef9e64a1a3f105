package dev.paddock.sandbox;

import java.util.Locale;

/**
 * Isolation tiers: host process, bubblewrap namespace, or Docker container (see
 * docs/decisions/0009-three-isolation-tiers.md).
 */
public enum Tier {
    WORKTREE, NAMESPACE, CONTAINER;

    /** The stored and shown name, e.g. {@code namespace}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a stored name. @throws IllegalArgumentException for an unknown tier */
    public static Tier of(String id) {
        return valueOf(id.toUpperCase(Locale.ROOT));
    }
}
