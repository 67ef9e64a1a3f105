package dev.paddock.sandbox;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * Lifecycle states of a sandbox:
 * {@code pending → running → done | failed | timeout}; {@code failed|timeout → retrying → running}
 * while retries remain, else {@code awaiting_human}; {@code done → merging → merged | conflict};
 * {@code conflict → awaiting_human}; {@code merged → cleaning → closed}. Only {@code closed} is terminal.
 *
 * <p>Two kinds of edges are added for people: stopping a pending, running or retrying sandbox
 * ({@code → awaiting_human}), retrying one that waits ({@code awaiting_human|failed|timeout|done →
 * retrying}), and removing any sandbox that is not running ({@code → cleaning → closed}).
 * A finished sandbox whose worktree vanished also goes to a person ({@code done → awaiting_human}): its
 * work can no longer be merged from there.
 *
 * <p>A repository whose review is {@code required} (docs/decisions/0022-review-gate.md) holds a done sandbox with
 * new commits for a person ({@code done → review}, shown as "ready for review"): approving it puts it in the merge
 * queue ({@code review → merging}), a request for changes runs its agent again ({@code review → retrying}), and
 * discarding removes it ({@code review → cleaning}); its worktree vanishing sends it to a person
 * ({@code review → awaiting_human}).
 *
 * <p>The merge queue adds two more: a branch that failed its last merge attempt waits for a person
 * ({@code merging → awaiting_human}), and a person puts it back in the queue ({@code awaiting_human → merging}).
 */
public enum SandboxState {
    PENDING,
    RUNNING,
    DONE,
    REVIEW,
    FAILED,
    TIMEOUT,
    RETRYING,
    AWAITING_HUMAN,
    MERGING,
    MERGED,
    CONFLICT,
    CLEANING,
    CLOSED;

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

    /** Whether its change waits for a person's review (the "Ready for review" tile). */
    public boolean awaitsReview() {
        return this == REVIEW;
    }

    /** Whether it ended badly and may be retried. */
    public boolean isFailure() {
        return this == FAILED || this == TIMEOUT;
    }

    /** Whether an agent process may be alive in this state. */
    public boolean mayHaveProcess() {
        return this == RUNNING;
    }

    /** Whether the transition {@code this → next} is an edge of the state machine. */
    public boolean canBecome(SandboxState next) {
        return next(this).contains(next);
    }

    private static Set<SandboxState> next(SandboxState s) {
        return switch (s) {
            case PENDING -> EnumSet.of(RUNNING, AWAITING_HUMAN, CLEANING, FAILED);
            case RUNNING -> EnumSet.of(DONE, FAILED, TIMEOUT, AWAITING_HUMAN);
            case DONE -> EnumSet.of(MERGING, RETRYING, CLEANING, AWAITING_HUMAN, REVIEW);
            case REVIEW -> EnumSet.of(MERGING, RETRYING, CLEANING, AWAITING_HUMAN);
            case FAILED, TIMEOUT -> EnumSet.of(RETRYING, AWAITING_HUMAN, CLEANING);
            case RETRYING -> EnumSet.of(RUNNING, AWAITING_HUMAN, FAILED, CLEANING);
            case AWAITING_HUMAN -> EnumSet.of(RETRYING, CLEANING, MERGING);
            case MERGING -> EnumSet.of(MERGED, CONFLICT, DONE, AWAITING_HUMAN);
            case MERGED -> EnumSet.of(CLEANING);
            case CONFLICT -> EnumSet.of(AWAITING_HUMAN, MERGING, CLEANING);
            case CLEANING -> EnumSet.of(CLOSED);
            case CLOSED -> EnumSet.noneOf(SandboxState.class);
        };
    }

    /** The name stored and shown: lower case with underscores, e.g. {@code awaiting_human}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** What people are shown: the id with spaces, and {@code review} as "ready for review". */
    public String label() {
        return this == REVIEW ? "ready for review" : id().replace('_', ' ');
    }

    /** Parses a stored name. @throws IllegalArgumentException for an unknown state */
    public static SandboxState of(String id) {
        return valueOf(id.toUpperCase(Locale.ROOT));
    }
}
