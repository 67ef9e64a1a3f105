package dev.paddock.ui.conflicts;

import dev.paddock.merge.conflict.ConflictFile;
import dev.paddock.merge.conflict.ConflictHunk;
import java.util.ArrayList;
import java.util.List;

/**
 * The starting result of a conflicted text file: the lines between conflict hunks merged from base,
 * ours and theirs (they merged cleanly, or git would have left a hunk there), and each hunk's place
 * filled with its starting text (see {@link #startingLines}). Pure; a stand-in for the classifier's
 * resolved-text helper, kept small: between hunks it takes the side that changed, and when both
 * changed it combines their line edits against base (a longest-common-subsequence diff per side).
 */
final class LineMerge {
    /** Beyond this many cells (lines × lines after trimming) a region's diff is one whole replacement. */
    private static final long MAX_CELLS = 4_000_000L;

    private LineMerge() {
    }

    /**
     * The starting result.
     *
     * @param lines the result's lines
     * @param trailingNewline whether the result ends with a line break (as ours, or theirs when ours is absent)
     * @param spans per hunk, {start, end} lines of the result it occupies
     */
    record Start(List<String> lines, boolean trailingNewline, List<int[]> spans) {
    }

    /** The starting result of {@code f} (a text kind: content or add/add). */
    static Start start(ConflictFile f) {
        Lines base = Lines.of(f.baseText());
        Lines ours = Lines.of(f.oursText());
        Lines theirs = Lines.of(f.theirsText());
        List<String> out = new ArrayList<>(Math.max(ours.lines().size(), theirs.lines().size()) + 16);
        List<int[]> spans = new ArrayList<>();
        int b = 0;
        int o = 0;
        int t = 0;
        for (ConflictHunk h : f.hunks()) {
            out.addAll(mergeClean(base.range(b, h.base().start()), ours.range(o, h.ours().start()),
                    theirs.range(t, h.theirs().start())));
            int start = out.size();
            out.addAll(startingLines(h));
            spans.add(new int[] {start, out.size()});
            b = h.base().end();
            o = h.ours().end();
            t = h.theirs().end();
        }
        out.addAll(mergeClean(base.range(b, base.lines().size()), ours.range(o, ours.lines().size()),
                theirs.range(t, theirs.lines().size())));
        boolean trailing = f.oursText() != null ? ours.trailingNewline() : theirs.trailingNewline();
        return new Start(out, trailing, spans);
    }

    /**
     * What an unresolved hunk shows in the result: base's lines (as IntelliJ and kdiff3 start), or
     * when base has none there, ours' (or theirs'), so the hunk has lines to highlight and edit.
     */
    static List<String> startingLines(ConflictHunk h) {
        if (!h.baseLines().isEmpty()) {
            return h.baseLines();
        }
        return h.oursLines().isEmpty() ? h.theirsLines() : h.oursLines();
    }

    /** Merges a region both sides changed without conflict; on overlapping edits ours wins (git would have conflicted). */
    static List<String> mergeClean(List<String> base, List<String> ours, List<String> theirs) {
        if (ours.equals(theirs) || theirs.equals(base)) {
            return ours;
        }
        if (ours.equals(base)) {
            return theirs;
        }
        List<int[]> eo = edits(base, ours);
        List<int[]> et = edits(base, theirs);
        List<String> out = new ArrayList<>();
        int pos = 0;
        int i = 0;
        int j = 0;
        while (i < eo.size() || j < et.size()) {
            boolean takeOurs = j >= et.size() || (i < eo.size() && eo.get(i)[0] <= et.get(j)[0]);
            int[] e = takeOurs ? eo.get(i++) : et.get(j++);
            if (e[0] < pos) {
                return ours; // overlapping edits: not a clean region after all
            }
            out.addAll(base.subList(pos, e[0]));
            out.addAll((takeOurs ? ours : theirs).subList(e[2], e[3]));
            pos = e[1];
        }
        out.addAll(base.subList(pos, base.size()));
        return out;
    }

    /**
     * The edits turning {@code a} into {@code b}: {aStart, aEnd, bStart, bEnd} each, in order, from a
     * longest common subsequence of the lines between the common prefix and suffix.
     */
    static List<int[]> edits(List<String> a, List<String> b) {
        int pre = 0;
        while (pre < a.size() && pre < b.size() && a.get(pre).equals(b.get(pre))) {
            pre++;
        }
        int suf = 0;
        while (suf < a.size() - pre && suf < b.size() - pre
                && a.get(a.size() - 1 - suf).equals(b.get(b.size() - 1 - suf))) {
            suf++;
        }
        int n = a.size() - pre - suf;
        int m = b.size() - pre - suf;
        List<int[]> out = new ArrayList<>();
        if (n == 0 && m == 0) {
            return out;
        }
        if (n == 0 || m == 0 || (long) n * m > MAX_CELLS) {
            out.add(new int[] {pre, pre + n, pre, pre + m});
            return out;
        }
        // lcs[i][j]: length of the LCS of a[pre+i..] and b[pre+j..]
        int[][] lcs = new int[n + 1][m + 1];
        for (int i = n - 1; i >= 0; i--) {
            for (int j = m - 1; j >= 0; j--) {
                lcs[i][j] = a.get(pre + i).equals(b.get(pre + j)) ? lcs[i + 1][j + 1] + 1
                        : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
            }
        }
        int i = 0;
        int j = 0;
        int[] open = null;
        while (i < n || j < m) {
            if (i < n && j < m && a.get(pre + i).equals(b.get(pre + j))) {
                if (open != null) {
                    open[1] = pre + i;
                    open[3] = pre + j;
                    out.add(open);
                    open = null;
                }
                i++;
                j++;
                continue;
            }
            if (open == null) {
                open = new int[] {pre + i, 0, pre + j, 0};
            }
            if (j < m && (i >= n || lcs[i][j + 1] >= lcs[i + 1][j])) {
                j++;
            } else {
                i++;
            }
        }
        if (open != null) {
            open[1] = pre + i;
            open[3] = pre + j;
            out.add(open);
        }
        return out;
    }
}
