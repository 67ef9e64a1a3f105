package dev.paddock.ui.mergequeue;

import dev.paddock.merge.MergeEntry;
import java.time.Duration;

/** Short texts of the merge queue tab: durations, commits, test results, attempts. */
public final class QueueText {
    /** Characters of a commit id shown (as {@code git log --oneline} shows at least 7; 10 stays unique longer). */
    public static final int SHORT_COMMIT = 10;

    private QueueText() {}

    /** "0:07", "12:30", "1:02:03" (hours:minutes:seconds); empty for null. */
    public static String duration(Duration d) {
        if (d == null) {
            return "";
        }
        long s = Math.max(0, d.getSeconds());
        return s >= 3600
                ? String.format("%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                : String.format("%d:%02d", s / 60, s % 60);
    }

    /** A length in words: "0 s", "42 s", "17 min 06 s", "1 h 05 min" (not a clock time); empty for null. */
    public static String span(Duration d) {
        if (d == null) {
            return "";
        }
        long s = Math.max(0, d.getSeconds());
        if (s < 60) {
            return s + " s";
        }
        if (s < 3600) {
            return String.format("%d min %02d s", s / 60, s % 60);
        }
        return String.format("%d h %02d min", s / 3600, s / 60 % 60);
    }

    /** The first {@link #SHORT_COMMIT} characters of a commit id; empty for null. */
    public static String shortCommit(String commit) {
        return commit == null ? "" : commit.substring(0, Math.min(SHORT_COMMIT, commit.length()));
    }

    /** "passed", "failed" or "not run" for the last test run. */
    public static String lastTest(Boolean passed) {
        return passed == null ? "not run" : passed ? "passed" : "failed";
    }

    /** "attempt 2 of 3" for a running entry. */
    public static String attemptOf(MergeEntry e, int max) {
        return "attempt " + e.attemptsMade() + " of " + max;
    }
}
