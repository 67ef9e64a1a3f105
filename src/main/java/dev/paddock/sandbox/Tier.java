package dev.paddock.sandbox;

import java.util.Locale;

/** Isolation tiers (BRIEF "Isolation tiers"): host process, bubblewrap namespace, or Docker container. */
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
