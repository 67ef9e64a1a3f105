package dev.paddock.layer;

import dev.paddock.common.PaddockException;

/** A shared layer cannot be configured, built, shown or read; the message says why, for people. */
public class LayerException extends PaddockException {
    public LayerException(String message) {
        super(message);
    }

    public LayerException(String message, Throwable cause) {
        super(message, cause);
    }
}
