package dev.paddock.diff;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.eclipse.jgit.diff.DiffEntry;
import org.eclipse.jgit.diff.Edit;
import org.eclipse.jgit.lib.AbbreviatedObjectId;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.patch.FileHeader;
import org.eclipse.jgit.treewalk.AbstractTreeIterator;
import org.eclipse.jgit.treewalk.CanonicalTreeParser;
import org.eclipse.jgit.treewalk.EmptyTreeIterator;

/**
 * The changed files between two trees, with their line counts: each file's text is diffed once, its hunks handed on
 * before the next file is read (no patch text is built), and a file renamed without change is not read at all.
 */
final class FileChanges {
    /** Threads that read a long list's files (the caller's and helpers); more than two cores rarely help git's I/O. */
    static final int READERS = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));

    private FileChanges() {}

    /**
     * A changed file and the JGit entries it came from (to format it later): one, or for a type change (a file that
     * became a symbolic link, or the other way) the deletion and the addition of the same path, as git shows it.
     */
    record Entry(FileChange change, List<DiffEntry> entries) {}

    /**
     * The entries of {@code scanned} by file: a deletion and an addition of the same path (JGit, like git's patch,
     * breaks a type change in two) are one file, where the deletion was; every other entry is one on its own.
     */
    static List<List<DiffEntry>> byFile(List<DiffEntry> scanned) {
        java.util.Map<String, Integer> added = new java.util.HashMap<>();
        for (int i = 0; i < scanned.size(); i++) {
            if (scanned.get(i).getChangeType() == DiffEntry.ChangeType.ADD) {
                added.put(scanned.get(i).getNewPath(), i);
            }
        }
        java.util.Set<Integer> paired = new java.util.HashSet<>();
        List<List<DiffEntry>> out = new ArrayList<>(scanned.size());
        for (int i = 0; i < scanned.size(); i++) {
            DiffEntry e = scanned.get(i);
            Integer add = e.getChangeType() == DiffEntry.ChangeType.DELETE ? added.get(e.getOldPath()) : null;
            if (add != null && paired.add(add)) {
                out.add(List.of(e, scanned.get(add)));
            } else if (!paired.contains(i)) {
                out.add(List.of(e));
            }
        }
        return out;
    }

    /**
     * The files changed from {@code oldTree} to {@code newTree}, renames detected, in git's order; with
     * {@code ignoreWhitespace}, files whose only change is whitespace are left out. Each file's text is diffed once:
     * its hunks go to {@code patches} (which may keep them; called from several threads) and only its counts stay in
     * the list. The files are read on up to {@link #READERS} threads, each taking the next file not taken yet.
     */
    static List<Entry> between(
            Repository repo, ObjectId oldTree, ObjectId newTree, boolean ignoreWhitespace, Consumer<FilePatch> patches)
            throws IOException {
        List<List<DiffEntry>> all;
        try (GitPatchFormatter f = new GitPatchFormatter(OutputStream.nullOutputStream(), repo, ignoreWhitespace);
                ObjectReader reader = repo.newObjectReader()) {
            all = byFile(scan(f, reader, oldTree, newTree));
        }
        FileChange[] changes = new FileChange[all.size()];
        AtomicInteger next = new AtomicInteger();
        Callable<Void> reading = () -> {
            try (GitPatchFormatter f = new GitPatchFormatter(OutputStream.nullOutputStream(), repo, ignoreWhitespace);
                    ObjectReader reader = repo.newObjectReader()) {
                for (int i = next.getAndIncrement(); i < changes.length; i = next.getAndIncrement()) {
                    List<DiffEntry> e = all.get(i);
                    FilePatch p = patch(repo, f, reader, e, ignoreWhitespace);
                    if (!(ignoreWhitespace && whitespaceOnly(p.file(), e.get(0)))) {
                        changes[i] = p.file();
                        if (!p.hunks().isEmpty()) {
                            patches.accept(p);
                        }
                    }
                }
            }
            return null;
        };
        int helpers = all.size() < 64 ? 0 : READERS - 1;
        List<FutureTask<Void>> started = new ArrayList<>();
        for (int t = 0; t < helpers; t++) {
            FutureTask<Void> task = new FutureTask<>(reading);
            Thread th = new Thread(task, "diff-read-" + (t + 1));
            th.setDaemon(true);
            th.start();
            started.add(task);
        }
        IOException failed = null;
        try {
            reading.call();
        } catch (IOException e) {
            failed = e;
        } catch (Exception e) {
            failed = new IOException(e.getMessage(), e);
        }
        for (FutureTask<Void> task : started) {
            try {
                task.get();
            } catch (ExecutionException e) {
                if (failed == null) {
                    failed = e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                next.set(changes.length);
                throw new java.io.InterruptedIOException("interrupted while reading a diff");
            }
        }
        if (failed != null) {
            throw failed;
        }
        List<Entry> out = new ArrayList<>();
        for (int i = 0; i < changes.length; i++) {
            if (changes[i] != null) {
                out.add(new Entry(changes[i], all.get(i)));
            }
        }
        return out;
    }

    /** A modified file whose only change is whitespace (counted with whitespace ignored: no line changed). */
    private static boolean whitespaceOnly(FileChange c, DiffEntry e) {
        return c.kind() == ChangeKind.MODIFIED
                && !c.binary()
                && c.added() == 0
                && c.deleted() == 0
                && e.getOldMode().equals(e.getNewMode());
    }

    /**
     * One file's change with its hunks ({@link #byFile}): a type change's are the old file's lines deleted, then the
     * new one's added.
     */
    static FilePatch patch(
            Repository repo, GitPatchFormatter f, ObjectReader reader, List<DiffEntry> file, boolean ignoreWhitespace)
            throws IOException {
        if (file.size() == 1) {
            return patch(repo, f, reader, file.get(0), ignoreWhitespace);
        }
        FilePatch gone = patch(repo, f, reader, file.get(0), ignoreWhitespace);
        FilePatch come = patch(repo, f, reader, file.get(1), ignoreWhitespace);
        List<Hunk> hunks = new ArrayList<>(gone.hunks());
        hunks.addAll(come.hunks());
        FileChange c = new FileChange(
                come.file().path(),
                null,
                ChangeKind.TYPE_CHANGED,
                gone.file().added() + come.file().added(),
                gone.file().deleted() + come.file().deleted(),
                gone.file().binary() || come.file().binary(),
                come.file().newSize());
        return new FilePatch(c, hunks, gone.tooLarge() || come.tooLarge());
    }

    /**
     * One entry's change with its hunks; counts only (no hunks) when a side is over
     * {@link DiffService#MAX_TEXT_BYTES}, nothing read when both sides are the same blob.
     */
    static FilePatch patch(
            Repository repo, GitPatchFormatter f, ObjectReader reader, DiffEntry e, boolean ignoreWhitespace)
            throws IOException {
        if (sameContent(e)) {
            return new FilePatch(of(reader, e, 0, 0, false), List.of(), false);
        }
        boolean tooLarge = size(reader, e.getOldMode(), e.getOldId()) > DiffService.MAX_TEXT_BYTES
                || size(reader, e.getNewMode(), e.getNewId()) > DiffService.MAX_TEXT_BYTES;
        if (tooLarge) {
            return new FilePatch(change(f, reader, e), List.of(), true);
        }
        HunkCollector.Result h = HunkCollector.hunks(repo, e, ignoreWhitespace);
        return new FilePatch(of(reader, e, h.added(), h.deleted(), h.binary()), h.hunks(), false);
    }

    /** The entries from {@code oldTree} to {@code newTree}, renames detected, without their content read. */
    static List<DiffEntry> scan(GitPatchFormatter f, ObjectReader reader, ObjectId oldTree, ObjectId newTree)
            throws IOException {
        return f.scan(tree(reader, oldTree), tree(reader, newTree));
    }

    /** A walk over a tree, or over nothing when {@code id} is null. */
    static AbstractTreeIterator tree(ObjectReader reader, ObjectId id) throws IOException {
        if (id == null) {
            return new EmptyTreeIterator();
        }
        CanonicalTreeParser p = new CanonicalTreeParser();
        p.reset(reader, id);
        return p;
    }

    /** One entry's change with its counts (reads both sides unless they are the same blob). */
    static FileChange change(GitPatchFormatter f, ObjectReader reader, DiffEntry e) throws IOException {
        if (sameContent(e)) {
            return of(reader, e, 0, 0, false);
        }
        FileHeader h = f.toFileHeader(e);
        int added = 0;
        int deleted = 0;
        for (Edit edit : h.toEditList()) {
            added += edit.getLengthB();
            deleted += edit.getLengthA();
        }
        return of(reader, e, added, deleted, h.getPatchType() != FileHeader.PatchType.UNIFIED);
    }

    /** An entry's change with counts known already. */
    static FileChange of(ObjectReader reader, DiffEntry e, int added, int deleted, boolean binary) throws IOException {
        ChangeKind kind = kind(e.getChangeType());
        String path = kind == ChangeKind.DELETED ? e.getOldPath() : e.getNewPath();
        String oldPath = kind == ChangeKind.RENAMED || kind == ChangeKind.COPIED ? e.getOldPath() : null;
        long size = kind == ChangeKind.DELETED ? 0 : size(reader, e.getNewMode(), e.getNewId());
        return new FileChange(path, oldPath, kind, added, deleted, binary, size);
    }

    /** Whether both sides are the same blob (a rename or copy without change, a mode change). */
    static boolean sameContent(DiffEntry e) {
        AbbreviatedObjectId a = e.getOldId();
        AbbreviatedObjectId b = e.getNewId();
        return a != null
                && b != null
                && a.isComplete()
                && b.isComplete()
                && a.equals(b)
                && !ObjectId.zeroId().equals(a.toObjectId());
    }

    /** The size of a blob in bytes; 0 for a submodule or nothing. */
    static long size(ObjectReader reader, FileMode mode, AbbreviatedObjectId id) throws IOException {
        if (id == null
                || !id.isComplete()
                || mode.getObjectType() != Constants.OBJ_BLOB
                || ObjectId.zeroId().equals(id.toObjectId())) {
            return 0;
        }
        return reader.getObjectSize(id.toObjectId(), Constants.OBJ_BLOB);
    }

    static ChangeKind kind(DiffEntry.ChangeType t) {
        return switch (t) {
            case ADD -> ChangeKind.ADDED;
            case MODIFY -> ChangeKind.MODIFIED;
            case DELETE -> ChangeKind.DELETED;
            case RENAME -> ChangeKind.RENAMED;
            case COPY -> ChangeKind.COPIED;
        };
    }
}
