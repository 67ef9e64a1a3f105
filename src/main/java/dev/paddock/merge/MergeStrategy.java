package dev.paddock.merge;

import java.util.Locale;

/**
 * How the queue brings a branch up to date with base (repository column {@code merge_strategy}).
 * Either way the result goes into base as a {@code --no-ff} merge commit.
 */
public enum MergeStrategy {
    /** Merge base and the branch in one three-way merge (the tree equals "merge base into the branch"). */
    MERGE,
    /** Replay the branch's commits onto base first (a detached copy: the agent's branch is not rewritten). */
    REBASE;

    /** The stored name, lower case. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses a stored or typed name ({@code merge}, {@code rebase}); null means {@link #MERGE}.
     *
     * @throws IllegalArgumentException for anything else
     */
    public static MergeStrategy of(String id) {
        if (id == null || id.isBlank()) {
            return MERGE;
        }
        return switch (id.strip().toLowerCase(Locale.ROOT)) {
            case "merge" -> MERGE;
            case "rebase" -> REBASE;
            default -> throw new IllegalArgumentException("unknown merge strategy \"" + id + "\": use merge or rebase");
        };
    }
}
