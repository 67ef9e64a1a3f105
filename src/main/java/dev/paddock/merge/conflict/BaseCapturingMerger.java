package dev.paddock.merge.conflict;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jgit.attributes.Attribute;
import org.eclipse.jgit.attributes.Attributes;
import org.eclipse.jgit.dircache.DirCacheBuildIterator;
import org.eclipse.jgit.lib.Config;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.merge.MergeAttributes;
import org.eclipse.jgit.merge.RecursiveMerger;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.treewalk.CanonicalTreeParser;
import org.eclipse.jgit.treewalk.WorkingTreeIterator;

/**
 * JGit's recursive merger, keeping the merge base it used (for a criss-cross history a virtual commit JGit builds
 * in memory, whose id names no object in the repository, which {@link #getBaseCommitId()} alone cannot give back
 * as a tree), and not merging as text the files {@link TextMergeLimits} names when both sides changed them: such a
 * file is left conflicted as a binary file would be ({@link #skipped()}), and the caller asks git whether its text
 * merge really conflicts. Files of a virtual merge base are merged as usual.
 */
final class BaseCapturingMerger extends RecursiveMerger {
    private static final MergeAttributes NO_TEXT_MERGE = new MergeAttributes() {
        private final Attributes unset = new Attributes(new Attribute(Constants.ATTR_MERGE, Attribute.State.UNSET));

        @Override
        public Attributes base() {
            return unset;
        }

        @Override
        public Attributes ours() {
            return unset;
        }

        @Override
        public Attributes theirs() {
            return unset;
        }
    };

    private RevCommit base;
    private boolean inBase;
    private final List<String> skipped = new ArrayList<>();

    BaseCapturingMerger(ObjectInserter inserter, Config config) {
        super(inserter, config);
    }

    @Override
    protected RevCommit getBaseCommit(RevCommit a, RevCommit b) throws IOException {
        inBase = true;
        try {
            base = super.getBaseCommit(a, b);
        } finally {
            inBase = false;
        }
        return base;
    }

    @Override
    protected boolean processEntry(
            CanonicalTreeParser baseTree,
            CanonicalTreeParser ours,
            CanonicalTreeParser theirs,
            DirCacheBuildIterator index,
            WorkingTreeIterator work,
            boolean ignoreConflicts,
            MergeAttributes attributes)
            throws IOException {
        if (!inBase
                && isFile(ours)
                && isFile(theirs)
                && (baseTree == null || isFile(baseTree))
                && !ours.getEntryObjectId().equals(theirs.getEntryObjectId())
                && (baseTree == null
                        || (!baseTree.getEntryObjectId().equals(ours.getEntryObjectId())
                                && !baseTree.getEntryObjectId().equals(theirs.getEntryObjectId())))) {
            String path = tw.getPathString();
            long largest = Math.max(size(ours), size(theirs));
            if (TextMergeLimits.skipsTextMerge(path, baseTree == null ? largest : Math.max(largest, size(baseTree)))) {
                skipped.add(path);
                return super.processEntry(baseTree, ours, theirs, index, work, ignoreConflicts, NO_TEXT_MERGE);
            }
        }
        return super.processEntry(baseTree, ours, theirs, index, work, ignoreConflicts, attributes);
    }

    private static boolean isFile(CanonicalTreeParser p) {
        return p != null && (p.getEntryRawMode() & FileMode.TYPE_MASK) == FileMode.TYPE_FILE;
    }

    private long size(CanonicalTreeParser p) throws IOException {
        return reader.getObjectSize(p.getEntryObjectId(), Constants.OBJ_BLOB);
    }

    /** The merge base of the last merge (real or virtual), null when the histories are unrelated. */
    RevCommit base() {
        return base;
    }

    /** The paths changed on both sides that were left conflicted without a text merge ({@link TextMergeLimits}). */
    List<String> skipped() {
        return skipped;
    }
}
