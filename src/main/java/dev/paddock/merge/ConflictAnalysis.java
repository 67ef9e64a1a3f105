package dev.paddock.merge;

import dev.paddock.merge.conflict.ConflictReport;
import java.nio.file.Path;

/**
 * The port through which the merge queue learns what conflicts and how. The queue calls it
 * when its merge step stops on conflicts; the three-way view shows its report. {@link MergeTreeConflicts} is
 * the minimal implementation (conflicted paths and their kinds, no hunks); the conflict classifier of
 * {@code merge.conflict} replaces it in {@code Wiring} once it exists.
 */
public interface ConflictAnalysis {
    /**
     * The conflicts of merging {@code theirs} into {@code ours} in the repository, without changing it.
     *
     * @param repo the repository's main worktree (or any worktree of it)
     * @param ours commit id of ours (base's tip)
     * @param theirs commit id of theirs (the agent's branch tip)
     * @throws MergeException when git cannot compute the merge (unknown commits, git missing)
     */
    ConflictReport classify(Path repo, String ours, String theirs) throws MergeException;
}
