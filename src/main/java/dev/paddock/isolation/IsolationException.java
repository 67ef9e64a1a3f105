package dev.paddock.isolation;

import dev.paddock.common.PaddockException;

/** An isolated run cannot be started, watched or stopped (the message says why, for people). */
public class IsolationException extends PaddockException {
    public IsolationException(String message) {
        super(message);
    }

    public IsolationException(String message, Throwable cause) {
        super(message, cause);
    }
}
