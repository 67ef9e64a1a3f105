package dev.paddock.checkpoint;

import dev.paddock.worktree.GitCli;
import dev.paddock.worktree.GitException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The git side of checkpoints, through the git CLI: a worktree's working state written as a tree and a commit
 * through a private index (a copy of its index, kept up to date by each checkpoint), and a tree written back into a worktree through another private index. The
 * worktree's branch, its real index and {@code .git} are never changed; ignored files are neither recorded nor
 * touched. See docs/decisions/0015-checkpoints-as-git-objects.md.
 */
final class CheckpointGit {
    /** Who checkpoint commits are by: they are Paddock's, not the agent's or the user's. */
    private static final Map<String, String> IDENTITY = Map.of(
            "GIT_AUTHOR_NAME",
            "Paddock",
            "GIT_AUTHOR_EMAIL",
            "paddock@localhost",
            "GIT_COMMITTER_NAME",
            "Paddock",
            "GIT_COMMITTER_EMAIL",
            "paddock@localhost");

    private static final Duration TIMEOUT = GitCli.LONG_TIMEOUT;
    /** Paddock's own index of a worktree, beside its real index (in the worktree's admin folder under .git). */
    static final String PRIVATE_INDEX = "paddock-checkpoint-index";

    private final GitCli git;

    CheckpointGit(GitCli git) {
        this.git = git;
    }

    /**
     * A snapshot written as git objects.
     *
     * @param head the worktree's HEAD commit then, or null on an unborn branch
     * @param commonDir the repository's common folder (objects and refs)
     * @param changes compared with the base tree given to {@link #snapshot} (HEAD's when none)
     */
    record Snapshot(String commit, String tree, String head, Path commonDir, CheckpointChanges changes) {}

    /**
     * Writes the working state of {@code worktree} (tracked and untracked files, not ignored ones) as a tree and a
     * commit whose parent is HEAD: a copy of the worktree's index takes {@code git add -A}, so unchanged files are
     * known by their stat data and not read again.
     *
     * @param baseTree what the change list compares with (the previous checkpoint's tree), or null for HEAD's
     * @param message the commit message
     */
    Snapshot snapshot(Path worktree, String baseTree, String message) throws GitException {
        return snapshot(worktree, baseTree, message, workingTree(worktree));
    }

    /** Like {@link #snapshot(Path, String, String)}, of a working tree written just before. */
    Snapshot snapshot(Path worktree, String baseTree, String message, WorkingTree w) throws GitException {
        String base = baseTree != null ? baseTree : w.head();
        if (CheckpointObjects.isObjectId(w.tree())
                && (w.head() == null || CheckpointObjects.isObjectId(w.head()))
                && (base == null || CheckpointObjects.isObjectId(base))) {
            CheckpointObjects.Written written =
                    CheckpointObjects.commitAndChanges(w.commonDir(), w.tree(), w.head(), message, base);
            return new Snapshot(written.commit(), w.tree(), w.head(), w.commonDir(), written.changes());
        }
        // A SHA-256 repository: git itself.
        List<String> commitArgs = new ArrayList<>(List.of("commit-tree", w.tree()));
        if (w.head() != null) {
            commitArgs.addAll(List.of("-p", w.head()));
        }
        commitArgs.addAll(List.of("-m", message));
        String commit = ok(worktree, commitArgs, IDENTITY).strip();
        return new Snapshot(commit, w.tree(), w.head(), w.commonDir(), changesSince(worktree, baseTree, w));
    }

    /** What changed from {@code baseTree} (HEAD's when null) to a working tree. */
    CheckpointChanges changesSince(Path worktree, String baseTree, WorkingTree w) throws GitException {
        String base = baseTree != null ? baseTree : w.head();
        return base == null ? addedAll(worktree, w.tree()) : diff(worktree, base, w.tree());
    }

    /**
     * A worktree's working state as a tree object, its HEAD commit (null on an unborn branch) and its repository's
     * common folder.
     */
    record WorkingTree(String tree, String head, Path commonDir) {}

