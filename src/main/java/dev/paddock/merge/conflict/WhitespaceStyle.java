package dev.paddock.merge.conflict;

import java.util.List;

/**
 * How a text uses whitespace, counted over its lines: indentation with tabs or with spaces, and trailing
 * whitespace. Enough to tell which side of a merge reformatted a file and whether a hunk's lines fit the file.
 *
 * @param tabIndented   lines whose indentation starts with a tab
 * @param spaceIndented lines whose indentation starts with a space
 * @param trailing      non-blank lines ending in whitespace
 * @param lines         non-blank lines
 */
public record WhitespaceStyle(int tabIndented, int spaceIndented, int trailing, int lines) {
    /** No lines: says nothing. */
    public static final WhitespaceStyle NONE = new WhitespaceStyle(0, 0, 0, 0);
    /** Fewer indented lines than this say nothing about indentation. */
    private static final int ENOUGH = 10;
    /** A change of share larger than this is a reformatting. */
    private static final double MOVED = 0.25;

    /** The style of some lines (terminators removed). */
    public static WhitespaceStyle of(List<String> lines) {
        int tabs = 0;
        int spaces = 0;
        int trailing = 0;
        int n = 0;
        for (String l : lines) {
            if (l.isBlank()) {
                continue;
            }
            n++;
            char c = l.charAt(0);
            if (c == '\t') {
                tabs++;
            } else if (c == ' ') {
                spaces++;
            }
            char last = l.charAt(l.length() - 1);
            if (last == ' ' || last == '\t') {
                trailing++;
            }
        }
        return new WhitespaceStyle(tabs, spaces, trailing, n);
    }

    /** The share of indented lines indented with tabs; NaN without enough indented lines. */
    double tabShare() {
        int indented = tabIndented + spaceIndented;
        return indented < ENOUGH ? Double.NaN : (double) tabIndented / indented;
    }

    /** The share of non-blank lines with trailing whitespace; NaN without enough lines. */
    double trailingShare() {
        return lines < ENOUGH ? Double.NaN : (double) trailing / lines;
    }

    /** Whether this style moved away from {@code before} (indentation or trailing whitespace reformatted). */
    boolean reformatted(WhitespaceStyle before) {
        return moved(tabShare(), before.tabShare()) || moved(trailingShare(), before.trailingShare());
    }

    private static boolean moved(double now, double was) {
        return !Double.isNaN(now) && !Double.isNaN(was) && Math.abs(now - was) > MOVED;
    }

    /**
     * How many of {@code hunk}'s lines go against this (dominant) style: indented with the minority character, or
     * with trailing whitespace where the file has almost none. 0 when this style says nothing.
     */
    int misfits(List<String> hunk) {
        double tabs = tabShare();
        double trail = trailingShare();
        int bad = 0;
        for (String l : hunk) {
            if (l.isBlank()) {
                continue;
            }
            char c = l.charAt(0);
            if (!Double.isNaN(tabs) && ((c == '\t' && tabs < 0.2) || (c == ' ' && tabs > 0.8))) {
                bad++;
            }
            char last = l.charAt(l.length() - 1);
            if (!Double.isNaN(trail) && trail < 0.05 && (last == ' ' || last == '\t')) {
                bad++;
            }
        }
        return bad;
    }
}
