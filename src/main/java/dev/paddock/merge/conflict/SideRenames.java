package dev.paddock.merge.conflict;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.jgit.diff.DiffConfig;
import org.eclipse.jgit.diff.DiffEntry;
import org.eclipse.jgit.diff.RenameDetector;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.revwalk.RevTree;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.filter.TreeFilter;

/**
 * The renames from base to each side that matter to the conflicts (JGit's merger detects none): old path → new
 * path. Only a deleted path that the in-core merge left unmerged (the other side changed it: a rename/modify) or
 * that both sides deleted (a rename/rename, or the same rename) is looked for among the side's added files. Those
 * deletions are found first, walking only into folders both sides changed; a side's whole list of changes is read,
 * and JGit's {@link RenameDetector} run, only when there is one. So a side that moved thousands of files the
 * other did not touch costs neither a full listing of its changes nor rename detection.
 *
 * @param ours   renames of ours, old path → new path
 * @param theirs renames of theirs
 */
record SideRenames(Map<String, String> ours, Map<String, String> theirs) {

    static SideRenames find(
            ObjectReader reader, DiffConfig config, RevTree base, RevTree ours, RevTree theirs, Set<String> unmerged)
            throws IOException {
        if (base == null) {
            return new SideRenames(Map.of(), Map.of());
        }
        Set<String> bothDeleted = deletedOnBothSides(reader, base, ours, theirs);
        return new SideRenames(
                renames(reader, config, base, ours, unmerged, bothDeleted),
                renames(reader, config, base, theirs, unmerged, bothDeleted));
    }

    /** Files of base that neither side has, skipping folders one side left as in base. */
    private static Set<String> deletedOnBothSides(ObjectReader reader, RevTree base, RevTree ours, RevTree theirs)
            throws IOException {
        Set<String> out = new HashSet<>();
        try (TreeWalk tw = new TreeWalk(reader)) {
            tw.addTree(base);
            tw.addTree(ours);
            tw.addTree(theirs);
            tw.setRecursive(true);
            tw.setFilter(new TreeFilter() {
                @Override
                public boolean include(TreeWalk w) {
                    if (w.getRawMode(0) == 0) {
                        return false;
                    }
                    if (w.isSubtree()) {
                        return !w.idEqual(0, 1) && !w.idEqual(0, 2);
                    }
                    return w.getRawMode(1) == 0 && w.getRawMode(2) == 0;
                }

                @Override
                public boolean shouldBeRecursive() {
                    return true;
                }

                @Override
                public TreeFilter clone() {
                    return this;
                }
            });
            while (tw.next()) {
                out.add(tw.getPathString());
            }
        }
        return out;
    }

    private static Map<String, String> renames(
            ObjectReader reader,
            DiffConfig config,
            RevTree base,
            RevTree side,
            Set<String> unmerged,
            Set<String> bothDeleted)
            throws IOException {
        Set<String> deleted = new HashSet<>(bothDeleted);
        for (String p : unmerged) {
            if (TreeWalk.forPath(reader, p, base) != null && TreeWalk.forPath(reader, p, side) == null) {
                deleted.add(p);
            }
        }
        Map<String, String> out = new HashMap<>();
        if (deleted.isEmpty()) {
            return out;
        }
        List<DiffEntry> candidates = new ArrayList<>();
        boolean anyDelete = false;
        boolean anyAdd = false;
        for (DiffEntry e : changes(reader, base, side)) {
            if (e.getChangeType() == DiffEntry.ChangeType.ADD) {
                candidates.add(e);
                anyAdd = true;
            } else if (e.getChangeType() == DiffEntry.ChangeType.DELETE && deleted.contains(e.getOldPath())) {
                candidates.add(e);
                anyDelete = true;
            }
        }
        if (!anyDelete || !anyAdd) {
            return out;
        }
        RenameDetector rd = new RenameDetector(reader, config);
        rd.addAll(candidates);
        for (DiffEntry e : rd.compute()) {
            if (e.getChangeType() == DiffEntry.ChangeType.RENAME) {
                out.put(e.getOldPath(), e.getNewPath());
            }
        }
        return out;
    }

    /** The files that differ between {@code base} and {@code side}. */
    private static List<DiffEntry> changes(ObjectReader reader, RevTree base, RevTree side) throws IOException {
        try (TreeWalk tw = new TreeWalk(reader)) {
            tw.setRecursive(true);
            tw.addTree(base);
            tw.addTree(side);
            tw.setFilter(TreeFilter.ANY_DIFF);
            return DiffEntry.scan(tw);
        }
    }
}
