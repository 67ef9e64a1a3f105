package dev.paddock.merge;

import dev.paddock.merge.conflict.ConflictReport;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Remembers the last few conflict reports of another {@link ConflictAnalysis}, so the three-way view opened on
 * a conflict the queue has just classified shows it at once instead of merging the two commits again (a
 * 5,000-line file with 50 hunks costs about 200 ms to classify). A report depends only on the repository and the
 * two commit ids, which name fixed contents, so a remembered one is never stale for the same key. Thread-safe;
 * at most {@link #CAPACITY} reports are kept, the least recently used is dropped first.
 */
public final class RememberedConflicts implements ConflictAnalysis {
    /** Reports kept (each holds the base, ours and theirs texts of its conflicted files). */
    static final int CAPACITY = 16;

    private record Key(Path repo, String ours, String theirs) {}

    private final ConflictAnalysis analysis;
    private final Map<Key, ConflictReport> recent = new LinkedHashMap<>(CAPACITY, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, ConflictReport> eldest) {
            return size() > CAPACITY;
        }
    };

    /** @param analysis the analysis whose reports are remembered */
    public RememberedConflicts(ConflictAnalysis analysis) {
        this.analysis = analysis;
    }

    /**
     * The remembered report of this merge, else the wrapped analysis's (then remembered).
     *
     * @throws MergeException as the wrapped analysis does (nothing is remembered then)
     */
    @Override
    public ConflictReport classify(Path repo, String ours, String theirs) throws MergeException {
        Key key = new Key(repo.toAbsolutePath().normalize(), ours, theirs);
        synchronized (recent) {
            ConflictReport known = recent.get(key);
            if (known != null) {
                return known;
            }
        }
        ConflictReport report = analysis.classify(repo, ours, theirs);
        synchronized (recent) {
            recent.put(key, report);
        }
        return report;
    }
}
