package dev.paddock.merge;

import dev.paddock.repo.RepoRecord;
import dev.paddock.worktree.GitException;
import java.nio.file.Path;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Base's checked-out tree (usually the main worktree), as the queue treats it: never touched while it has
 * uncommitted changes to tracked files, and its files follow the ref only after the compare-and-set moved base.
 */
final class CheckedOutBase {
    private static final Logger LOG = LoggerFactory.getLogger(CheckedOutBase.class);

    private CheckedOutBase() {}

    /** Why the queue waits: base is checked out in {@code tree} with uncommitted changes to {@code files}. */
    static String refusal(RepoRecord repo, Path tree, List<String> files) {
        return "The merge queue waits: " + repo.baseBranch() + " is checked out in " + tree
                + " with uncommitted changes to " + String.join(", ", files.subList(0, Math.min(files.size(), 20)))
                + (files.size() > 20 ? " and " + (files.size() - 20) + " more" : "")
                + ". Commit or stash them; Paddock never touches your own files.";
    }

    /**
     * Lets the files of base's checked-out tree follow the ref ({@link MergeGit#followRef}); a refusal is logged.
     *
     * @return why they did not follow, or null when they did
     */
    static String follow(MergeGit git, Path tree, String from, String to, boolean checkIndex) {
        try {
            if (!git.followRef(tree, from, to, checkIndex)) {
                LOG.warn("Not updating the files of {}: its index no longer matches {}", tree, from);
                return "its index no longer matches " + from;
            }
            return null;
        } catch (GitException ex) {
            LOG.warn("{}", ex.getMessage());
            return ex.getMessage();
        }
    }
}
