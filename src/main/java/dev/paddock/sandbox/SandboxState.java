package dev.paddock.sandbox;

import java.util.Locale;

/**
 * Lifecycle states of a sandbox (BRIEF "Sandbox lifecycle", seed 000 §6.7.6):
 * {@code pending → running → done | failed | timeout}; {@code failed|timeout → retrying → running}
 * while retries remain, else {@code awaiting_human}; {@code done → merging → merged | conflict};
 * {@code conflict → awaiting_human}; {@code merged → cleaning → closed}. Only {@code closed} is terminal.
 */
public enum SandboxState {
    PENDING, RUNNING, DONE, FAILED, TIMEOUT, RETRYING, AWAITING_HUMAN, MERGING, MERGED, CONFLICT, CLEANING, CLOSED;

    /** Whether nothing more will happen to the sandbox. */
    public boolean isTerminal() {
        return this == CLOSED;
    }

    /** Whether an agent or Paddock is working on it right now (the "Active" tile). */
    public boolean isActive() {
        return this == RUNNING || this == RETRYING || this == MERGING || this == CLEANING;
    }

    /** Whether it waits for a person (the "Awaiting human" tile). */
    public boolean needsHuman() {
        return this == AWAITING_HUMAN || this == CONFLICT;
    }

    /** Whether it ended badly and may be retried. */
    public boolean isFailure() {
        return this == FAILED || this == TIMEOUT;
    }

    /** The name stored and shown: lower case with underscores, e.g. {@code awaiting_human}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a stored name. @throws IllegalArgumentException for an unknown state */
    public static SandboxState of(String id) {
        return valueOf(id.toUpperCase(Locale.ROOT));
    }
}
