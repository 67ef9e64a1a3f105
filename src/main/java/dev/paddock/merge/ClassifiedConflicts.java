package dev.paddock.merge;

import dev.paddock.merge.conflict.ConflictClassifier;
import dev.paddock.merge.conflict.ConflictClassifyException;
import dev.paddock.merge.conflict.ConflictFile;
import dev.paddock.merge.conflict.ConflictReport;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The conflict port of the merge queue backed by {@link ConflictClassifier} (hunks and their classes), checked
 * against git's own view of the same merge ({@link MergeTreeConflicts}): the queue merges with the git CLI,
 * the classifier with JGit, and where they disagree git wins. A path git left conflicted that the classifier
 * did not list is added as git reports it (no hunks: a person decides); when the classifier fails, git's
 * report is used alone. So the conflict queue never lists fewer files than the merge worktree holds.
 */
public final class ClassifiedConflicts implements ConflictAnalysis {
    private static final Logger LOG = LoggerFactory.getLogger(ClassifiedConflicts.class);

    private final ConflictClassifier classifier;
    private final ConflictAnalysis git;

    /**
     * @param classifier the classifier (hunks, classes, proposals)
     * @param git        git's view of the conflicted paths
     */
    public ClassifiedConflicts(ConflictClassifier classifier, ConflictAnalysis git) {
        this.classifier = classifier;
        this.git = git;
    }

    @Override
    public ConflictReport classify(Path repo, String ours, String theirs) throws MergeException {
        ConflictReport byGit = git.classify(repo, ours, theirs);
        ConflictReport classified;
        try {
            classified = classifier.classify(repo, ours, theirs);
        } catch (ConflictClassifyException | RuntimeException e) {
            LOG.warn(
                    "Cannot classify the conflicts of {} into {} in {}: {}; listing git's conflicted paths only",
                    theirs,
                    ours,
                    repo,
                    e.getMessage());
            return byGit;
        }
        Set<String> seen = new HashSet<>();
        List<ConflictFile> files = new ArrayList<>(classified.files());
        classified.files().forEach(f -> seen.add(f.path()));
        byGit.files().stream().filter(f -> !seen.contains(f.path())).forEach(files::add);
        files.sort(Comparator.comparing(ConflictFile::path));
        return new ConflictReport(classified.ours(), classified.theirs(), classified.base(), files);
    }
}
