package dev.paddock.approval;

import java.util.Locale;

/**
 * States of an approval request: {@code pending} until exactly one final state is reached (compare-and-set
 * in {@link ApprovalStore#finish}); nothing leaves a final state.
 */
public enum ApprovalState {
    /** Waits for a person (the policy asked). */
    PENDING,
    /** Allowed, by the policy or a person. */
    APPROVED,
    /** Refused, by the policy or a person. */
    DENIED,
    /** Nobody decided before its expiry: refused. */
    EXPIRED,
    /** The requester went away or its sandbox stopped before anyone decided: nobody waits for an answer. */
    CANCELLED;

    /** Whether nothing more will happen to the request. */
    public boolean isFinal() {
        return this != PENDING;
    }

    /** The name stored and shown, lower case. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses a stored or requested name.
     *
     * @throws IllegalArgumentException for an unknown state
     */
    public static ApprovalState of(String id) {
        return valueOf(id.strip().toUpperCase(Locale.ROOT));
    }
}
