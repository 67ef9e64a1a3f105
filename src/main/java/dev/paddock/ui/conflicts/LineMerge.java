package dev.paddock.ui.conflicts;

import dev.paddock.merge.conflict.CleanMerge;
import dev.paddock.merge.conflict.ConflictFile;
import dev.paddock.merge.conflict.ConflictHunk;
import java.util.ArrayList;
import java.util.List;

/**
 * The starting result of a conflicted text file: the lines between conflict hunks merged from base,
 * ours and theirs (they merged cleanly, or git would have left a hunk there), and each hunk's place
 * filled with its starting text (see {@link #startingLines}); between hunks it is
 * {@link CleanMerge}, as in {@link dev.paddock.merge.conflict.ResolvedText}. Pure. Unlike ResolvedText
 * (conflict markers for an undecided hunk), the view starts a hunk from base's lines and keeps where
 * each hunk sits in the result, so it can highlight and replace it.
 */
final class LineMerge {
    private LineMerge() {}

    /**
     * The starting result.
     *
     * @param lines the result's lines
     * @param trailingNewline whether the result ends with a line break (as ours, or theirs when ours is absent)
     * @param spans per hunk, {start, end} lines of the result it occupies
     */
    record Start(List<String> lines, boolean trailingNewline, List<int[]> spans) {}

    /** The starting result of {@code f} (a text kind: content or add/add). */
    static Start start(ConflictFile f) {
        TextLines base = TextLines.of(f.baseText());
        TextLines ours = TextLines.of(f.oursText());
        TextLines theirs = TextLines.of(f.theirsText());
        List<String> out =
                new ArrayList<>(Math.max(ours.lines().size(), theirs.lines().size()) + 16);
        List<int[]> spans = new ArrayList<>();
        int b = 0;
        int o = 0;
        int t = 0;
        for (ConflictHunk h : f.hunks()) {
            out.addAll(CleanMerge.merge(
                    base.range(b, h.base().start()),
                    ours.range(o, h.ours().start()),
                    theirs.range(t, h.theirs().start())));
            int start = out.size();
            out.addAll(startingLines(h));
            spans.add(new int[] {start, out.size()});
            b = h.base().end();
            o = h.ours().end();
            t = h.theirs().end();
        }
        out.addAll(CleanMerge.merge(
                base.range(b, base.lines().size()),
                ours.range(o, ours.lines().size()),
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
}
