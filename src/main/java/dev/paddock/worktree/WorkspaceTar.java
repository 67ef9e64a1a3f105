package dev.paddock.worktree;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;

/**
 * A sandbox's worktree as a tar stream for a machine that shares no disk with this one: a standalone git repository
 * of the sandbox's branch alone ({@code .git/}) and the worktree's files (tracked and untracked, not ignored;
 * uncommitted changes and deletions as they are), every entry owned by the given user. Nothing of this machine's
 * git setup goes along: the clone has no remote, no hooks, no reflogs (they name local paths), and a
 * {@code .git/config} of Paddock's making; global and system git configuration are not read to make it.
 */
public final class WorkspaceTar {
    /** Variables that keep the user's and the system's git configuration out of the clone. */
    static final Map<String, String> NO_USER_CONFIG =
            Map.of("GIT_CONFIG_NOSYSTEM", "1", "GIT_CONFIG_GLOBAL", "/dev/null", "HOME", "/nonexistent");

    private final GitCli git;

    public WorkspaceTar(GitCli git) {
        this.git = git;
    }

    /** What went into the tar. */
    public record Summary(int files, long bytes, String head) {}

    /**
     * Writes the tar of {@code worktree} (on {@code branch}, checked out there) to {@code out}.
     *
     * @param uid owner of every entry inside (the agent's user in its container)
     * @param gid group of every entry
     * @param top the directory every entry is in ({@code top/}, {@code top/.git/...}, {@code top/src/...})
     * @throws GitException when the clone fails
     */
    public Summary write(Path worktree, String branch, int uid, int gid, String top, OutputStream out)
            throws IOException, GitException {
        Path tmp = Files.createTempDirectory("paddock-workspace");
        try {
            Path repo = tmp.resolve("repo");
            Path gitDir = clone(worktree, branch, repo);
            List<String> files = listed(worktree);
            try (TarArchiveOutputStream tar = new TarArchiveOutputStream(out, StandardCharsets.UTF_8.name())) {
                String t = top + "/";
                tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
                tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
                Set<String> dirs = new HashSet<>();
                dir(tar, t, uid, gid);
                List<Path> gitFiles;
                try (Stream<Path> s = Files.walk(gitDir)) {
                    gitFiles = s.sorted().toList();
                }
                for (Path p : gitFiles) {
                    String name = ".git/" + gitDir.relativize(p).toString().replace('\\', '/');
                    if (p.equals(gitDir)) {
                        dir(tar, t + ".git/", uid, gid);
                    } else if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                        dir(tar, t + name + "/", uid, gid);
                    } else if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                        file(tar, t + name, p, uid, gid);
                    }
                }
                int count = 0;
                long bytes = 0;
                for (String rel : files) {
                    Path p = worktree.resolve(rel);
                    boolean link = Files.isSymbolicLink(p);
                    if (!link && !Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                        continue; // deleted, or a nested repository
                    }
                    if (belowALink(worktree, rel)) {
                        continue; // listed below a link of the worktree, which may lead anywhere on this machine
                    }
                    parents(tar, t, rel, dirs, uid, gid);
                    if (link) {
                        TarArchiveEntry e = new TarArchiveEntry(t + rel, TarConstants.LF_SYMLINK);
                        e.setLinkName(Files.readSymbolicLink(p).toString());
                        owner(e, uid, gid);
                        tar.putArchiveEntry(e);
                        tar.closeArchiveEntry();
                    } else {
                        bytes += file(tar, t + rel, p, uid, gid);
                    }
                    count++;
                }
                String head = git.runOk(repo, "rev-parse", "HEAD").strip();
                tar.finish();
                return new Summary(count, bytes, head);
            }
        } finally {
            deleteTree(tmp);
        }
    }

    /** A clone of the branch alone, without remote, hooks or reflogs; its index is the branch's tree. */
    private Path clone(Path worktree, String branch, Path repo) throws GitException, IOException {
        GitCli.Result r = git.run(
                worktree,
                List.of(
                        "clone",
                        "--quiet",
                        "--no-local",
                        "--no-hardlinks",
                        "--no-checkout",
                        "--single-branch",
                        "--no-tags",
                        "--template=",
                        "--branch",
                        branch,
                        worktree.toString(),
                        repo.toString()),
                GitCli.LONG_TIMEOUT,
                NO_USER_CONFIG,
                null);
        if (!r.ok()) {
            throw new GitException("Cannot copy the branch " + branch + " of " + worktree + ": " + r.errorLine());
        }
        String format = git.run(
                        repo,
                        List.of("config", "--local", "--get", "extensions.objectformat"),
                        GitCli.DEFAULT_TIMEOUT,
                        NO_USER_CONFIG,
                        null)
                .stdout()
                .strip();
        Path gitDir = repo.resolve(".git");
        // Paddock's own config: the clone's names this machine's path as origin.
        Files.writeString(gitDir.resolve("config"), config(format) + identity(worktree), StandardCharsets.UTF_8);
        deleteTree(gitDir.resolve("logs"));
        deleteTree(gitDir.resolve("hooks"));
        deleteTree(gitDir.resolve("refs").resolve("remotes"));
        Files.deleteIfExists(gitDir.resolve("FETCH_HEAD"));
        GitCli.Result index = git.run(repo, List.of("read-tree", "HEAD"), GitCli.LONG_TIMEOUT, NO_USER_CONFIG, null);
        if (!index.ok()) {
            throw new GitException("Cannot write the index of the copy of " + branch + ": " + index.errorLine());
        }
        return gitDir;
    }

    /** The {@code .git/config} every delivered repository has (and a returned one gets again). */
    static String config(String objectFormat) {
        boolean sha256 = "sha256".equals(objectFormat);
        return "[core]\n\trepositoryformatversion = " + (sha256 ? 1 : 0) + "\n\tfilemode = true\n\tbare = false\n"
                + "\tlogallrefupdates = true\n"
                + (sha256 ? "[extensions]\n\tobjectformat = sha256\n" : "");
    }

    /**
     * The worktree's own identity ({@code user.name}, {@code user.email} of its {@code config.worktree}, which Paddock
     * gives every sandbox) as a {@code [user]} section, so the agent's commits in the copy say who made them as
     * they do locally; empty when the worktree has none (the repository's and the user's identity never go along).
     */
    static String identity(Path worktree) throws IOException {
        Path own = WorktreeHeads.gitDirOf(worktree).resolve("config.worktree");
        if (!Files.isRegularFile(own)) {
            return "";
        }
        org.eclipse.jgit.storage.file.FileBasedConfig c =
                new org.eclipse.jgit.storage.file.FileBasedConfig(own.toFile(), org.eclipse.jgit.util.FS.DETECTED);
        try {
            c.load();
        } catch (org.eclipse.jgit.errors.ConfigInvalidException e) {
            throw new IOException("Cannot read " + own + ": " + e.getMessage(), e);
        }
        String name = c.getString("user", null, "name");
        String email = c.getString("user", null, "email");
        if (name == null || email == null) {
            return "";
        }
        org.eclipse.jgit.lib.Config user = new org.eclipse.jgit.lib.Config();
        user.setString("user", null, "name", name);
        user.setString("user", null, "email", email);
        return user.toText();
    }

    /** Tracked and untracked files of a worktree, ignored ones left out. */
    static List<String> listed(GitCli git, Path worktree) throws GitException {
        String out = git.runOk(worktree, "ls-files", "-z", "--cached", "--others", "--exclude-standard");
        List<String> files = new ArrayList<>();
        for (String f : out.split("\0")) {
            if (!f.isEmpty()) {
                files.add(f);
            }
        }
        return files.stream().distinct().toList();
    }

    /**
     * The symbolic links among a worktree's listed files ({@link #listed(GitCli, Path)}), path → target as written:
     * those a copy brought back may have too, whatever they lead to.
     */
    public static Map<String, String> links(GitCli git, Path worktree) throws GitException, IOException {
        Map<String, String> links = new java.util.HashMap<>();
        for (String f : listed(git, worktree)) {
            Path p = worktree.resolve(f);
            if (Files.isSymbolicLink(p) && !belowALink(worktree, f)) {
                links.put(f, Files.readSymbolicLink(p).toString());
            }
        }
        return links;
    }

    /** Whether a part of {@code rel} before its last is not a directory of {@code root} (a link, most likely). */
    static boolean belowALink(Path root, String rel) {
        Path dir = root;
        String[] parts = rel.split("/");
        for (int i = 0; i < parts.length - 1; i++) {
            dir = dir.resolve(parts[i]);
            if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                return true;
            }
        }
        return false;
    }

    private List<String> listed(Path worktree) throws GitException {
        return listed(git, worktree);
    }

    private static void parents(TarArchiveOutputStream tar, String t, String rel, Set<String> dirs, int uid, int gid)
            throws IOException {
        int slash = rel.indexOf('/');
        while (slash > 0) {
            String d = rel.substring(0, slash + 1);
            if (dirs.add(d)) {
                dir(tar, t + d, uid, gid);
            }
            slash = rel.indexOf('/', slash + 1);
        }
    }

    private static void dir(TarArchiveOutputStream tar, String name, int uid, int gid) throws IOException {
        TarArchiveEntry e = new TarArchiveEntry(name, TarConstants.LF_DIR);
        e.setMode(040755);
        owner(e, uid, gid);
        tar.putArchiveEntry(e);
        tar.closeArchiveEntry();
    }

    private static long file(TarArchiveOutputStream tar, String name, Path p, int uid, int gid) throws IOException {
        TarArchiveEntry e = new TarArchiveEntry(name);
        long size = Files.size(p);
        e.setSize(size);
        e.setMode(executable(p) ? 0100755 : 0100644);
        owner(e, uid, gid);
        tar.putArchiveEntry(e);
        Files.copy(p, tar);
        tar.closeArchiveEntry();
        return size;
    }

    private static boolean executable(Path p) throws IOException {
        try {
            return Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS)
                    .contains(PosixFilePermission.OWNER_EXECUTE);
        } catch (UnsupportedOperationException e) {
            return false;
        }
    }

    private static void owner(TarArchiveEntry e, int uid, int gid) {
        e.setUserId(uid);
        e.setGroupId(gid);
        e.setUserName("");
        e.setGroupName("");
    }

    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
