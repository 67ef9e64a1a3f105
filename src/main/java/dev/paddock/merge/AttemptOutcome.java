package dev.paddock.merge;

import java.util.List;

/**
 * How one attempt at a merge queue entry ended ({@link MergeAttempt#run}, {@link MergeAttempt#completeResolved}),
 * after the attempt recorded it on the entry. Failures and cancellation are values, not exceptions: base moved only
 * for {@link Merged}.
 */
sealed interface AttemptOutcome {

    /** Whether base now holds the branch (merged, or nothing was left to merge). */
    default boolean isSuccessful() {
        return this instanceof Merged;
    }

    /**
     * Base holds the branch: moved to {@code commit} by the compare-and-set, or left as it was because the branch
     * was already in it ({@code commit} null). The entry is merged.
     */
    record Merged(String commit, String result) implements AttemptOutcome {}

    /**
     * The entry waits in the conflict queue for a person: its merge conflicts in {@code paths} (worktree kept), or a
     * resolved merge could not be finished ({@code reason}; null for a fresh conflict). Base is unchanged.
     */
    record Conflicted(List<String> paths, String reason) implements AttemptOutcome {
        public Conflicted {
            paths = List.copyOf(paths);
        }
    }

    /**
     * The test command failed or timed out on the candidate (a counted failure; the entry is queued again or, after
     * the repository's maximum, failed for good). Base is unchanged.
     */
    record TestsFailed(String reason) implements AttemptOutcome {}

    /** A person cancelled the entry while it ran (its test run was killed). Base is unchanged. */
    record Cancelled() implements AttemptOutcome {}

    /**
     * The attempt failed for {@code reason}: git failed, the branch or base is gone, the checked-out tree could not
     * follow ({@code counts}: counted like failed tests), or base moved meanwhile or the checkout has uncommitted
     * changes (not {@code counts}: back in the queue without counting). Base is unchanged.
     */
    record Failed(String reason, boolean counts) implements AttemptOutcome {}

    /**
     * The entry waits for a person's review of its change to policy or hook configuration ({@link PolicyGate}).
     * Base is unchanged.
     */
    record HeldForReview(List<String> files) implements AttemptOutcome {
        public HeldForReview {
            files = List.copyOf(files);
        }
    }

    /** Nothing was attempted: the entry had left the state the attempt starts from (cancelled, reopened, ...). */
    record NotStarted(String why) implements AttemptOutcome {}
}
