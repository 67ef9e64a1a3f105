package dev.paddock.checkpoint;

import dev.paddock.sandbox.SandboxException;

/** A checkpoint could not be taken, listed or rolled back to; the message says why and what to do. */
public class CheckpointException extends SandboxException {
    private static final long serialVersionUID = 1L;

    public CheckpointException(String message) {
        super(message);
    }

    public CheckpointException(String message, Throwable cause) {
        super(message, cause);
    }
}
