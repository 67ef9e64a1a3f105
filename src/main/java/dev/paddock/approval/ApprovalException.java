package dev.paddock.approval;

import dev.paddock.common.PaddockException;

/**
 * An approval request or decision that cannot be made as asked: bad input (no such sandbox, a relative
 * working directory), or a decision on a request that is no longer pending. The message is for the user.
 */
public class ApprovalException extends PaddockException {
    private static final long serialVersionUID = 1L;

    /** What went wrong, for callers that answer with a status (the API: 400, 404, 409). */
    public enum Kind {
        BAD_REQUEST,
        NOT_FOUND,
        CONFLICT
    }

    private final Kind kind;

    public ApprovalException(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public ApprovalException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    /** Bad input, a missing request or sandbox, or a request that is no longer pending. */
    public Kind kind() {
        return kind;
    }
}
