package dev.paddock.compare;

import java.util.List;

/**
 * A fan-out's sandboxes side by side.
 *
 * @param group the group's id
 * @param task the task its sandboxes were given (the first one's)
 * @param baseBranch the branch they started from
 * @param baseCommit the commit they started from, which each one's commits and lines are counted since
 * @param members one row per sandbox, by id
 */
public record GroupComparison(
        String group, String task, String baseBranch, String baseCommit, List<MemberResult> members) {
    public GroupComparison {
        members = List.copyOf(members);
    }
}
