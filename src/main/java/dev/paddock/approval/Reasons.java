package dev.paddock.approval;

/**
 * Reasons of bounded length. A decision's reason quotes the commands it judged (the policy writes them between
 * backquotes, one per part of a shell line), so a 500 KB command would get a reason longer than itself. The full
 * command is stored with its request ({@code approvals.request}); its reason, shown in the queue and told to the
 * agent, quotes each long command shortened and is cut at {@link #MAX} characters in all.
 */
public final class Reasons {
    /** Longest reason stored ({@code approvals.reason} is VARCHAR(4096)), in characters. */
    public static final int MAX = 4096;
    /** Longest quoted command kept whole in a reason, in characters; a longer one keeps its start. */
    static final int QUOTE_MAX = 200;

    private Reasons() {}

    /**
     * {@code reason} with every backquoted span longer than {@link #QUOTE_MAX} shortened to its start and "…", then
     * cut to {@link #MAX} characters, saying how long it was. Null stays null; a short reason is returned as is.
     */
    public static String bounded(String reason) {
        if (reason == null || reason.length() <= QUOTE_MAX) {
            return reason;
        }
        int n = reason.length();
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < n && out.length() <= MAX) { // past MAX the rest is cut anyway: a 15,000-part line stops early
            int open = reason.indexOf('`', i);
            int close = open < 0 ? -1 : reason.indexOf('`', open + 1);
            if (close < 0) {
                out.append(reason, i, n);
                i = n;
                break;
            }
            out.append(reason, i, open + 1);
            if (close - open - 1 > QUOTE_MAX) {
                out.append(reason, open + 1, charBoundary(reason, open + QUOTE_MAX))
                        .append('…');
            } else {
                out.append(reason, open + 1, close);
            }
            out.append('`');
            i = close + 1;
        }
        if (i >= n && out.length() <= MAX) {
            return out.toString();
        }
        String tail = "… (shortened from " + n + " characters)";
        String kept = out.toString();
        return kept.substring(0, charBoundary(kept, Math.min(kept.length(), MAX - tail.length()))) + tail;
    }

    /** {@code end}, or one less when a cut there would split a surrogate pair. */
    private static int charBoundary(String s, int end) {
        return end > 0 && end < s.length() && Character.isHighSurrogate(s.charAt(end - 1)) ? end - 1 : end;
    }
}
