package dev.paddock.ui.conflicts;

import java.time.Instant;

/**
 * One entry of the conflict queue as the dashboard lists it: a merge request whose update or merge
 * conflicted and waits for a person.
 *
 * @param mergeRequestId the merge request (what {@link ConflictBackend#conflicts} takes)
 * @param sandboxId      the sandbox whose branch conflicted
 * @param branch         the agent's branch (theirs)
 * @param files          number of conflicted files
 * @param safeHunks      conflict hunks with a safe class (a resolution is proposed)
 * @param humanHunks     conflict hunks (and files without text) only a person can resolve
 * @param since          when the entry entered the conflict queue (its age is shown from it)
 */
public record ConflictQueueRow(
        long mergeRequestId,
        String sandboxId,
        String branch,
        int files,
        int safeHunks,
        int humanHunks,
        Instant since) {}
