package dev.paddock.worktree;

import dev.paddock.common.PaddockException;

/** A git operation failed or git refused the input; the message says which and why. */
public class GitException extends PaddockException {
    private static final long serialVersionUID = 1L;

    public GitException(String message) {
        super(message);
    }

    public GitException(String message, Throwable cause) {
        super(message, cause);
    }
}
