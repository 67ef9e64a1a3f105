package dev.paddock.common;

/** Commit ids as people read them. */
public final class CommitIds {
    /** How many characters of a commit id are shown. */
    public static final int SHORT = 8;

    private CommitIds() {}

    /** The first {@value #SHORT} characters of a commit id; empty for null. */
    public static String shortId(String commit) {
        return commit == null ? "" : commit.substring(0, Math.min(SHORT, commit.length()));
    }
}
