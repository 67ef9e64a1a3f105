package dev.paddock.checkpoint;

import java.util.List;

/**
 * What a rollback to a checkpoint would do now (a dry run: nothing is written), from the same comparison the rollback
 * makes: the worktree's working state as it is against the checkpoint's tree. Paths are relative to the worktree and
 * sorted.
 *
 * @param sandboxId the sandbox
 * @param to the checkpoint it would roll back to
 * @param message that checkpoint's message
 * @param writtenBack paths changed since (content or executable bit): their content as the checkpoint has it is
 *     written back
 * @param restored paths deleted since: they come back
 * @param removed paths added since: they are deleted (a non-empty folder such as a submodule's is left)
 * @param stopsAgent whether its agent may be running and would be stopped first
 * @param nextCheckpoint the number the checkpoint taken first ("before rollback to N", which undoes it) would get
 * @param headNow the commit the worktree's HEAD names now (null on an unborn branch)
 * @param headThen the commit it named when the checkpoint was taken (null on an unborn branch): where
 *     {@code --reset-branch} would move the branch
 */
public record RollbackPlan(
        String sandboxId,
        int to,
        String message,
        List<String> writtenBack,
        List<String> restored,
        List<String> removed,
        boolean stopsAgent,
        int nextCheckpoint,
        String headNow,
        String headThen) {
    public RollbackPlan {
        writtenBack = List.copyOf(writtenBack);
        restored = List.copyOf(restored);
        removed = List.copyOf(removed);
    }

    /** Whether the branch could be reset too: it moved since the checkpoint, which knows where it was. */
    public boolean branchMoved() {
        return headThen != null && !headThen.equals(headNow);
    }

    /** Whether rolling back would change no file. */
    public boolean isEmpty() {
        return writtenBack.isEmpty() && restored.isEmpty() && removed.isEmpty();
    }

    /** How many paths it would touch. */
    public int size() {
        return writtenBack.size() + restored.size() + removed.size();
    }
}
