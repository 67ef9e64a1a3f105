package dev.paddock.sandbox;

/**
 * A valid request that the current state refuses: the sandbox is not in a state that allows it, or the
 * id, directory or branch it needs is taken (the API answers 409). The message says what is in the way.
 */
public class SandboxConflictException extends SandboxException {
    private static final long serialVersionUID = 1L;

    public SandboxConflictException(String message) {
        super(message);
    }
}
