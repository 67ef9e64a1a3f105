package dev.paddock.diff;

import dev.paddock.common.PaddockException;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxService;
import dev.paddock.worktree.GitCli;
import dev.paddock.worktree.GitException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.eclipse.jgit.diff.DiffEntry;
import org.eclipse.jgit.errors.MissingObjectException;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;

/**
 * A sandbox's whole change against its base: the commits on its branch since its base commit and what its worktree
 * holds beyond them (uncommitted and untracked files, not ignored ones), or one commit of its branch against its
 * parent. The worktree's state is written as a tree through a temporary copy of its index ({@link WorktreeTree}):
 * neither the worktree, its index nor any ref is changed. The file list holds counts, not text; a file's hunks and the
 * whole patch are computed when asked for. Each file is diffed once: the hunks found while counting are kept a while
 * ({@link DiffCache}), and a file asked with the list's {@link SandboxDiff#snapshot()} reads that state again
 * without writing the worktree's tree. A checkpoint's change (against the one before it, or against another
 * checkpoint) compares the trees of their refs ({@code refs/paddock/checkpoints/<sandbox>/<n>}), cached the same way.
 * Slow (git): never on the FX thread.
 */
public final class DiffService {
    /** A side larger than this gets counts but no hunks ({@link FilePatch#tooLarge()}). */
    public static final long MAX_TEXT_BYTES = 5L * 1024 * 1024;

    private final SandboxService sandboxes;
    private final WorktreeTree trees;
    private final DiffCache cache = new DiffCache();

    public DiffService(SandboxService sandboxes, GitCli git) {
        this.sandboxes = sandboxes;
        this.trees = new WorktreeTree(git);
    }

    /**
     * The changed files (with their counts) and the branch's commits.
     *
     * @throws PaddockException a {@code SandboxNotFoundException} for an unknown sandbox, a
     *     {@link DiffNotFoundException} when its worktree is gone, a {@link DiffException} for a commit not on its
     *     branch, a {@code GitException} when git fails
     */
    public SandboxDiff diff(String sandboxId, DiffOptions o) throws PaddockException {
        DiffOptions opts = orWhole(o);
        try (DiffSides s = sides(sandboxId, opts)) {
            List<FileChange> files = entries(s, opts.ignoreWhitespace()).stream()
                    .map(FileChanges.Entry::change)
                    .toList();
            int added = files.stream().mapToInt(FileChange::added).sum();
            int deleted = files.stream().mapToInt(FileChange::deleted).sum();
            return new SandboxDiff(
                    sandboxId,
                    s.baseCommit(),
                    s.headDescription(),
                    files,
                    s.commits(),
                    added,
                    deleted,
                    s.newTree().name());
        } catch (IOException e) {
            throw unreadable(sandboxId, e);
        }
    }

    /**
     * One file's change with its hunks: {@code path} is its new path (its old one when deleted), relative to the
     * repository's root.
     *
     * @throws DiffException when the path leaves the repository
     * @throws DiffNotFoundException when the diff does not hold that file
     */
    public FilePatch file(String sandboxId, String path, DiffOptions o) throws PaddockException {
        DiffOptions opts = orWhole(o);
        RepoPaths.check(path);
        try (DiffSides s = sides(sandboxId, opts)) {
            DiffCache.Key k = key(s, opts.ignoreWhitespace());
            FilePatch known = cache.patch(k, path);
            if (known != null) {
                return known;
            }
            try (GitPatchFormatter f =
                            new GitPatchFormatter(OutputStream.nullOutputStream(), s.repo(), opts.ignoreWhitespace());
                    ObjectReader reader = s.repo().newObjectReader()) {
                List<FileChanges.Entry> listed = cache.list(k);
                Optional<List<DiffEntry>> e = listed == null
                        ? Optional.empty()
                        : listed.stream()
                                .map(FileChanges.Entry::entries)
                                .filter(x -> touches(x.get(0), path))
                                .findFirst();
                if (e.isEmpty()) { // not listed yet, or a change of whitespace alone (left out of the list)
                    e = FileChanges.byFile(FileChanges.scan(f, reader, s.oldTree(), s.newTree())).stream()
                            .filter(x -> touches(x.get(0), path))
                            .findFirst();
                }
                List<DiffEntry> entry = e.orElseThrow(() -> new DiffNotFoundException(
                        "The change of sandbox " + sandboxId + " does not touch " + path + "."));
                FilePatch p = FileChanges.patch(s.repo(), f, reader, entry, opts.ignoreWhitespace());
                if (!p.hunks().isEmpty()) {
                    cache.putPatch(k, path, p);
                }
                return p;
            }
        } catch (IOException e) {
            throw unreadable(sandboxId, e);
        }
    }

