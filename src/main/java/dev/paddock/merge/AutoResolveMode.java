package dev.paddock.merge;

import java.util.Locale;

/**
 * What the merge queue does with a conflict whose every hunk is safe (repository column {@code auto_resolve}):
 * such a conflict is resolved automatically only when the repository's setting allows it.
 */
public enum AutoResolveMode {
    /** The proposals are shown in the conflict queue and a person confirms them (the default). */
    PROPOSE,
    /** The proposals are applied, tested and merged without a person; anything not safe still goes to one. */
    APPLY;

    /** The stored and typed name, lower case. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses a stored or typed name ({@code propose}, {@code apply}, any case); null or blank means {@link #PROPOSE}.
     *
     * @throws IllegalArgumentException for anything else, naming the allowed values
     */
    public static AutoResolveMode of(String id) {
        if (id == null || id.isBlank()) {
            return PROPOSE;
        }
        return switch (id.strip().toLowerCase(Locale.ROOT)) {
            case "propose" -> PROPOSE;
            case "apply" -> APPLY;
            default ->
                throw new IllegalArgumentException(
                        "unknown auto-resolve mode \"" + id
                                + "\": use propose (a person confirms the proposals) or apply (safe conflicts are merged automatically)");
        };
    }
}
