package dev.paddock.worktree;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Brings a workspace that was unpacked from elsewhere ({@link WorkspaceUnpack}) back into the sandbox's local
 * worktree: its commits onto the sandbox's branch, its files (committed or not, deletions too) into the worktree, so
 * review, diff, checkpoints and merge see them as they see a local sandbox's. The copy is made harmless first: its
 * {@code .git/config} is Paddock's, its hooks and alternates are gone, so git reads nothing the agent wrote as
 * configuration.
 *
 * <p>The commits are fetched to {@code refs/paddock/remote/<sandbox id>} first, and the branch moves only when that
 * is a fast-forward of it; otherwise the branch and the worktree stay as they were, the commits stay on that ref,
 * and the outcome says so.
 */
public final class WorkspaceReturn {
    /** Where the workspace's branch is fetched to: {@code refs/paddock/remote/<sandbox id>}. */
    public static final String REF_PREFIX = "refs/paddock/remote/";

    private final GitCli git;

    public WorkspaceReturn(GitCli git) {
        this.git = git;
    }

    /**
     * What happened.
     *
     * @param before the branch's commit before
     * @param remote the workspace's commit of the branch (kept on {@link #ref})
     * @param moved whether the branch now points at {@link #remote} (false: the same commit, or diverged)
     * @param diverged the workspace's history is not a fast-forward of the branch: nothing was changed locally
     * @param written files written into the worktree
     * @param deleted files deleted from the worktree
     */
    public record Outcome(
            String before, String remote, String ref, boolean moved, boolean diverged, int written, int deleted) {}

    /**
     * Takes {@code copy} (the unpacked workspace: a repository with its files) into {@code worktree}.
     *
     * @throws WorkspaceRefused when the copy has no repository of its own or no {@code branch}
     * @throws GitException when git fails
     */
    public Outcome bringBack(Path copy, Path worktree, String branch, String sandboxId)
            throws IOException, GitException, WorkspaceRefused {
        Path gitDir = copy.resolve(".git");
        if (!Files.isDirectory(gitDir, LinkOption.NOFOLLOW_LINKS)) {
            throw new WorkspaceRefused("The workspace of " + sandboxId + " has no .git directory of its own.");
        }
        harmless(
                gitDir, git.runOk(worktree, "rev-parse", "--show-object-format").strip());
        String ref = REF_PREFIX + sandboxId;
        GitCli.Result fetched = git.run(
                worktree,
                List.of(
                        "-c",
                        "transfer.fsckObjects=true",
                        "fetch",
                        "--quiet",
                        "--no-tags",
                        "--no-write-fetch-head",
                        "--no-recurse-submodules",
                        copy.toString(),
                        "+refs/heads/" + branch + ":" + ref),
                GitCli.LONG_TIMEOUT,
                WorkspaceTar.NO_USER_CONFIG,
                null);
        if (!fetched.ok()) {
            throw new GitException(
                    "Cannot fetch the branch " + branch + " of " + sandboxId + "'s workspace: " + fetched.errorLine());
        }
        String before = git.runOk(worktree, "rev-parse", "--verify", "refs/heads/" + branch)
                .strip();
        String remote = git.runOk(worktree, "rev-parse", "--verify", ref).strip();
        boolean moved = false;
        if (!remote.equals(before)) {
            GitCli.Result ff = git.run(worktree, "merge-base", "--is-ancestor", before, remote);
            if (ff.exitCode() == 1) {
                return new Outcome(before, remote, ref, false, true, 0, 0);
            }
            if (!ff.ok()) {
                throw new GitException("Cannot compare " + branch + " with " + ref + ": " + ff.errorLine());
            }
            git.runOk(
                    worktree,
                    "update-ref",
                    "-m",
                    "paddock: brought back from the remote workspace",
                    "refs/heads/" + branch,
                    remote,
                    before);
            moved = true;
        }
        git.runOk(worktree, "reset", "--quiet"); // the index follows the branch; the files follow the copy below
        int[] counts = mirror(copy, worktree);
        return new Outcome(before, remote, ref, moved, false, counts[0], counts[1]);
    }

    /** No configuration, hooks or alternates the agent wrote are read by git from here on. */
    private static void harmless(Path gitDir, String objectFormat) throws IOException, WorkspaceRefused {
        for (String name : List.of("config", "commondir", "objects/info/alternates", "objects/info/http-alternates")) {
            Path p = gitDir.resolve(name);
            if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                throw new WorkspaceRefused("The workspace's .git/" + name + " is a directory.");
            }
            Files.deleteIfExists(p);
        }
        WorkspaceTar.deleteTree(gitDir.resolve("hooks"));
        Files.writeString(gitDir.resolve("config"), WorkspaceTar.config(objectFormat), StandardCharsets.UTF_8);
    }

    /** Makes the worktree's listed files those of the copy: {written, deleted}. */
    private int[] mirror(Path copy, Path worktree) throws IOException, GitException {
        Set<String> theirs = new HashSet<>();
        for (String f : WorkspaceTar.listed(git, copy)) {
            Path p = copy.resolve(f);
            if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) || Files.isSymbolicLink(p)) {
                theirs.add(f);
            }
        }
        int written = 0;
        for (String f : theirs) {
            if (write(copy.resolve(f), worktree, f)) {
                written++;
            }
        }
        int deleted = 0;
        for (String f : WorkspaceTar.listed(git, worktree)) {
            if (!theirs.contains(f) && !f.equals(".git") && !f.startsWith(".git/")) {
                Path p = worktree.resolve(f);
                if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) || Files.isSymbolicLink(p)) {
                    Files.delete(p);
                    deleted++;
                    pruneEmpty(worktree, p.getParent());
                }
            }
        }
        return new int[] {written, deleted};
    }

    /** Copies one file or link unless the worktree has it alike; whatever is in its way locally goes. */
    private static boolean write(Path from, Path worktree, String rel) throws IOException {
        Path to = worktree.resolve(rel);
        Path dir = worktree;
        String[] parts = rel.split("/");
        for (String part : Arrays.copyOf(parts, parts.length - 1)) {
            dir = dir.resolve(part);
            if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                Files.delete(dir); // a file or link where the copy has a directory
            }
        }
        Files.createDirectories(to.getParent());
        if (Files.isSymbolicLink(from)) {
            Path target = Files.readSymbolicLink(from);
            if (Files.isSymbolicLink(to) && Files.readSymbolicLink(to).equals(target)) {
                return false;
            }
            deleteAny(to);
            Files.createSymbolicLink(to, target);
            return true;
        }
        boolean exec = Files.isExecutable(from);
        if (Files.isRegularFile(to, LinkOption.NOFOLLOW_LINKS)
                && Files.isExecutable(to) == exec
                && Files.size(to) == Files.size(from)
                && Files.mismatch(to, from) == -1) {
            return false;
        }
        deleteAny(to);
        Files.copy(from, to, StandardCopyOption.COPY_ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
        return true;
    }

    private static void deleteAny(Path p) throws IOException {
        if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
            WorkspaceTar.deleteTree(p);
        } else {
            Files.deleteIfExists(p);
        }
    }

    private static void pruneEmpty(Path worktree, Path dir) throws IOException {
        Path d = dir;
        while (d != null && d.startsWith(worktree) && !d.equals(worktree)) {
            try (var s = Files.list(d)) {
                if (s.findAny().isPresent()) {
                    return;
                }
            }
            Files.delete(d);
            d = d.getParent();
        }
    }
}
