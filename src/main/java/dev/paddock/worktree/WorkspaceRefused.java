package dev.paddock.worktree;

import dev.paddock.common.PaddockException;

/**
 * Files brought back from a workspace elsewhere were refused, and nothing of them was used: an entry would land
 * outside the workspace (an absolute path, {@code ..}, a link leading out, a path through a link), an entry is of a
 * kind a worktree has no use for (a device, a hard link), or the whole is larger than allowed.
 */
public final class WorkspaceRefused extends PaddockException {
    private static final long serialVersionUID = 1L;

    public WorkspaceRefused(String message) {
        super(message);
    }
}
