package dev.paddock.sandbox;

import dev.paddock.common.PaddockException;

/** A sandbox could not be created, started, stopped or removed; the message says why and what to do. */
public class SandboxException extends PaddockException {
    private static final long serialVersionUID = 1L;

    public SandboxException(String message) {
        super(message);
    }

    public SandboxException(String message, Throwable cause) {
        super(message, cause);
    }
}
