package dev.paddock.merge;

import java.time.Instant;
import java.util.List;

/**
 * What a person reviews before the queue merges a branch that changes policy or hook configuration, and their
 * approval, as stored on the entry ({@code review_*} and {@code approved_*} columns).
 *
 * @param entryId        the merge queue entry
 * @param reviewCommit   the branch commit the review is for (the diff shown is base against it), or null before any
 * @param files          the configuration files that commit changes, repository-relative, sorted
 * @param approvedCommit the commit a person approved, or null: the queue goes on only while the branch is there
 * @param approvedBy     who approved it, or null
 * @param approvedAt     when, or null
 */
public record PolicyReview(
        long entryId,
        String reviewCommit,
        List<String> files,
        String approvedCommit,
        String approvedBy,
        Instant approvedAt) {
    public PolicyReview {
        files = files == null ? List.of() : List.copyOf(files);
    }

    /** Whether a person approved exactly {@code commit} (a full commit id). */
    public boolean approves(String commit) {
        return approvedCommit != null && commit != null && approvedCommit.equals(commit);
    }
}
