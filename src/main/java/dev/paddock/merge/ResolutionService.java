package dev.paddock.merge;

import dev.paddock.common.PaddockException;
import dev.paddock.events.EventDraft;
import dev.paddock.events.EventKinds;
import dev.paddock.merge.conflict.ConflictReport;
import dev.paddock.repo.RepoRecord;
import dev.paddock.sandbox.SandboxState;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What the three-way view asks of the conflict queue: the conflicts of an entry, marking a file resolved (the
 * result is written into the entry's merge worktree and staged; once every file is, the queue tests, commits the
 * two-parent merge and moves base), and aborting (the merge worktree goes, base never moved). Each resolution
 * and who made it is stored and written to the events feed.
 */
public final class ResolutionService {
    private final MergeQueue queue;
    private final MergeStore store;

    public ResolutionService(MergeQueue queue) {
        this.queue = queue;
        this.store = queue.store();
    }

    /**
     * The conflicted files of an entry, resolved ones included ({@link #resolvedFiles} says which), with their three
     * texts and hunks (from {@link ConflictAnalysis}).
     *
     * @throws MergeException NOT_FOUND, or CONFLICT when the entry is not in the conflict queue or was aborted
     */
    public ConflictReport conflicts(long mergeRequestId) throws PaddockException {
        MergeEntry e = open(mergeRequestId);
        RepoRecord repo = repo(e);
        Set<String> conflicted = store.conflicts(e.id()).stream()
                .map(MergeStore.StoredConflict::path)
                .collect(Collectors.toSet());
        ConflictReport full = queue.analysis()
                .classify(repo.path(), e.attempt().baseBefore(), e.attempt().theirsCommit());
        return new ConflictReport(
                full.ours(),
                full.theirs(),
                full.base(),
                full.files().stream().filter(f -> conflicted.contains(f.path())).toList());
    }

    /**
     * A file of a conflicted merge that was resolved, as it is in the merge worktree now.
     *
     * @param text its resolved text (UTF-8), or null when the resolution deleted it or it is not text
     */
    public record ResolvedFile(String path, String by, Instant at, String text) {}

    /**
     * The resolved files of an entry in the conflict queue, by path, with their resolved text read from the merge
     * worktree.
     *
     * @throws MergeException as {@link #conflicts}
     */
    public List<ResolvedFile> resolvedFiles(long mergeRequestId) throws PaddockException {
        MergeEntry e = open(mergeRequestId);
        List<ResolvedFile> out = new ArrayList<>();
        for (MergeStore.StoredConflict c : store.conflicts(e.id())) {
            if (c.resolved()) {
                out.add(new ResolvedFile(
                        c.path(),
                        c.resolvedBy(),
                        c.resolvedAt(),
                        textIn(e.attempt().worktree(), c.path())));
            }
        }
        return out;
    }

