package dev.paddock.publish;

import dev.paddock.common.PaddockException;

/** A push or a pull request could not be made; the message says why and what to do (never a credential). */
public final class PublishException extends PaddockException {
    private static final long serialVersionUID = 1L;

    /** What went wrong, for the API's status. */
    public enum Kind {
        /** What was asked cannot be: no remote, an unknown one, no branch. */
        BAD_REQUEST,
        /** Something this machine lacks: the GitHub CLI, or its sign-in. */
        UNAVAILABLE,
        /** git or gh ran and failed (their message, redacted). */
        FAILED
    }

    private final Kind kind;

    public PublishException(Kind kind, String message) {
        super(Redaction.redact(message));
        this.kind = kind;
    }

    public PublishException(Kind kind, String message, Throwable cause) {
        super(Redaction.redact(message), cause);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
