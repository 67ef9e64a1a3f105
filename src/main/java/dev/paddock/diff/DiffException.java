package dev.paddock.diff;

import dev.paddock.common.PaddockException;

/** A diff that cannot be given as asked: a bad path or a commit not on the sandbox's branch (the API answers 400). */
public class DiffException extends PaddockException {
    private static final long serialVersionUID = 1L;

    public DiffException(String message) {
        super(message);
    }

    public DiffException(String message, Throwable cause) {
        super(message, cause);
    }
}
