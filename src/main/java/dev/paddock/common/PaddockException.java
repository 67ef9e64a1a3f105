package dev.paddock.common;

/**
 * Root of Paddock's checked exceptions. The message is written for the user (it is shown as is in
 * the panel and printed by the CLI); the cause, when there is one, carries the technical detail.
 */
public class PaddockException extends Exception {
    private static final long serialVersionUID = 1L;

    public PaddockException(String message) {
        super(message);
    }

    public PaddockException(String message, Throwable cause) {
        super(message, cause);
    }
}
