package dev.paddock.diff;

import java.util.List;

/**
 * One file's change with its text.
 *
 * @param file the file and its counts
 * @param hunks its hunks; empty for a binary file, a rename without change, or a file too large to show
 * @param tooLarge whether a side is over {@link DiffService#MAX_TEXT_BYTES}: then no hunks
 */
public record FilePatch(FileChange file, List<Hunk> hunks, boolean tooLarge) {

    public FilePatch {
        hunks = List.copyOf(hunks);
    }
}