    /**
     * Writes the working state of {@code worktree} as a tree through Paddock's own index of the worktree
     * ({@value #PRIVATE_INDEX} beside its real index, started as a copy of it): {@code git add -A} with
     * {@code GIT_INDEX_FILE} on it, then its tree written in this process (or by {@code git write-tree}). The real index is only read (once, for the copy). Kept
     * between checkpoints, Paddock's index knows the stat data of every file as it was at the last checkpoint, so only
     * files changed since are read again, however many changes the agent left unstaged.
     */
    WorkingTree workingTree(Path worktree) throws GitException {
        Optional<CheckpointObjects.Where> where = CheckpointObjects.where(worktree);
        if (where.isPresent()) {
            return write(
                    worktree,
                    where.get().commonDir(),
                    where.get().index(),
                    where.get().head());
        }
        // Not a plain worktree (or a SHA-256 one): git says. One git for both, the index's path and HEAD (a second
        // look only on an unborn branch).
        GitCli.Result all = git.run(
                worktree,
                List.of("rev-parse", "--git-common-dir", "--git-path", "index", "--verify", "-q", "HEAD^{commit}"),
                TIMEOUT,
                Map.of(),
                null);
        List<String> lines = all.stdout().lines().toList();
        Path commonDir;
        Path index;
        String headCommit;
        if (all.ok() && lines.size() == 3) {
            commonDir = worktree.resolve(lines.get(0).strip());
            index = worktree.resolve(lines.get(1).strip());
            headCommit = lines.get(2).strip();
        } else {
            List<String> paths = ok(worktree, List.of("rev-parse", "--git-common-dir", "--git-path", "index"), Map.of())
                    .lines()
                    .toList();
            commonDir = worktree.resolve(paths.get(0).strip());
            index = worktree.resolve(paths.get(1).strip());
            headCommit = null;
        }
        return write(worktree, commonDir, index, headCommit);
    }

    /** {@link #workingTree}'s writing, once the index's path and HEAD are known. */
    private WorkingTree write(Path worktree, Path commonDir, Path index, String headCommit) throws GitException {
        Path own = index.resolveSibling(PRIVATE_INDEX);
        try {
            if (!Files.isRegularFile(own)) {
                startFrom(index, own);
            }
            Map<String, String> env = Map.of("GIT_INDEX_FILE", own.toString());
            GitCli.Result added = git.run(worktree, List.of("add", "-A", "--", ":/"), TIMEOUT, env, null);
            if (!added.ok()) {
                // Paddock's index may be unreadable (a disk error, an older git): start again from the real one.
                startFrom(index, own);
                ok(worktree, List.of("add", "-A", "--", ":/"), env);
            }
            Optional<String> tree = CheckpointObjects.writeTree(commonDir, own);
            return new WorkingTree(
                    tree.isPresent()
                            ? tree.get()
                            : ok(worktree, List.of("write-tree"), env).strip(),
                    headCommit,
                    commonDir);
        } catch (IOException e) {
            throw new GitException("Cannot copy the index of " + worktree + ": " + e.getMessage(), e);
        }
    }

