package dev.paddock.merge;

import dev.paddock.common.PaddockException;

/** The merge queue's error, with a message for people and a kind the API maps to a status. */
public class MergeException extends PaddockException {
    private static final long serialVersionUID = 1L;

    /** What went wrong, for callers that answer differently (404, 409, 400). */
    public enum Kind {
        NOT_FOUND,
        CONFLICT,
        BAD_REQUEST,
        FAILED
    }

    private final Kind kind;

    public MergeException(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public MergeException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
