package dev.paddock.merge.conflict;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jgit.diff.DiffAlgorithm;
import org.eclipse.jgit.diff.Edit;
import org.eclipse.jgit.diff.EditList;
import org.eclipse.jgit.diff.RawText;
import org.eclipse.jgit.diff.RawTextComparator;

/**
 * The lines of a file between its conflict hunks, merged from base, ours and theirs as git merged them: those
 * regions had no conflict, so each side's edits against base (JGit's histogram diff) are applied together.
 * Taking ours' lines there would drop theirs' clean edits. Pure logic.
 */
public final class CleanMerge {
    private static final DiffAlgorithm DIFF = DiffAlgorithm.getAlgorithm(DiffAlgorithm.SupportedAlgorithm.HISTOGRAM);

    private CleanMerge() {}

    /**
     * Merges one region that git merged cleanly.
     *
     * @param base   the region's lines in base (empty when base has no such file)
     * @param ours   the region's lines in ours
     * @param theirs the region's lines in theirs
     * @return the merged lines; when the two sides' edits overlap after all (git would have left a hunk there)
     *         ours' lines
     */
    public static List<String> merge(List<String> base, List<String> ours, List<String> theirs) {
        if (ours.equals(theirs) || theirs.equals(base)) {
            return ours;
        }
        if (ours.equals(base)) {
            return theirs;
        }
        EditList eo = edits(base, ours);
        EditList et = edits(base, theirs);
        List<String> out = new ArrayList<>();
        int pos = 0;
        int i = 0;
        int j = 0;
        while (i < eo.size() || j < et.size()) {
            boolean takeOurs = j >= et.size()
                    || (i < eo.size() && eo.get(i).getBeginA() <= et.get(j).getBeginA());
            Edit e = takeOurs ? eo.get(i++) : et.get(j++);
            if (e.getBeginA() < pos) {
                return ours;
            }
            out.addAll(base.subList(pos, e.getBeginA()));
            out.addAll((takeOurs ? ours : theirs).subList(e.getBeginB(), e.getEndB()));
            pos = e.getEndA();
        }
        out.addAll(base.subList(pos, base.size()));
        return out;
    }

    private static EditList edits(List<String> a, List<String> b) {
        return DIFF.diff(RawTextComparator.DEFAULT, raw(a), raw(b));
    }

    private static RawText raw(List<String> lines) {
        StringBuilder s = new StringBuilder();
        for (String l : lines) {
            s.append(l).append('\n');
        }
        return new RawText(s.toString().getBytes(StandardCharsets.UTF_8));
    }
}