    /** Makes Paddock's index a copy of the real one (or none, when the worktree has no index yet). */
    private static void startFrom(Path index, Path own) throws IOException {
        Files.deleteIfExists(own.resolveSibling(PRIVATE_INDEX + ".lock"));
        if (Files.isRegularFile(index)) {
            Path tmp = own.resolveSibling(PRIVATE_INDEX + ".tmp");
            // With its time, or git would trust the stat data of a file changed in the second the index was written.
            Files.copy(index, tmp, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
            Files.move(tmp, own, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } else {
            Files.deleteIfExists(own);
        }
    }

    /** Paths added, modified and deleted from tree-ish {@code from} to tree-ish {@code to}. */
    CheckpointChanges diff(Path dir, String from, String to) throws GitException {
        return CheckpointChanges.parseNameStatus(
                ok(dir, List.of("diff-tree", "-r", "-z", "--no-renames", "--name-status", from, to), Map.of()));
    }

    private CheckpointChanges addedAll(Path dir, String tree) throws GitException {
        String z = ok(dir, List.of("ls-tree", "-r", "-z", "--name-only", tree), Map.of());
        List<String> all = z.isEmpty() ? List.of() : List.of(z.split("\0"));
        return new CheckpointChanges(all.stream().sorted().toList(), List.of(), List.of());
    }

    /**
     * What writing a tree back restored and removed.
     *
     * @param restored paths written with the target tree's content and mode (deleted or changed since)
     * @param removed paths deleted (added since)
     * @param kept paths that were to be removed but were left: a non-empty directory (a submodule) or a path whose
     *     folders are not plain folders inside the worktree
     */
    record Restored(List<String> restored, List<String> removed, List<String> kept) {}

    /**
     * What making a working state that is tree {@code currentTree} tree {@code targetTree} writes and deletes: the
     * paths of {@code git diff-tree} from the one to the other, each checked ({@link WorktreePaths#check}). Both a
     * rollback ({@link #restore}) and its dry run use it, so the dry run lists exactly what the rollback touches.
     *
     * @param changes from the current tree to the target: added are paths the target has and the worktree lacks
     *     (deleted since), modified those that differ (content or mode), deleted those the target lacks (added since)
     */
    record Plan(CheckpointChanges changes) {
        /** The paths written from the target tree (added and modified), sorted. */
        List<String> writes() {
            List<String> write = new ArrayList<>(changes.added());
            write.addAll(changes.modified());
            return write.stream().sorted().toList();
        }
    }

    /**
     * The paths that making tree {@code currentTree} tree {@code targetTree} touches.
     *
     * @throws CheckpointException when the change list names a path that would leave the worktree
     */
    Plan plan(Path worktree, String currentTree, String targetTree) throws GitException, CheckpointException {
        CheckpointChanges c = diff(worktree, currentTree, targetTree);
        for (String p : c.added()) {
            WorktreePaths.check(p);
        }
        for (String p : c.modified()) {
            WorktreePaths.check(p);
        }
        for (String p : c.deleted()) {
            WorktreePaths.check(p);
        }
        return new Plan(c);
    }

    /**
     * Makes the working state of {@code worktree}, known to be tree {@code currentTree}, tree {@code targetTree}:
     * paths of the current tree missing from the target are deleted (then folders left empty), paths added or changed
     * are written from a private index holding the target ({@code git checkout-index -f}, which keeps the executable
     * bit). Ignored files, {@code .git}, the branch and the real index are left alone. The paths are those of
     * {@link #plan}.
     *
     * @throws CheckpointException when the change list names a path that would leave the worktree
     */
    Restored restore(Path worktree, String currentTree, String targetTree) throws GitException, CheckpointException {
        Plan plan = plan(worktree, currentTree, targetTree);
        CheckpointChanges c = plan.changes();
        List<String> write = plan.writes();
        Path root;
        try {
            root = worktree.toRealPath();
        } catch (IOException e) {
            throw new CheckpointException("The worktree " + worktree + " cannot be read: " + e.getMessage(), e);
        }
        List<String> removed = new ArrayList<>();
        List<String> kept = new ArrayList<>();
        for (String p : c.deleted()) {
            (WorktreePaths.delete(root, p) ? removed : kept).add(p);
        }
        if (!write.isEmpty()) {
            Path temp = tempIndex();
            try {
                Map<String, String> env = Map.of("GIT_INDEX_FILE", temp.toString());
                ok(root, List.of("read-tree", targetTree), env);
                StringBuilder stdin = new StringBuilder();
                write.forEach(p -> stdin.append(p).append('\0'));
                GitCli.Result r = git.run(
                        root,
                        List.of("checkout-index", "-f", "-z", "--stdin"),
                        TIMEOUT,
                        env,
                        stdin.toString().getBytes(StandardCharsets.UTF_8));
                if (!r.ok()) {
                    throw new GitException("git checkout-index failed in " + root + ": " + r.errorLine());
                }
            } finally {
                dropTempIndex(temp);
            }
        }
        return new Restored(write, removed, kept);
    }

    /**
     * Creates {@code ref} at {@code commit} unless it exists already (with JGit in {@code commonDir}; with git in
     * {@code dir} for a SHA-256 repository).
     *
     * @return false when it exists (nothing changed)
     * @throws GitException when git fails otherwise
     */
    boolean createRef(Path commonDir, Path dir, String ref, String commit) throws GitException {
        if (CheckpointObjects.isObjectId(commit)) {
            return CheckpointObjects.createRef(commonDir, ref, commit);
        }
        GitCli.Result r = git.run(
                dir, List.of("update-ref", "-m", "paddock checkpoint", ref, commit, ""), TIMEOUT, Map.of(), null);
        if (r.ok()) {
            return true;
        }
        if (git.run(dir, List.of("rev-parse", "--verify", "-q", ref), TIMEOUT, Map.of(), null)
                .ok()) {
            return false;
        }
        throw new GitException("git update-ref failed in " + dir + ": " + r.errorLine());
    }

    /** The refs under {@code prefix} (ending in "/") with the commit each names, sorted by name. */
    Map<String, String> refs(Path dir, String prefix) throws GitException {
        Map<String, String> refs = new LinkedHashMap<>();
        String out = ok(dir, List.of("for-each-ref", "--format=%(refname) %(objectname)", prefix), Map.of());
        for (String line : out.split("\n")) {
            int space = line.lastIndexOf(' ');
            if (space > 0) {
                refs.put(line.substring(0, space), line.substring(space + 1).strip());
            }
        }
        return refs;
    }

    /** Deletes these refs in one {@code git update-ref --stdin}. */
    void deleteRefs(Path dir, List<String> refs) throws GitException {
        if (refs.isEmpty()) {
            return;
        }
        StringBuilder stdin = new StringBuilder();
        refs.forEach(r -> stdin.append("delete ").append(r).append('\n'));
        GitCli.Result r = git.run(
                dir,
                List.of("update-ref", "--stdin"),
                TIMEOUT,
                Map.of(),
                stdin.toString().getBytes(StandardCharsets.UTF_8));
        if (!r.ok()) {
            throw new GitException("git update-ref failed in " + dir + ": " + r.errorLine());
        }
    }

    /**
     * Moves what HEAD names in {@code worktree} (its branch, or HEAD itself when detached) from {@code expected} to
     * {@code commit}, only if it still names {@code expected} (compare-and-set), then makes the worktree's index that
     * commit's tree, as {@code git reset --mixed} does. The working tree is not touched.
     *
     * @throws CheckpointException when HEAD moved meanwhile (nothing changed then)
     */
    void resetBranch(Path worktree, String expected, String commit, String reason)
            throws GitException, CheckpointException {
        GitCli.Result moved = git.run(
                worktree, List.of("update-ref", "-m", reason, "HEAD", commit, expected), TIMEOUT, Map.of(), null);
        if (!moved.ok()) {
            throw new CheckpointException("its branch was not reset: HEAD of " + worktree + " no longer names "
                    + expected + " (" + moved.errorLine() + ").");
        }
        ok(worktree, List.of("reset", "-q", "--mixed", "HEAD"), Map.of());
    }

    /** The tree of a commit. */
    String treeOf(Path dir, String commit) throws GitException {
        return ok(dir, List.of("rev-parse", "--verify", commit + "^{tree}"), Map.of())
                .strip();
    }

    /**
     * A commit's parent (or null), committer time (epoch seconds) and message, for a ref whose row a crash lost.
     */
    record CommitInfo(String parent, long time, String message) {}

    CommitInfo commitInfo(Path dir, String commit) throws GitException {
        String out = ok(dir, List.of("log", "-1", "--format=%P%n%ct%n%B", commit), Map.of());
        String[] lines = out.split("\n", 3);
        String parent = lines[0].isBlank() ? null : lines[0].strip().split(" ")[0];
        long time = lines.length > 1 ? Long.parseLong(lines[1].strip()) : 0;
        return new CommitInfo(parent, time, lines.length > 2 ? lines[2].strip() : "");
    }

    private String ok(Path dir, List<String> args, Map<String, String> env) throws GitException {
        GitCli.Result r = git.run(dir, args, TIMEOUT, env, null);
        if (!r.ok()) {
            throw new GitException("git " + args.get(0) + " failed in " + dir + ": " + r.errorLine());
        }
        return r.stdout();
    }

    private static Path tempIndex() throws GitException {
        try {
            Path dir = Files.createTempDirectory("paddock-checkpoint-");
            return dir.resolve("index");
        } catch (IOException e) {
            throw new GitException("Cannot make a temporary index: " + e.getMessage(), e);
        }
    }

    /** Deletes a temporary index, its lock file if git left one, and their folder. */
    private static void dropTempIndex(Path index) {
        try {
            Files.deleteIfExists(index.resolveSibling("index.lock"));
            Files.deleteIfExists(index);
            Files.deleteIfExists(index.getParent());
        } catch (IOException e) {
            // a temporary file left behind; the system's temp cleaning takes it
        }
    }
}
