package dev.paddock.policy;

import dev.paddock.common.PaddockException;

/** A policy or settings file that cannot be read or is not valid JSON; the message names file, line, column. */
public final class PolicyFileException extends PaddockException {
    private static final long serialVersionUID = 1L;

    public PolicyFileException(String message, Throwable cause) {
        super(message, cause);
    }
}
