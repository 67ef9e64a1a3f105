package dev.paddock.api;

import dev.paddock.common.PaddockException;

/** Paddock's API answered a request with an error status; the message is its {@code error} text. */
public class ApiAnswerException extends PaddockException {
    private static final long serialVersionUID = 1L;

    /** The code of a strict removal refused because work would be lost (409). */
    public static final String REMOVAL_REFUSED = "removal_refused";

    private final int status;
    private final String code;

    public ApiAnswerException(int status, String message) {
        this(status, message, null);
    }

    /** @param code the answer's {@code "code"} (a stable name of the kind of error), or null */
    public ApiAnswerException(int status, String message, String code) {
        super(message);
        this.status = status;
        this.code = code;
    }

    /** The answer's {@code "code"}, e.g. {@code removal_refused}; null when it had none. */
    public String code() {
        return code;
    }

    /** The HTTP status: 4xx or 5xx. */
    public int status() {
        return status;
    }
}
