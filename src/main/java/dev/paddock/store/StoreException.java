package dev.paddock.store;

import dev.paddock.common.PaddockException;

/** The store could not be opened, migrated, read or written. The message is meant for the user. */
public class StoreException extends PaddockException {
    private static final long serialVersionUID = 1L;

    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }

    public StoreException(String message) {
        super(message);
    }
}
