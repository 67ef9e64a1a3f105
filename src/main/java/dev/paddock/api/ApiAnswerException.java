package dev.paddock.api;

import dev.paddock.common.PaddockException;

/** Paddock's API answered a request with an error status; the message is its {@code error} text. */
public class ApiAnswerException extends PaddockException {
    private static final long serialVersionUID = 1L;

    private final int status;

    public ApiAnswerException(int status, String message) {
        super(message);
        this.status = status;
    }

    /** The HTTP status: 4xx or 5xx. */
    public int status() {
        return status;
    }
}