    private static String textIn(Path worktree, String path) {
        Path f = worktree.resolve(path).normalize();
        if (!f.startsWith(worktree) || !Files.isRegularFile(f, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .decode(java.nio.ByteBuffer.wrap(Files.readAllBytes(f)))
                    .toString();
        } catch (IOException notText) {
            return null; // unreadable, or not UTF-8 (CharacterCodingException)
        }
    }

    /**
     * Reopens a resolved file of an entry in the conflict queue: it counts as unresolved again, its resolved text stays
     * in the merge worktree (the three-way view starts from it), and a person resolves it anew. Refused once the queue
     * started finishing the merge (every file resolved): the finish and a reopening never both happen
     * ({@link MergeStore#unresolve}).
     *
     * @throws MergeException NOT_FOUND; BAD_REQUEST when the path is not a conflicted file of the entry; CONFLICT when
     *     the entry is no longer waiting for a resolution (finishing, merged, aborted) or the file is not resolved
     */
    public void unresolve(long mergeRequestId, String path, String who) throws PaddockException {
        MergeEntry e = open(mergeRequestId);
        List<MergeStore.StoredConflict> files = store.conflicts(e.id());
        MergeStore.StoredConflict c = files.stream()
                .filter(f -> f.path().equals(path))
                .findFirst()
                .orElseThrow(() -> new MergeException(
                        MergeException.Kind.BAD_REQUEST, path + " is not a conflicted file of " + e.label()));
        if (!c.resolved()) {
            throw new MergeException(MergeException.Kind.CONFLICT, path + " is not resolved in " + e.label());
        }
        if (!store.unresolve(
                e.id(),
                path,
                EventDraft.of(
                        e.repositoryId(),
                        e.request().sandboxId(),
                        EventKinds.MERGE_UNRESOLVED,
                        who + " reopened " + path + " in " + e.label() + " (resolved before by " + c.resolvedBy() + ")",
                        Map.of("path", path, "by", who)))) {
            MergeEntry now = store.find(e.id()).orElseThrow(() -> MergeService.notFound(e.id()));
            throw new MergeException(
                    MergeException.Kind.CONFLICT,
                    path + " cannot be reopened: " + now.label() + " is "
                            + now.state().id()
                            + (now.state() == MergeState.RUNNING ? " (its merge is being finished)" : ""));
        }
        if (queue.git().resolve(e.attempt().worktree(), "MERGE_HEAD").isPresent()) {
            // Only for git's own view of the merge worktree: the store decides what is resolved, and marking the
            // file resolved again stages it again.
            queue.git().unstageResolution(e.attempt().worktree(), path);
        }
    }

    /**
     * Marks one conflicted file resolved: writes {@code resultText} (UTF-8) into the merge worktree, or deletes the
     * file when it is null, stages it, and stores the resolution with {@code who} and the time. When it was the
     * last unresolved file, the merge is finished on the repository's queue thread (tests, commit, base).
     *
     * @throws MergeException NOT_FOUND; BAD_REQUEST when the path is not a conflicted file of the entry or leaves
     *     the worktree; CONFLICT when the entry is not waiting for a resolution; FAILED when the file cannot be written
     */
    public void markResolved(long mergeRequestId, String path, String resultText, String who) throws PaddockException {
        MergeEntry e = open(mergeRequestId);
        List<MergeStore.StoredConflict> files = store.conflicts(e.id());
        if (files.stream().noneMatch(c -> c.path().equals(path))) {
            throw new MergeException(
                    MergeException.Kind.BAD_REQUEST, path + " is not a conflicted file of " + e.label());
        }
        Path target = e.attempt().worktree().resolve(path).normalize();
        if (!target.startsWith(e.attempt().worktree())) {
            throw new MergeException(MergeException.Kind.BAD_REQUEST, path + " leaves the merge worktree");
        }
        try {
            if (resultText == null) {
                Files.deleteIfExists(target);
            } else {
                Files.createDirectories(target.getParent());
                Files.writeString(target, resultText, StandardCharsets.UTF_8);
            }
        } catch (IOException ex) {
            throw new MergeException(MergeException.Kind.FAILED, "Cannot write " + target + ": " + ex.getMessage(), ex);
        }
        queue.git().stage(e.attempt().worktree(), path, resultText == null);
        store.resolve(
                e.id(),
                path,
                resultText == null ? "deleted" : resultText,
                who,
                EventDraft.of(
                        e.repositoryId(),
                        e.request().sandboxId(),
                        EventKinds.MERGE_RESOLVED,
                        who + " resolved " + path + (resultText == null ? " (deleted)" : "") + " in " + e.label(),
                        Map.of("path", path, "by", who)));
        boolean all = store.conflicts(e.id()).stream().allMatch(MergeStore.StoredConflict::resolved);
        if (all) {
            queue.completeResolved(repo(e), store.find(e.id()).orElseThrow());
        }
    }

    /**
     * Marks one conflicted file resolved by keeping ours' or theirs' version as is (binary files, or when the bytes
     * matter): that side's commit's version ({@code git checkout <commit> -- path}, so it also works after a finish
     * whose test failed) in the merge worktree, staged; a side that deleted the file deletes it. Stored, announced
     * and completed like {@link #markResolved}.
     *
     * @param theirs true for the agent's branch, false for base's
     * @throws MergeException as {@link #markResolved}
     */
    public void keepSide(long mergeRequestId, String path, boolean theirs, String who) throws PaddockException {
        MergeEntry e = open(mergeRequestId);
        if (store.conflicts(e.id()).stream().noneMatch(c -> c.path().equals(path))) {
            throw new MergeException(
                    MergeException.Kind.BAD_REQUEST, path + " is not a conflicted file of " + e.label());
        }
        Path wt = e.attempt().worktree();
        if (!wt.resolve(path).normalize().startsWith(wt)) {
            throw new MergeException(MergeException.Kind.BAD_REQUEST, path + " leaves the merge worktree");
        }
        String side = theirs ? "theirs (" + e.request().branch() + ")" : "ours (base)";
        String commit = theirs ? e.attempt().theirsCommit() : e.attempt().baseBefore();
        boolean kept = commit != null
                ? queue.git().keepVersion(wt, path, commit)
                : queue.git().keepSide(wt, path, theirs);
        String what = kept ? "kept " + side : "deleted, as in " + side;
        store.resolve(
                e.id(),
                path,
                what,
                who,
                EventDraft.of(
                        e.repositoryId(),
                        e.request().sandboxId(),
                        EventKinds.MERGE_RESOLVED,
                        who + " resolved " + path + " (" + what + ") in " + e.label(),
                        Map.of("path", path, "by", who)));
        if (store.conflicts(e.id()).stream().allMatch(MergeStore.StoredConflict::resolved)) {
            queue.completeResolved(repo(e), store.find(e.id()).orElseThrow());
        }
    }

    /**
     * Aborts a conflicted merge: {@code git merge --abort}, the merge worktree removed, base untouched. The entry
     * stays in state conflict (without worktree) and its sandbox waits for a person, who may retry it.
     *
     * @throws MergeException NOT_FOUND, or CONFLICT when it is not a conflict with a merge in progress
     */
    public void abort(long mergeRequestId, String who) throws PaddockException {
        MergeEntry e = open(mergeRequestId);
        RepoRecord repo = repo(e);
        String sandbox = e.request().sandboxId();
        queue.git().abortMerge(e.attempt().worktree());
        queue.git().remove(repo.path(), e.attempt().worktree());
        store.move(
                e.id(),
                MergeState.CONFLICT,
                MergeState.CONFLICT,
                MergeChange.of(MergeChange.WORKTREE, null)
                        .set(MergeChange.RESULT, "merge aborted by " + who + "; retry to merge afresh"),
                EventDraft.of(
                        e.repositoryId(),
                        sandbox,
                        EventKinds.MERGE_ABORTED,
                        who + " aborted the merge of " + e.label() + "; " + repo.baseBranch() + " is unchanged",
                        Map.of("by", who)));
        queue.sandboxLink()
                .move(
                        sandbox,
                        SandboxState.AWAITING_HUMAN,
                        sandbox + " waits for a person: its merge was aborted by " + who);
    }

    /** Cancel of a conflicted entry: abort if a merge is in progress, then cancelled. */
    void cancelConflict(MergeEntry e, String who) throws PaddockException {
        RepoRecord repo = repo(e);
        if (e.attempt().worktree() != null) {
            queue.git().abortMerge(e.attempt().worktree());
            queue.git().remove(repo.path(), e.attempt().worktree());
        }
        store.move(
                e.id(),
                MergeState.CONFLICT,
                MergeState.CANCELLED,
                MergeChange.of(MergeChange.WORKTREE, null)
                        .set(MergeChange.FINISHED_AT, store.now())
                        .set(MergeChange.RESULT, "cancelled by " + who),
                MergeQueue.event(
                        e,
                        EventKinds.MERGE_CANCELLED,
                        e.label() + " was cancelled by " + who + "; " + repo.baseBranch() + " is unchanged"));
        queue.sandboxLink()
                .move(
                        e.request().sandboxId(),
                        SandboxState.AWAITING_HUMAN,
                        e.request().sandboxId() + " waits for a person: its merge was cancelled by " + who);
    }

    private MergeEntry open(long id) throws PaddockException {
        MergeEntry e = store.find(id).orElseThrow(() -> MergeService.notFound(id));
        if (e.state() != MergeState.CONFLICT || e.attempt().worktree() == null) {
            throw new MergeException(
                    MergeException.Kind.CONFLICT,
                    e.label() + " is " + e.state().id()
                            + (e.state() == MergeState.CONFLICT ? " but its merge was aborted; retry it first" : "")
                            + ": no conflict waits for a resolution.");
        }
        return e;
    }

    private RepoRecord repo(MergeEntry e) throws PaddockException {
        return queue.sandboxLink()
                .targetOf(
                        queue.repos()
                                .find(e.repositoryId())
                                .orElseThrow(() -> new MergeException(
                                        MergeException.Kind.NOT_FOUND, "no repository with id " + e.repositoryId())),
                        e.request().sandboxId());
    }
}
