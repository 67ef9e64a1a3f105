package dev.paddock.merge.conflict;

import dev.paddock.common.PaddockException;

/**
 * Classifying a merge's conflicts failed. {@link #isBadInput()} tells a caller's mistake (the path is not a
 * git repository, a revision does not name a commit) from a failure to read the repository.
 */
public final class ConflictClassifyException extends PaddockException {
    private static final long serialVersionUID = 1L;

    private final boolean badInput;

    ConflictClassifyException(String message, boolean badInput, Throwable cause) {
        super(message, cause);
        this.badInput = badInput;
    }

    /** Whether the input was wrong (unknown revision, not a repository) rather than the repository unreadable. */
    public boolean isBadInput() {
        return badInput;
    }
}
