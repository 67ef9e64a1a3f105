package dev.paddock.ui.conflicts;

import dev.paddock.common.PaddockException;
import dev.paddock.merge.conflict.ConflictReport;
import java.util.List;

/**
 * What the conflict queue and the three-way view need from Paddock's merge queue (its resolution
 * service). Every method but {@link #onChange} and {@link #who} may block on the store, git or the
 * test command: the panel calls them off the FX thread.
 */
public interface ConflictBackend {
    /** Which side of a conflict to keep whole (binary files, where there is no text to send). */
    enum Side {
        OURS,
        THEIRS
    }

    /**
     * A conflicted file already resolved.
     *
     * @param text its resolved text, or null when it was deleted or is not text
     * @param by   who resolved it
     */
    record ResolvedFile(String path, String text, String by) {}

    /** Where a merge request shown in the three-way view stands. */
    enum Stage {
        /** In the conflict queue: files wait for a person (also after a finish that failed: see the detail). */
        RESOLVING,
        /** Every file is resolved: the merge queue tests and commits it. */
        FINISHING,
        /** Merged into base. */
        MERGED,
        /** Nothing to resolve here any more: aborted, cancelled, failed for good, or queued again. */
        CLOSED
    }

    /**
     * @param stage  where it stands
     * @param detail what the merge queue last said about it (why a finish failed, the merge commit...), or null
     * @param since  when it last entered or left the merge queue's finishing step, or null (tells a finish that
     *               failed from one not started yet)
     */
    record Progress(Stage stage, String detail, java.time.Instant since) {}

    /** Merge requests waiting in the conflict queue of every repository, oldest first. */
    List<ConflictQueueRow> queue() throws PaddockException;

    /**
     * The conflicted files of a merge request with their three versions and hunks.
     *
     * @throws PaddockException when the request is gone or its conflicts cannot be read
     */
    ConflictReport conflicts(long mergeRequestId) throws PaddockException;

    /**
     * The files of {@link #conflicts} already resolved, with their resolved text.
     *
     * @throws PaddockException as {@link #conflicts}
     */
    List<ResolvedFile> resolvedFiles(long mergeRequestId) throws PaddockException;

    /**
     * Reopens a resolved file: it is unresolved again and its resolved text stays as the result to edit.
     *
     * @throws PaddockException when the file is not resolved, or the merge is no longer waiting for resolutions
     *     (it is being finished, merged, or aborted)
     */
    void unresolve(long mergeRequestId, String path, String who) throws PaddockException;

    /**
     * Where the merge request stands now.
     *
     * @throws PaddockException when it cannot be read
     */
    Progress progress(long mergeRequestId) throws PaddockException;

    /**
     * Records the resolution of one file: its result text is written (or the file deleted). Once every
     * file of the request is resolved, the merge completes (test command, merge commit, queue continues).
     *
     * @param path       the file's repository-relative path as in {@link dev.paddock.merge.conflict.ConflictFile}
     * @param resultText the whole resolved text; {@code null} deletes the file
     * @param who        who resolved it, for the events feed ("ann in the panel")
     * @throws PaddockException when the request is no longer in conflict, or the write or merge failed
     */
    void markResolved(long mergeRequestId, String path, String resultText, String who) throws PaddockException;

    /**
     * Resolves a file by keeping one side's version as is (binary files, and text kinds where the
     * bytes matter). Same effects and errors as {@link #markResolved}.
     */
    void keepSide(long mergeRequestId, String path, Side side, String who) throws PaddockException;

    /**
     * Abandons the merge: everything is restored as before it started and the request leaves the
     * conflict queue (it waits for a human).
     *
     * @throws PaddockException when the request is gone or the restore failed
     */
    void abort(long mergeRequestId, String who) throws PaddockException;

    /**
     * Registers a callback run (on any thread) when the conflict queue changed.
     *
     * @return a handle that unregisters it
     */
    Runnable onChange(Runnable callback);

    /** Who resolutions are recorded as ("ann in the panel"). */
    String who();
}
