package dev.paddock.bench.corpus;

import dev.paddock.merge.conflict.ConflictHunk;
import java.util.List;

/** What the classifier proposes for a hunk, as the replay reads it. */
final class Proposals {
    private Proposals() {}

    /** The proposal of a safe hunk; null when a person decides. */
    static List<String> safe(ConflictHunk h) {
        return h.hunkClass().isSafe() ? h.proposed() : null;
    }

    /** The first suggestion, safe or not; null when there is none. */
    static List<String> first(ConflictHunk h) {
        return h.suggested();
    }

    /** The confidence in the first suggestion. */
    static double confidence(ConflictHunk h) {
        return h.confidence();
    }
}
