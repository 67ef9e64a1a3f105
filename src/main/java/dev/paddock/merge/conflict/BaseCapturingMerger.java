package dev.paddock.merge.conflict;

import java.io.IOException;
import org.eclipse.jgit.lib.Config;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.merge.RecursiveMerger;
import org.eclipse.jgit.revwalk.RevCommit;

/**
 * JGit's recursive merger, keeping the merge base it used: for a criss-cross history that is a virtual
 * commit JGit builds in memory (its id names no object in the repository), which {@link #getBaseCommitId()}
 * alone cannot give back as a tree.
 */
final class BaseCapturingMerger extends RecursiveMerger {
    private RevCommit base;

    BaseCapturingMerger(ObjectInserter inserter, Config config) {
        super(inserter, config);
    }

    @Override
    protected RevCommit getBaseCommit(RevCommit a, RevCommit b) throws IOException {
        base = super.getBaseCommit(a, b);
        return base;
    }

    /** The merge base of the last merge (real or virtual), null when the histories are unrelated. */
    RevCommit base() {
        return base;
    }
}
