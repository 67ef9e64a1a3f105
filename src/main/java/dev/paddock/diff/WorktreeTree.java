package dev.paddock.diff;

import dev.paddock.worktree.GitCli;
import dev.paddock.worktree.GitException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A worktree's state as a git tree: tracked files as they are on disk and untracked ones, not ignored ones. Written
 * through a temporary copy of the worktree's index ({@code GIT_INDEX_FILE}, {@code git add -A}, {@code git write-tree}),
 * so only files changed since the index was written are read, and the real index is only read. The blobs of changed
 * and untracked files are written to the object database (loose objects that {@code git gc} removes in time).
 */
final class WorktreeTree {
    private final GitCli git;

    WorktreeTree(GitCli git) {
        this.git = git;
    }

    /**
     * A worktree's state.
     *
     * @param tree the tree of its files; null when only located
     * @param head its HEAD commit, or null on an unborn branch
     * @param commonDir its repository's common folder (objects and refs)
     */
    record State(String tree, String head, Path commonDir) {
        /** This state with {@code tree} as its files (a tree written before). */
        State at(String otherTree) {
            return new State(otherTree, head, commonDir);
        }
    }

    /** Writes the state of {@code worktree}. */
    State write(Path worktree) throws GitException {
        return state(worktree, true);
    }

    /** Where {@code worktree}'s repository and HEAD are, without writing its state ({@link State#tree()} null). */
    State locate(Path worktree) throws GitException {
        return state(worktree, false);
    }

    private State state(Path worktree, boolean writeTree) throws GitException {
        GitCli.Result where = git.run(
                worktree,
                List.of("rev-parse", "--git-common-dir", "--git-path", "index", "--verify", "-q", "HEAD^{commit}"),
                GitCli.LONG_TIMEOUT,
                Map.of(),
                null);
        List<String> lines = where.stdout().lines().map(String::strip).toList();
        if (lines.size() < 2) {
            throw new GitException("git cannot read the worktree " + worktree + ": " + where.errorLine());
        }
        Path commonDir = worktree.resolve(lines.get(0)).normalize();
        Path index = worktree.resolve(lines.get(1)).normalize();
        String head = where.ok() && lines.size() == 3 ? lines.get(2) : null;
        if (!writeTree) {
            return new State(null, head, commonDir);
        }
        Path temp = index.resolveSibling("paddock-diff-index-" + UUID.randomUUID());
        try {
            if (Files.isRegularFile(index)) {
                // With its time: git trusts an entry's stat data only when the file's time is older than the index's
                // (a file changed in the second the index was written is read again), so a copy made later must not
                // look newer than the index it copies.
                Files.copy(index, temp, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
            }
            Map<String, String> env = Map.of("GIT_INDEX_FILE", temp.toString());
            ok(worktree, List.of("add", "-A", "--", ":/"), env);
            return new State(ok(worktree, List.of("write-tree"), env).strip(), head, commonDir);
        } catch (IOException e) {
            throw new GitException("Cannot copy the index of " + worktree + ": " + e.getMessage(), e);
        } finally {
            try {
                Files.deleteIfExists(temp);
                Files.deleteIfExists(temp.resolveSibling(temp.getFileName() + ".lock"));
            } catch (IOException ignored) {
                // a temporary file left behind in the worktree's admin folder harms nothing
            }
        }
    }

    private String ok(Path dir, List<String> args, Map<String, String> env) throws GitException {
        GitCli.Result r = git.run(dir, args, GitCli.LONG_TIMEOUT, env, null);
        if (!r.ok()) {
            throw new GitException("git " + String.join(" ", args) + " failed in " + dir + ": " + r.errorLine());
        }
        return r.stdout();
    }
}
