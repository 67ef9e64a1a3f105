package dev.paddock.ui.conflicts;

import dev.paddock.merge.conflict.FileConflictKind;

/**
 * One conflicted file as the three-way view's file list shows it.
 *
 * @param unresolved hunks not resolved yet (text kinds)
 * @param resolved   whether its resolution was handed to the merge queue
 */
public record FileRow(String path, FileConflictKind kind, int hunks, int unresolved, boolean resolved,
                      boolean needsHuman) {
    /** Whether the file has text to merge (content or add/add). */
    public boolean isText() {
        return !kind.needsHuman();
    }
}
