package dev.paddock.api;

import java.time.Instant;
import java.util.List;

/**
 * What {@code GET /v1/merges/{id}/review} answers.
 *
 * @param entry          the entry
 * @param files          the policy or hook configuration files the branch changes
 * @param baseBranch     the base branch
 * @param baseCommit     base's tip the diff starts from (null when base does not exist)
 * @param reviewCommit   the branch commit under review: what an approval is bound to
 * @param diff           the unified diff of {@code files} from base to the reviewed commit
 * @param truncated      whether {@code diff} was cut
 * @param approvedCommit the commit a person approved last, or null
 * @param approvedBy     who, or null
 * @param approvedAt     when, or null
 */
public record MergeReviewView(
        MergeView entry,
        List<String> files,
        String baseBranch,
        String baseCommit,
        String reviewCommit,
        String diff,
        boolean truncated,
        String approvedCommit,
        String approvedBy,
        Instant approvedAt) {}
