package dev.paddock.container;

import dev.paddock.common.PaddockException;

/**
 * A container operation failed: the engine does not answer, an image is missing, the engine refused the
 * container. The message says which, for the user; the cause carries docker-java's detail.
 */
public class ContainerException extends PaddockException {
    private static final long serialVersionUID = 1L;

    public ContainerException(String message) {
        super(message);
    }

    public ContainerException(String message, Throwable cause) {
        super(message, cause);
    }
}
