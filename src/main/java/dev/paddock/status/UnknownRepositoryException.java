package dev.paddock.status;

import dev.paddock.common.PaddockException;

/** The repository asked about is not open here (or none is). The message says what to do. */
public class UnknownRepositoryException extends PaddockException {
    private static final long serialVersionUID = 1L;

    public UnknownRepositoryException(String message) {
        super(message);
    }
}
