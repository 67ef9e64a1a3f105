package dev.paddock.merge.conflict;

/**
 * A range of lines in one version of a file: {@code start} is 0-based and inclusive, {@code end} exclusive,
 * so an empty range ({@code start == end}) marks an insertion point.
 */
public record LineRange(int start, int end) {
    /** @throws IllegalArgumentException when {@code start < 0} or {@code end < start} */
    public LineRange {
        if (start < 0 || end < start) {
            throw new IllegalArgumentException("bad line range " + start + ".." + end);
        }
    }

    /** Number of lines in the range. */
    public int length() {
        return end - start;
    }
}
