package dev.paddock.api;

/**
 * A request the API answers with an error status and {@code {"error": message}}: thrown by a route,
 * answered by {@link ApiServer}. The message is meant for the person or script that sent the request.
 */
final class ApiError extends Exception {
    private static final long serialVersionUID = 1L;

    private final int status;
    private final String code;

    ApiError(int status, String message) {
        this(status, message, null);
    }

    /** @param code a stable name for the kind of error that scripts can test (e.g. {@code removal_refused}), or null */
    ApiError(int status, String message, String code) {
        super(message);
        this.status = status;
        this.code = code;
    }

    /** The stable name of this kind of error, answered as {@code "code"}; null when there is none. */
    String code() {
        return code;
    }

    /** The HTTP status: 400, 401, 403, 404, 405, 409 or 500. */
    int status() {
        return status;
    }

    static ApiError badRequest(String message) {
        return new ApiError(400, message);
    }

    static ApiError forbidden(String message) {
        return new ApiError(403, message);
    }

    static ApiError notFound(String message) {
        return new ApiError(404, message);
    }

    static ApiError conflict(String message) {
        return new ApiError(409, message);
    }
}
