package dev.paddock.merge.conflict;

import java.util.List;
import java.util.Objects;

/**
 * How one conflict hunk is resolved: take a side (or both, in either order), base, the proposed
 * resolution, or lines a person wrote.
 *
 * @param take   which text replaces the hunk
 * @param custom the lines for {@link Take#CUSTOM} (without terminators); null otherwise
 */
public record HunkChoice(Take take, List<String> custom) {
    /** Which text replaces a hunk. */
    public enum Take {
        /** Ours' lines (the base branch). */
        OURS,
        /** Theirs' lines (the agent's branch). */
        THEIRS,
        /** Ours' lines, then theirs'. */
        OURS_THEN_THEIRS,
        /** Theirs' lines, then ours'. */
        THEIRS_THEN_OURS,
        /** The merge base's lines (both changes dropped). */
        BASE,
        /** The classifier's proposed resolution, or for a person's hunk the suggestion ranked first. */
        PROPOSED,
        /** Lines a person wrote ({@link HunkChoice#custom()}). */
        CUSTOM
    }

    /** @throws IllegalArgumentException when custom lines are missing for CUSTOM or given for another take */
    public HunkChoice {
        Objects.requireNonNull(take, "take");
        if ((take == Take.CUSTOM) != (custom != null)) {
            throw new IllegalArgumentException(
                    take == Take.CUSTOM
                            ? "custom lines are required for CUSTOM"
                            : "custom lines are only for CUSTOM, not " + take);
        }
        custom = custom == null ? null : List.copyOf(custom);
    }

    /** A choice of a side, both sides, base or the proposal. */
    public static HunkChoice of(Take take) {
        return new HunkChoice(take, null);
    }

    /** Lines written by a person. */
    public static HunkChoice custom(List<String> lines) {
        return new HunkChoice(Take.CUSTOM, lines);
    }

    /** The lines this choice puts in place of {@code hunk}. */
    public List<String> linesFor(ConflictHunk hunk) {
        return switch (take) {
            case OURS -> hunk.oursLines();
            case THEIRS -> hunk.theirsLines();
            case OURS_THEN_THEIRS -> concat(hunk.oursLines(), hunk.theirsLines());
            case THEIRS_THEN_OURS -> concat(hunk.theirsLines(), hunk.oursLines());
            case BASE -> hunk.baseLines();
            case PROPOSED -> {
                if (hunk.suggested() == null) {
                    throw new IllegalArgumentException("hunk " + hunk.index() + " has no proposed resolution ("
                            + hunk.hunkClass().id() + "): a person must choose");
                }
                yield hunk.suggested();
            }
            case CUSTOM -> custom;
        };
    }

    private static List<String> concat(List<String> a, List<String> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }
}
