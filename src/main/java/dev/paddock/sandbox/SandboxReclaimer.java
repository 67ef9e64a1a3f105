package dev.paddock.sandbox;

import dev.paddock.common.PaddockException;

/**
 * Reclaims sandboxes (BRIEF "Reclaim"): tells what removal would lose, and removes — stops the agent,
 * removes the worktree (strict by default), deletes the branch only once merged or on explicit request,
 * and closes the record (never deletes it). Never deletes a path outside {@code .worktrees/}.
 */
public final class SandboxReclaimer {
    /** What removing {@code id} would lose. */
    public RemovalPlan plan(String id) throws PaddockException {
        throw new UnsupportedOperationException("not built yet");
    }

    /**
     * Removes a sandbox.
     *
     * @param deleteBranch also delete its branch when it is not merged (a merged branch is deleted anyway)
     * @throws SandboxException in {@link RemoveMode#STRICT} when something would be lost (the message says what)
     */
    public SandboxRecord remove(String id, RemoveMode mode, boolean deleteBranch, String who) throws PaddockException {
        throw new UnsupportedOperationException("not built yet");
    }
}
