package dev.paddock.merge.conflict;

/**
 * Which files JGit's merger does not merge as text: lockfiles (never merged as text anyway: {@link Lockfiles}) and
 * files larger than {@link #LARGE_BYTES} on a side. JGit's histogram diff goes quadratic on a large file with
 * thousands of small edits (a 3 MB {@code package-lock.json}: 50 s where {@code git merge-tree} takes 5 s), so for
 * these the classifier takes git's own conflicted list ({@link GitConflictedPaths}) instead.
 */
final class TextMergeLimits {
    /** A file above this many bytes on any side is not merged line by line in the JVM. */
    static final long LARGE_BYTES = 1L << 20;

    private TextMergeLimits() {}

    /** Whether the file at {@code path}, {@code largestSide} bytes on its largest side, skips JGit's text merge. */
    static boolean skipsTextMerge(String path, long largestSide) {
        return Lockfiles.isLockfile(path) || isLarge(largestSide);
    }

    /** Whether a side of {@code bytes} bytes is too large to compare line by line here. */
    static boolean isLarge(long bytes) {
        return bytes > LARGE_BYTES;
    }
}
