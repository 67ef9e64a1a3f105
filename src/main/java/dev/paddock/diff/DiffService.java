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
import org.eclipse.jgit.diff.DiffEntry;
import org.eclipse.jgit.lib.ObjectReader;

/**
 * A sandbox's whole change against its base: the commits on its branch since its base commit and what its worktree
 * holds beyond them (uncommitted and untracked files, not ignored ones), or one commit of its branch against its
 * parent. The worktree's state is written as a tree through a temporary copy of its index ({@link WorktreeTree}):
 * neither the worktree, its index nor any ref is changed. The file list holds counts, not text; a file's hunks and the
 * whole patch are computed when asked for. Slow (git): never on the FX thread.
 */
public final class DiffService {
    /** A side larger than this gets counts but no hunks ({@link FilePatch#tooLarge()}). */
    public static final long MAX_TEXT_BYTES = 5L * 1024 * 1024;

    private final SandboxService sandboxes;
    private final WorktreeTree trees;

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
            List<FileChange> files =
                    FileChanges.between(s.repo(), s.oldTree(), s.newTree(), opts.ignoreWhitespace()).stream()
                            .map(FileChanges.Entry::change)
                            .toList();
            int added = files.stream().mapToInt(FileChange::added).sum();
            int deleted = files.stream().mapToInt(FileChange::deleted).sum();
            return new SandboxDiff(sandboxId, s.baseCommit(), s.headDescription(), files, s.commits(), added, deleted);
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
        try (DiffSides s = sides(sandboxId, opts);
                GitPatchFormatter f =
                        new GitPatchFormatter(OutputStream.nullOutputStream(), s.repo(), opts.ignoreWhitespace());
                ObjectReader reader = s.repo().newObjectReader()) {
            DiffEntry e = FileChanges.scan(f, reader, s.oldTree(), s.newTree()).stream()
                    .filter(x -> path.equals(
                            x.getChangeType() == DiffEntry.ChangeType.DELETE ? x.getOldPath() : x.getNewPath()))
                    .findFirst()
                    .orElseThrow(() -> new DiffNotFoundException(
                            "The change of sandbox " + sandboxId + " does not touch " + path + "."));
            boolean tooLarge = FileChanges.size(reader, e.getOldMode(), e.getOldId()) > MAX_TEXT_BYTES
                    || FileChanges.size(reader, e.getNewMode(), e.getNewId()) > MAX_TEXT_BYTES;
            if (tooLarge || FileChanges.sameContent(e)) {
                return new FilePatch(FileChanges.change(f, reader, e), List.of(), tooLarge);
            }
            HunkCollector.Result h = HunkCollector.hunks(s.repo(), e, opts.ignoreWhitespace());
            return new FilePatch(FileChanges.of(reader, e, h.added(), h.deleted(), h.binary()), h.hunks(), false);
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
            List<DiffEntry> entries =
                    FileChanges.between(s.repo(), s.oldTree(), s.newTree(), opts.ignoreWhitespace()).stream()
                            .map(FileChanges.Entry::entry)
                            .toList();
            GitPatchFormatter.writePatch(s.repo(), entries, opts.ignoreWhitespace(), out);
        } catch (IOException e) {
            throw unreadable(sandboxId, e);
        }
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
        WorktreeTree.State state;
        try {
            state = o.commit() == null ? trees.write(wt) : trees.locate(wt);
        } catch (GitException e) {
            throw new DiffNotFoundException(
                    "The worktree of sandbox " + sandboxId + " (" + wt + ") cannot be read: " + e.getMessage());
        }
        return DiffSides.open(sandboxId, base, state, o.commit());
    }

    private static DiffOptions orWhole(DiffOptions o) {
        return o == null ? DiffOptions.whole() : o;
    }

    private static DiffException unreadable(String sandboxId, IOException e) {
        return new DiffException("Cannot read the change of sandbox " + sandboxId + ": " + e.getMessage(), e);
    }
}
