package dev.paddock.merge.conflict;

import java.util.ArrayList;
import java.util.List;
import org.eclipse.jgit.diff.DiffAlgorithm;
import org.eclipse.jgit.diff.Edit;
import org.eclipse.jgit.diff.EditList;
import org.eclipse.jgit.diff.HistogramDiff;
import org.eclipse.jgit.diff.Sequence;
import org.eclipse.jgit.diff.SequenceComparator;

/**
 * The edits one side made to the base lines of a hunk (JGit's {@link HistogramDiff} on the hunk's lines), and
 * applying the edits of both sides at once when they do not overlap.
 */
final class LineEdits {
    private static final DiffAlgorithm DIFF = new HistogramDiff();

    private LineEdits() {}

    /** Lines as a JGit {@link Sequence}. */
    private static final class StringLines extends Sequence {
        final List<String> lines;

        StringLines(List<String> lines) {
            this.lines = lines;
        }

        @Override
        public int size() {
            return lines.size();
        }
    }

    private static final SequenceComparator<StringLines> EXACT = new SequenceComparator<>() {
        @Override
        public boolean equals(StringLines a, int ai, StringLines b, int bi) {
            return a.lines.get(ai).equals(b.lines.get(bi));
        }

        @Override
        public int hash(StringLines seq, int i) {
            return seq.lines.get(i).hashCode();
        }
    };

    /** The edits turning {@code base} into {@code side}; A ranges index base, B ranges index side. */
    static EditList diff(List<String> base, List<String> side) {
        return DIFF.diff(EXACT, new StringLines(base), new StringLines(side));
    }

    /**
     * Whether two edits of base conflict: they replace a common base line, insert at the same point, or one
     * inserts strictly inside the other's replaced lines. Edits that only touch (one ends where the other
     * starts) do not: their order in the result is clear.
     */
    static boolean overlap(Edit a, Edit b) {
        boolean aInsert = a.getBeginA() == a.getEndA();
        boolean bInsert = b.getBeginA() == b.getEndA();
        if (aInsert && bInsert) {
            return a.getBeginA() == b.getBeginA();
        }
        if (aInsert) {
            return b.getBeginA() < a.getBeginA() && a.getBeginA() < b.getEndA();
        }
        if (bInsert) {
            return a.getBeginA() < b.getBeginA() && b.getBeginA() < a.getEndA();
        }
        return Math.max(a.getBeginA(), b.getBeginA()) < Math.min(a.getEndA(), b.getEndA());
    }

    /** Whether any edit of {@code ours} conflicts with any edit of {@code theirs} ({@link #overlap}). */
    static boolean anyOverlap(EditList ours, EditList theirs) {
        for (Edit o : ours) {
            for (Edit t : theirs) {
                if (overlap(o, t)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Whether every edit of {@code ours} is apart from every edit of {@code theirs}: at least one base line that
     * neither side changed lies between them. Then the merge is proven at the line level: no line of one side is
     * next to, or part of, a line the other side changed.
     */
    static boolean separated(EditList ours, EditList theirs) {
        for (Edit o : ours) {
            for (Edit t : theirs) {
                if (!(o.getEndA() < t.getBeginA() || t.getEndA() < o.getBeginA())) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Base with both sides' edits applied; requires {@code !anyOverlap(oursEdits, theirsEdits)}. At one base
     * position an insertion goes before a replacement that starts there.
     */
    static List<String> applyBoth(
            List<String> base, List<String> ours, EditList oursEdits, List<String> theirs, EditList theirsEdits) {
        record SideEdit(Edit edit, List<String> lines) {}
        List<SideEdit> all = new ArrayList<>();
        oursEdits.forEach(e -> all.add(new SideEdit(e, ours)));
        theirsEdits.forEach(e -> all.add(new SideEdit(e, theirs)));
        all.sort((x, y) -> x.edit.getBeginA() != y.edit.getBeginA()
                ? Integer.compare(x.edit.getBeginA(), y.edit.getBeginA())
                : Integer.compare(x.edit.getLengthA(), y.edit.getLengthA()));
        List<String> out = new ArrayList<>();
        int pos = 0;
        for (SideEdit s : all) {
            out.addAll(base.subList(pos, s.edit.getBeginA()));
            out.addAll(s.lines.subList(s.edit.getBeginB(), s.edit.getEndB()));
            pos = s.edit.getEndA();
        }
        out.addAll(base.subList(pos, base.size()));
        return out;
    }

    /**
     * The edits of {@code theirs} that {@code ours} did not also make: an edit of the same base lines with the same
     * new lines on both sides is the same change, kept once (in ours' list).
     */
    static EditList notIn(List<String> theirs, EditList theirsEdits, List<String> ours, EditList oursEdits) {
        EditList out = new EditList();
        for (Edit t : theirsEdits) {
            boolean shared = false;
            for (Edit o : oursEdits) {
                if (o.getBeginA() == t.getBeginA()
                        && o.getEndA() == t.getEndA()
                        && ours.subList(o.getBeginB(), o.getEndB())
                                .equals(theirs.subList(t.getBeginB(), t.getEndB()))) {
                    shared = true;
                    break;
                }
            }
            if (!shared) {
                out.add(t);
            }
        }
        return out;
    }

    /**
     * A non-blank line {@code merged} holds more often than either side does (both sides added it, at different
     * places), if any: such a merge writes a line twice, so it is not proven.
     */
    static java.util.Optional<String> duplicated(List<String> merged, List<String> ours, List<String> theirs) {
        java.util.Map<String, Integer> counts = new java.util.HashMap<>();
        merged.stream().filter(l -> !l.isBlank()).forEach(l -> counts.merge(l.strip(), 1, Integer::sum));
        for (java.util.Map.Entry<String, Integer> e : counts.entrySet()) {
            if (e.getValue() > 1 && e.getValue() > Math.max(count(ours, e.getKey()), count(theirs, e.getKey()))) {
                return java.util.Optional.of(e.getKey());
            }
        }
        return java.util.Optional.empty();
    }

    private static long count(List<String> lines, String stripped) {
        return lines.stream().filter(l -> l.strip().equals(stripped)).count();
    }

    /** The lines an edit list adds (the side's lines in its edits). */
    static List<String> added(List<String> side, EditList edits) {
        List<String> out = new ArrayList<>();
        for (Edit e : edits) {
            out.addAll(side.subList(e.getBeginB(), e.getEndB()));
        }
        return out;
    }

    /** The base lines an edit list removes or replaces. */
    static List<String> removed(List<String> base, EditList edits) {
        List<String> out = new ArrayList<>();
        for (Edit e : edits) {
            out.addAll(base.subList(e.getBeginA(), e.getEndA()));
        }
        return out;
    }
}
