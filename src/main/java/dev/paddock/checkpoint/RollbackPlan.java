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
 */
public record RollbackPlan(
        String sandboxId,
        int to,
        String message,
        List<String> writtenBack,
        List<String> restored,
        List<String> removed,
        boolean stopsAgent,
        int nextCheckpoint) {
    public RollbackPlan {
        writtenBack = List.copyOf(writtenBack);
        restored = List.copyOf(restored);
        removed = List.copyOf(removed);
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
