package dev.paddock.common;

/** Counting words for people: "1 retry", "2 retries"; "1 retry is", "2 retries are". */
public final class Words {
    private Words() {}

    /** {@code n} and the noun in the right number: {@code count(1, "retry", "retries")} is "1 retry". */
    public static String count(long n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }

    /** {@link #count} followed by "is" or "are": "1 retry is", "2 retries are". */
    public static String countIs(long n, String one, String many) {
        return count(n, one, many) + (n == 1 ? " is" : " are");
    }

    /** "once", "twice", or "N times". */
    public static String times(long n) {
        return n == 1 ? "once" : n == 2 ? "twice" : n + " times";
    }
}
