package dev.paddock.merge;

import java.util.Locale;

/** The step a running entry is in (column {@code merge_requests.step}), in this order. */
public enum MergeStep {
    /** Bringing the branch up to date with base in the private merge worktree. */
    UPDATING,
    /** Running the repository's test command on the candidate result. */
    TESTING,
    /** Committing the merge and moving base (compare-and-set). */
    MERGING;

    /** The stored name, lower case. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a stored name, or null for null. */
    public static MergeStep of(String id) {
        return id == null ? null : valueOf(id.toUpperCase(Locale.ROOT));
    }
}
