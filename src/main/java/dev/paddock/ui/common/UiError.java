package dev.paddock.ui.common;

import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * An error as the panel shows it: one short message for people, and the details (the chain of causes
 * and the stack trace) behind a "Details" toggle.
 *
 * @param message what went wrong, in the words of the exception meant for the user
 * @param details the technical detail: every cause's message, then the full stack trace
 */
public record UiError(String message, String details) {

    /** The error of a failed command. A {@code PaddockException}'s message is already meant for people. */
    public static UiError of(Throwable error) {
        return of(null, error);
    }

    /**
     * The error of a failed command, with a prefix saying what was being done ("Cannot stop x").
     *
     * @param doing what the user asked for, or null
     */
    public static UiError of(String doing, Throwable error) {
        String msg = error.getMessage() == null || error.getMessage().isBlank()
                ? error.getClass().getSimpleName()
                : error.getMessage();
        StringBuilder details = new StringBuilder();
        if (error.getCause() != null) {
            // the chain first: with git or the store behind an error, the cause says the most
            for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
                details.append(t == error ? "" : "caused by: ")
                        .append(t.getClass().getName())
                        .append(": ")
                        .append(t.getMessage())
                        .append('\n');
            }
            details.append('\n');
        }
        StringWriter trace = new StringWriter();
        error.printStackTrace(new PrintWriter(trace));
        details.append(trace);
        return new UiError(doing == null ? msg : doing + ": " + msg, details.toString());
    }
}
