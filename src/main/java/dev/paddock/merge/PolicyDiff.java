package dev.paddock.merge;

import java.util.List;

/**
 * What a person reviews for an entry waiting in {@link MergeState#POLICY_REVIEW}: the configuration files its
 * branch changes and their diff from base's tip to the commit under review ({@code git diff}, unified, text).
 *
 * @param entryId      the entry
 * @param baseBranch   the base branch's name
 * @param baseCommit   base's tip the diff starts from, or null when base does not exist
 * @param reviewCommit the branch commit under review (what an approval is bound to)
 * @param files        the configuration files it changes, repository-relative, sorted
 * @param text         the unified diff of those files, cut after {@link PolicyGate#MAX_DIFF_CHARS} characters
 * @param truncated    whether {@code text} was cut
 */
public record PolicyDiff(
        long entryId,
        String baseBranch,
        String baseCommit,
        String reviewCommit,
        List<String> files,
        String text,
        boolean truncated) {
    public PolicyDiff {
        files = List.copyOf(files);
    }
}
