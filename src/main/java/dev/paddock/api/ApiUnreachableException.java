package dev.paddock.api;

import dev.paddock.common.PaddockException;

/** Nothing answered at Paddock's API address (no connection, or no answer in time). */
public class ApiUnreachableException extends PaddockException {
    private static final long serialVersionUID = 1L;

    public ApiUnreachableException(String message, Throwable cause) {
        super(message, cause);
    }
}
