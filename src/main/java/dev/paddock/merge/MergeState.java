package dev.paddock.merge;

import java.util.Locale;

/**
 * State of a merge queue entry (column {@code merge_requests.state}): {@code queued → running → merged |
 * conflict | failed | queued}; a person cancels ({@code → cancelled}) or retries ({@code failed | conflict |
 * cancelled → queued}).
 */
public enum MergeState {
    QUEUED, RUNNING, MERGED, CONFLICT, FAILED, CANCELLED;

    /** Whether the queue will do nothing more with it unless a person retries it. */
    public boolean isFinished() {
        return this == MERGED || this == FAILED || this == CANCELLED;
    }

    /** Whether a person may retry it. */
    public boolean isRetryable() {
        return this == FAILED || this == CONFLICT || this == CANCELLED;
    }

    /** The stored name, lower case. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a stored name. @throws IllegalArgumentException for an unknown one */
    public static MergeState of(String id) {
        return valueOf(id.toUpperCase(Locale.ROOT));
    }
}
