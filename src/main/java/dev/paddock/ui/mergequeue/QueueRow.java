package dev.paddock.ui.mergequeue;

import dev.paddock.merge.MergeEntry;
import dev.paddock.merge.MergeState;

/**
 * One entry as the merge queue tab shows it, an immutable snapshot.
 *
 * @param entry       the entry as the store had it
 * @param position    0 for the running entry, 1, 2, ... for queued ones in the queue's order; null for history
 * @param maxAttempts the repository's failed attempts before an entry waits for a person
 * @param testLogPresent whether the test log file of its last run existed when it was read
 */
public record QueueRow(MergeEntry entry, Integer position, int maxAttempts, boolean testLogPresent) {
    /** The entry's id (the rows' key). */
    public long id() {
        return entry.id();
    }

    /** Whether a person may cancel it now (running, queued, or waiting in the conflict queue). */
    public boolean cancellable() {
        MergeState s = entry.state();
        return s == MergeState.RUNNING || s == MergeState.QUEUED || s == MergeState.CONFLICT;
    }

    /** Whether a person may put it back in the queue (failed, cancelled or conflicted). */
    public boolean retryable() {
        return entry.state().isRetryable();
    }

    /** Whether it waits for a person to approve or reject its change to policy or hook configuration. */
    public boolean awaitsReview() {
        return entry.state() == MergeState.POLICY_REVIEW;
    }

    /** Whether there is a test log to open (read off the FX thread, with the entry). */
    public boolean hasTestLog() {
        return testLogPresent;
    }
}