    /** The whole unified patch, as {@code git diff -M} writes it. */
    public String patch(String sandboxId, DiffOptions o) throws PaddockException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writePatch(sandboxId, o, out);
        return out.toString(StandardCharsets.UTF_8);
    }

    /** Writes the whole unified patch to {@code out}, one file's text at a time. */
    public void writePatch(String sandboxId, DiffOptions o, OutputStream out) throws PaddockException {
        DiffOptions opts = orWhole(o);
        try (DiffSides s = sides(sandboxId, opts)) {
            List<FileChanges.Entry> listed = cache.list(key(s, opts.ignoreWhitespace()));
            List<DiffEntry> entries;
            if (listed != null) {
                entries = listed.stream().flatMap(x -> x.entries().stream()).toList();
            } else { // the patch writer leaves out changes of whitespace alone itself
                try (GitPatchFormatter f = new GitPatchFormatter(
                                OutputStream.nullOutputStream(), s.repo(), opts.ignoreWhitespace());
                        ObjectReader reader = s.repo().newObjectReader()) {
                    entries = FileChanges.scan(f, reader, s.oldTree(), s.newTree());
                }
            }
            GitPatchFormatter.writePatch(s.repo(), entries, opts.ignoreWhitespace(), out);
        } catch (IOException e) {
            throw unreadable(sandboxId, e);
        }
    }

    /** The files of a diff, from the cache or read (their hunks then cached). */
    private List<FileChanges.Entry> entries(DiffSides s, boolean ignoreWhitespace) throws IOException {
        DiffCache.Key k = key(s, ignoreWhitespace);
        List<FileChanges.Entry> known = cache.list(k);
        if (known != null) {
            return known;
        }
        List<FileChanges.Entry> read = FileChanges.between(
                s.repo(),
                s.oldTree(),
                s.newTree(),
                ignoreWhitespace,
                p -> cache.putPatch(k, p.file().path(), p));
        cache.putList(k, read);
        return read;
    }

    private static DiffCache.Key key(DiffSides s, boolean ignoreWhitespace) {
        return new DiffCache.Key(s.repo().getDirectory().toPath(), s.oldTree(), s.newTree(), ignoreWhitespace);
    }

    private static boolean touches(DiffEntry e, String path) {
        return path.equals(e.getChangeType() == DiffEntry.ChangeType.DELETE ? e.getOldPath() : e.getNewPath());
    }

    private DiffSides sides(String sandboxId, DiffOptions o) throws PaddockException, IOException {
        SandboxRecord r = sandboxes.find(sandboxId);
        Path wt = r.workspace().worktree();
        if (wt == null || !Files.isDirectory(wt)) {
            throw new DiffNotFoundException("The worktree of sandbox " + sandboxId + " is gone"
                    + (wt == null ? "" : " (" + wt + ")") + ": its change cannot be read any more.");
        }
        if (!Files.exists(wt.resolve(".git"))) {
            // Else git would climb to the repository that holds the folder and diff that one's worktree.
            throw new DiffNotFoundException("The worktree of sandbox " + sandboxId + " (" + wt
                    + ") is not a git worktree any more: its change cannot be read.");
        }
        String base = r.workspace().baseCommit();
        if (base == null || base.isBlank()) {
            throw new DiffNotFoundException("Sandbox " + sandboxId + " records no base commit to compare with.");
        }
        if (o.ofCheckpoints()) {
            WorktreeTree.State where;
            try {
                where = trees.locate(wt);
            } catch (GitException e) {
                throw new DiffNotFoundException(
                        "The worktree of sandbox " + sandboxId + " (" + wt + ") cannot be read: " + e.getMessage());
            }
            return DiffSides.ofCheckpoints(sandboxId, base, where, o.checkpoint(), o.toCheckpoint());
        }
        String snapshot = o.commit() == null ? o.snapshot() : null;
        if (snapshot != null && !ObjectId.isId(snapshot)) {
            throw new DiffException("A snapshot is a tree id of 40 hex digits, not " + snapshot + ".");
        }
        WorktreeTree.State state;
        try {
            state = o.commit() == null && snapshot == null
                    ? trees.write(wt)
                    : trees.locate(wt).at(snapshot);
        } catch (GitException e) {
            throw new DiffNotFoundException(
                    "The worktree of sandbox " + sandboxId + " (" + wt + ") cannot be read: " + e.getMessage());
        }
        DiffSides s = DiffSides.open(sandboxId, base, state, o.commit());
        if (snapshot != null && !isTree(s, snapshot)) {
            s.close();
            throw new DiffNotFoundException("The snapshot " + snapshot + " of sandbox " + sandboxId
                    + " is not a tree of its repository: read its list of files again.");
        }
        return s;
    }

    private static boolean isTree(DiffSides s, String id) throws IOException {
        try (ObjectReader reader = s.repo().newObjectReader()) {
            return reader.open(ObjectId.fromString(id)).getType() == Constants.OBJ_TREE;
        } catch (MissingObjectException e) {
            return false;
        }
    }

    private static DiffOptions orWhole(DiffOptions o) {
        return o == null ? DiffOptions.whole() : o;
    }

    private static DiffException unreadable(String sandboxId, IOException e) {
        return new DiffException("Cannot read the change of sandbox " + sandboxId + ": " + e.getMessage(), e);
    }
}
