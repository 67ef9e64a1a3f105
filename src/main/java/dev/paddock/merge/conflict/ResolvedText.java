package dev.paddock.merge.conflict;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The merged text of a conflicted file: outside the hunks the lines git merged cleanly ({@link CleanMerge}: ours'
 * and theirs' edits together), each hunk replaced by the lines of its {@link HunkChoice}. A hunk without a choice is written with git's diff3 conflict markers ({@code <<<<<<<
 * ours}, {@code ||||||| base}, {@code =======}, {@code >>>>>>> theirs}), so an editor can start from it.
 * Lines end with ours' terminator ({@code \r\n} when ours' first line ends so, else {@code \n}); the text
 * ends with a terminator when ours' does. Pure logic.
 */
public final class ResolvedText {
    private ResolvedText() {}

    /**
     * The merged text.
     *
     * @param file    a file with text on ours' side (content or add/add conflict)
     * @param choices choice per hunk index; missing hunks get conflict markers
     * @return the whole file's text
     * @throws IllegalArgumentException when ours has no text (deleted or binary), a choice names a hunk the
     *         file does not have, or {@link HunkChoice.Take#PROPOSED} is chosen for a hunk without a proposal
     */
    public static String resolve(ConflictFile file, Map<Integer, HunkChoice> choices) {
        return String.join("", lines(file, choices, true));
    }

    /** Every hunk with its proposed resolution; requires a file whose hunks are all safe. */
    public static String resolveProposed(ConflictFile file) {
        Map<Integer, HunkChoice> all = new java.util.HashMap<>();
        file.hunks().forEach(h -> all.put(h.index(), HunkChoice.of(HunkChoice.Take.PROPOSED)));
        return resolve(file, all);
    }

    /** The merged lines without terminators (markers included for hunks without a choice). */
    public static List<String> resolveLines(ConflictFile file, Map<Integer, HunkChoice> choices) {
        return lines(file, choices, false);
    }

    private static List<String> lines(ConflictFile file, Map<Integer, HunkChoice> choices, boolean terminated) {
        if (file.oursText() == null) {
            throw new IllegalArgumentException(file.path() + " has no text on ours' side ("
                    + file.kind().id() + "): a person must decide it as a whole");
        }
        for (Integer index : choices.keySet()) {
            if (index < 0 || index >= file.hunks().size()) {
                throw new IllegalArgumentException(file.path() + " has no hunk " + index + " (it has "
                        + file.hunks().size() + ")");
            }
        }
        List<String> base = Lines.split(file.baseText());
        List<String> ours = Lines.split(file.oursText());
        List<String> theirs = Lines.split(file.theirsText());
        List<String> out = new ArrayList<>(ours.size());
        int b = 0;
        int o = 0;
        int t = 0;
        for (ConflictHunk h : file.hunks()) {
            out.addAll(CleanMerge.merge(
                    base.subList(b, h.base().start()),
                    ours.subList(o, h.ours().start()),
                    theirs.subList(t, h.theirs().start())));
            HunkChoice c = choices.get(h.index());
            out.addAll(c == null ? markers(h) : c.linesFor(h));
            b = h.base().end();
            o = h.ours().end();
            t = h.theirs().end();
        }
        out.addAll(CleanMerge.merge(
                base.subList(b, base.size()), ours.subList(o, ours.size()), theirs.subList(t, theirs.size())));
        if (!terminated) {
            return out;
        }
        String eol = Lines.terminator(file.oursText());
        List<String> withEol = new ArrayList<>(out.size());
        for (int i = 0; i < out.size(); i++) {
            boolean last = i == out.size() - 1;
            withEol.add(out.get(i) + (last && !Lines.endsWithTerminator(file.oursText()) ? "" : eol));
        }
        return withEol;
    }

    private static List<String> markers(ConflictHunk h) {
        List<String> m = new ArrayList<>();
        m.add("<<<<<<< ours");
        m.addAll(h.oursLines());
        m.add("||||||| base");
        m.addAll(h.baseLines());
        m.add("=======");
        m.addAll(h.theirsLines());
        m.add(">>>>>>> theirs");
        return m;
    }
}
