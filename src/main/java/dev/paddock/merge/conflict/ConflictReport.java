package dev.paddock.merge.conflict;

import java.util.List;

/**
 * The conflicts of merging {@code theirs} into {@code ours}: what {@code paddock conflicts classify} prints
 * and what the three-way view shows.
 *
 * @param ours   commit id of ours (the base branch's tip)
 * @param theirs commit id of theirs (the agent's branch tip)
 * @param base   commit id of the merge base ({@code null} when the histories are unrelated)
 * @param files  the conflicted files, sorted by path (empty when the merge is clean)
 */
public record ConflictReport(String ours, String theirs, String base, List<ConflictFile> files) {
    public ConflictReport {
        files = List.copyOf(files);
    }

    /** Whether the merge has no conflict at all. */
    public boolean isClean() {
        return files.isEmpty();
    }

    /** Whether every file could be resolved with the proposed resolutions. */
    public boolean allSafe() {
        return files.stream().noneMatch(ConflictFile::needsHuman);
    }
}
