package dev.paddock.merge;

import java.util.Locale;

/**
 * Whether a person reviews a finished sandbox's change before it enters the merge queue (repository column
 * {@code merge_review}; docs/decisions/0022-review-gate.md).
 */
public enum ReviewMode {
    /** A done sandbox with new commits waits in {@code review} until a person approves it (the default). */
    REQUIRED,
    /** A done sandbox with new commits enters the merge queue at once. */
    AUTO;

    /** The stored and typed name, lower case. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses a stored or typed name ({@code required}, {@code auto}, any case); null or blank means
     * {@link #REQUIRED}.
     *
     * @throws IllegalArgumentException for anything else, naming the allowed values
     */
    public static ReviewMode of(String id) {
        if (id == null || id.isBlank()) {
            return REQUIRED;
        }
        return switch (id.strip().toLowerCase(Locale.ROOT)) {
            case "required" -> REQUIRED;
            case "auto" -> AUTO;
            default ->
                throw new IllegalArgumentException("unknown review mode \"" + id
                        + "\": use required (a person approves each change before it is merged) or auto (finished"
                        + " sandboxes enter the merge queue at once)");
        };
    }
}
