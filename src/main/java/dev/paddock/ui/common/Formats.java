package dev.paddock.ui.common;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/** Short, human formats for the panel: ages, clock times, sizes. */
public final class Formats {
    private static final DateTimeFormatter CLOCK =
            DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());
    private static final DateTimeFormatter DAY_CLOCK =
            DateTimeFormatter.ofPattern("MMM d HH:mm").withZone(ZoneId.systemDefault());

    private Formats() {}

    /** "12 s ago", "3 min ago", "2 h ago", "4 d ago"; empty for null. */
    public static String ago(Instant then, Instant now) {
        if (then == null) {
            return "";
        }
        long s = Math.max(0, Duration.between(then, now).getSeconds());
        if (s < 60) {
            return s + " s ago";
        }
        if (s < 3600) {
            return s / 60 + " min ago";
        }
        if (s < 86_400) {
            return s / 3600 + " h ago";
        }
        return s / 86_400 + " d ago";
    }

    /**
     * {@link #ago} for a table of many live rows, in steps that change at most every 10 s: "just now" under 10 s,
     * "20 s ago" under a minute. (An agent beating every few seconds then reads the same, and the table is not
     * redrawn at every tick of the clock.)
     */
    public static String agoInSteps(Instant then, Instant now) {
        if (then == null) {
            return "";
        }
        long s = Math.max(0, Duration.between(then, now).getSeconds());
        if (s < 10) {
            return "just now";
        }
        return s < 60 ? s / 10 * 10 + " s ago" : ago(then, now);
    }

    /**
     * {@link #left} for a table of many live rows: whole minutes while two or more are left ("15 min left", rounded
     * up), whole hours from 100 minutes ("3 h left"), minutes and seconds in the last two.
     */
    public static String leftInSteps(Instant until, Instant now) {
        if (until == null) {
            return "";
        }
        long s = Duration.between(now, until).getSeconds();
        if (s < 120) {
            return left(until, now);
        }
        long min = (s + 59) / 60;
        return min >= 100 ? (min + 59) / 60 + " h left" : min + " min left";
    }

    /** "4:05 left", "expired"; empty for null. */
    public static String left(Instant until, Instant now) {
        if (until == null) {
            return "";
        }
        long s = Duration.between(now, until).getSeconds();
        if (s <= 0) {
            return "expired";
        }
        return s >= 3600
                ? String.format("%d:%02d:%02d left", s / 3600, s / 60 % 60, s % 60)
                : String.format("%d:%02d left", s / 60, s % 60);
    }

    /** Local clock time of an instant today ("14:03:07"), or day and time when older than a day. */
    public static String clock(Instant t, Instant now) {
        if (t == null) {
            return "";
        }
        return Duration.between(t, now).toHours() < 20 ? CLOCK.format(t) : DAY_CLOCK.format(t);
    }

    /** "512 B", "64 KB", "12.3 MB", "1.2 GB" (powers of 1024). */
    public static String bytes(long n) {
        if (n < 1024) {
            return n + " B";
        }
        if (n < 1024 * 1024) {
            return n / 1024 + " KB";
        }
        double mb = n / (1024.0 * 1024);
        return mb < 1024
                ? String.format(java.util.Locale.ROOT, "%.1f MB", mb)
                : String.format(java.util.Locale.ROOT, "%.1f GB", mb / 1024);
    }

    /** "850 ms", "41 s", "2 min 13 s", "1 h 4 min". */
    public static String duration(long ms) {
        if (ms < 1000) {
            return ms + " ms";
        }
        long s = ms / 1000;
        if (s < 60) {
            return s + " s";
        }
        if (s < 3600) {
            return s / 60 + " min " + s % 60 + " s";
        }
        return s / 3600 + " h " + s / 60 % 60 + " min";
    }
}
