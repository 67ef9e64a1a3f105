package dev.paddock.testing;

import dev.paddock.common.PaddockException;
import dev.paddock.merge.conflict.ConflictReport;
import dev.paddock.ui.conflicts.ConflictBackend;
import dev.paddock.ui.conflicts.ConflictQueueRow;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A {@link ConflictBackend} over a real repository with a merge in progress (see {@link ConflictRepo}),
 * standing in for the merge queue's resolution service until it exists: {@code markResolved} writes the
 * result into the work tree (or deletes the file) and stages it, and when no path is unmerged any more
 * commits the merge (a real two-parent commit); {@code abort} runs {@code git merge --abort}. Every call
 * is recorded for the test to check. Thread-safe enough for the panel's io threads.
 */
public final class GitConflictBackend implements ConflictBackend {
    /** One recorded resolution: the text handed over ({@code null}: delete), or the side kept. */
    public record Resolution(long mergeRequestId, String path, String text, Side side, String who) {}

    private final TempRepo repo;
    private final List<ConflictQueueRow> queue = new CopyOnWriteArrayList<>();
    private final List<Resolution> resolutions = new CopyOnWriteArrayList<>();
    private final List<Long> aborts = new CopyOnWriteArrayList<>();
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private final java.util.Map<String, ResolvedFile> resolved = new java.util.concurrent.ConcurrentHashMap<>();
    private final List<String> reopened = new CopyOnWriteArrayList<>();
    private volatile ConflictReport report;
    private volatile String failNext;
    private volatile String commit;
    private volatile boolean aborted;

    /** @param repo a repository whose merge is in progress and conflicted */
    public GitConflictBackend(TempRepo repo) {
        this.repo = repo;
    }

    /** Puts an entry in the conflict queue (as the merge queue would) and reports the change. */
    public GitConflictBackend enqueue(ConflictQueueRow row) {
        queue.add(row);
        listeners.forEach(Runnable::run);
        return this;
    }

    /** The next markResolved or abort fails with a PaddockException of this message. */
    public void failNext(String message) {
        failNext = message;
    }

    /** Resolutions handed over, in order. */
    public List<Resolution> resolutions() {
        return List.copyOf(resolutions);
    }

    /** Merge requests aborted, in order. */
    public List<Long> aborts() {
        return List.copyOf(aborts);
    }

    /** The merge commit made once every path was resolved, or null. */
    public String mergeCommit() {
        return commit;
    }

    @Override
    public List<ConflictQueueRow> queue() {
        return List.copyOf(queue);
    }

    /** Paths reopened ({@link #unresolve}), in order. */
    public List<String> reopened() {
        return List.copyOf(reopened);
    }

    /** The conflicted files as the merge left them (resolved ones included, as the merge queue reports them). */
    @Override
    public synchronized ConflictReport conflicts(long mergeRequestId) {
        if (report == null) {
            report = ConflictRepo.report(repo);
        }
        return report;
    }

    @Override
    public List<ResolvedFile> resolvedFiles(long mergeRequestId) {
        return resolved.values().stream()
                .sorted(java.util.Comparator.comparing(ResolvedFile::path))
                .toList();
    }

    /** Puts the file's unmerged stages back ({@code git update-index --unresolve}); its text stays in the work tree. */
    @Override
    public void unresolve(long mergeRequestId, String path, String who) throws PaddockException {
        failIfAsked();
        if (commit != null || aborted || resolved.remove(path) == null) {
            throw new PaddockException(path + " is not resolved in a merge waiting for resolutions");
        }
        reopened.add(path);
        repo.git("update-index", "--unresolve", "./" + path);
    }

    @Override
    public Progress progress(long mergeRequestId) {
        return commit != null
                ? new Progress(Stage.MERGED, commit, null)
                : aborted ? new Progress(Stage.CLOSED, "aborted", null) : new Progress(Stage.RESOLVING, null, null);
    }

    /** Records the merge as finished elsewhere (merged with this commit), as the merge queue would, and tells the listeners. */
    public void mergedElsewhere(String mergeCommit) {
        commit = mergeCommit;
        listeners.forEach(Runnable::run);
    }

    @Override
    public void markResolved(long mergeRequestId, String path, String resultText, String who) throws PaddockException {
        failIfAsked();
        resolutions.add(new Resolution(mergeRequestId, path, resultText, null, who));
        Path file = repo.dir().resolve(path);
        try {
            if (resultText == null) {
                Files.deleteIfExists(file);
            } else {
                Files.createDirectories(file.getParent());
                Files.writeString(file, resultText, StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            throw new PaddockException("Cannot write " + path, e);
        }
        repo.git("add", "-A", "--", path);
        resolved.put(path, new ResolvedFile(path, resultText, who));
        completeIfResolved(mergeRequestId);
    }

    @Override
    public void keepSide(long mergeRequestId, String path, Side side, String who) throws PaddockException {
        failIfAsked();
        resolutions.add(new Resolution(mergeRequestId, path, null, side, who));
        repo.git("checkout", side == Side.OURS ? "--ours" : "--theirs", "--", path);
        repo.git("add", "-A", "--", path);
        resolved.put(path, new ResolvedFile(path, null, who));
        completeIfResolved(mergeRequestId);
    }

    @Override
    public void abort(long mergeRequestId, String who) throws PaddockException {
        failIfAsked();
        aborts.add(mergeRequestId);
        aborted = true;
        repo.git("merge", "--abort");
        dequeue(mergeRequestId);
    }

    @Override
    public Runnable onChange(Runnable callback) {
        listeners.add(callback);
        return () -> listeners.remove(callback);
    }

    @Override
    public String who() {
        return "tester in the panel";
    }

    private void completeIfResolved(long mergeRequestId) {
        if (repo.git("ls-files", "-u").isBlank()) {
            repo.git("commit", "--quiet", "--no-edit");
            commit = repo.head();
            dequeue(mergeRequestId);
        }
    }

    private void dequeue(long mergeRequestId) {
        List<ConflictQueueRow> gone = new ArrayList<>();
        queue.stream().filter(r -> r.mergeRequestId() == mergeRequestId).forEach(gone::add);
        queue.removeAll(gone);
        listeners.forEach(Runnable::run);
    }

    private void failIfAsked() throws PaddockException {
        String m = failNext;
        if (m != null) {
            failNext = null;
            throw new PaddockException(m);
        }
    }
}
