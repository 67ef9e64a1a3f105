package dev.paddock.merge.conflict;

import java.util.List;

/**
 * One conflicted file of a three-way merge.
 *
 * @param path       repository-relative path with {@code /} separators (ours' path for renames)
 * @param kind       what kind of conflict it is
 * @param baseText   the whole base version ({@code null} when absent or binary)
 * @param oursText   the whole ours version ({@code null} when deleted on ours or binary)
 * @param theirsText the whole theirs version ({@code null} when deleted on theirs or binary)
 * @param hunks      the conflict hunks, in file order (empty unless the kind has text)
 */
public record ConflictFile(
        String path,
        FileConflictKind kind,
        String baseText,
        String oursText,
        String theirsText,
        List<ConflictHunk> hunks) {
    public ConflictFile {
        hunks = List.copyOf(hunks);
    }

    /** Whether a person must decide: a kind without text, or any hunk of class human. */
    public boolean needsHuman() {
        return kind.needsHuman() || hunks.stream().anyMatch(h -> !h.hunkClass().isSafe());
    }
}
