package dev.paddock.diff;

/**
 * One changed file of a sandbox's diff, without its text.
 *
 * @param path the new path, or the old path of a deleted file
 * @param oldPath the old path of a renamed or copied file; null otherwise
 * @param kind how it changed
 * @param added lines added (0 for a binary file)
 * @param deleted lines deleted (0 for a binary file)
 * @param binary whether either side is binary (then no text is shown)
 * @param newSize the new side's size in bytes (0 for a deleted file)
 */
public record FileChange(
        String path, String oldPath, ChangeKind kind, int added, int deleted, boolean binary, long newSize) {}
