package dev.paddock.ui.conflicts;

import dev.paddock.merge.conflict.ConflictHunk;
import java.util.ArrayList;
import java.util.List;

/**
 * How a conflict hunk of the result in the three-way editor was resolved, or that it is not yet (the editor's state;
 * the queue's {@code merge.conflict.HunkChoice} is what a resolution asks for).
 */
public enum HunkState {
    /** Not resolved: the result holds its starting text (base's lines) and it is highlighted. */
    UNRESOLVED("unresolved"),
    /** Ours' lines (the base branch). */
    OURS("ours"),
    /** Theirs' lines (the agent's branch). */
    THEIRS("theirs"),
    /** Ours' lines, then theirs'. */
    OURS_THEN_THEIRS("ours, then theirs"),
    /** Theirs' lines, then ours'. */
    THEIRS_THEN_OURS("theirs, then ours"),
    /** The resolution proposed for a safe class, or the suggestion ranked first for a person's hunk. */
    PROPOSED("proposed resolution"),
    /** Edited by hand in the result. */
    EDITED("edited by hand");

    private final String label;

    HunkState(String label) {
        this.label = label;
    }

    /** Words for people ("ours, then theirs"). */
    public String label() {
        return label;
    }

    /** Whether the hunk counts as resolved. */
    public boolean isResolved() {
        return this != UNRESOLVED;
    }

    /**
     * The lines this state puts in the result for {@code h}.
     *
     * @throws IllegalArgumentException for UNRESOLVED and EDITED (no lines of their own), and PROPOSED
     *     on a hunk with neither a proposal nor a suggestion (a lockfile)
     */
    public List<String> lines(ConflictHunk h) {
        return switch (this) {
            case OURS -> h.oursLines();
            case THEIRS -> h.theirsLines();
            case OURS_THEN_THEIRS -> concat(h.oursLines(), h.theirsLines());
            case THEIRS_THEN_OURS -> concat(h.theirsLines(), h.oursLines());
            case PROPOSED -> {
                if (h.suggested() == null) {
                    throw new IllegalArgumentException("hunk " + (h.index() + 1) + " (class "
                            + h.hunkClass().id() + ") has no proposed resolution");
                }
                yield h.suggested();
            }
            default -> throw new IllegalArgumentException(name() + " has no lines of its own");
        };
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a.size() + b.size());
        all.addAll(a);
        all.addAll(b);
        return all;
    }
}
