package dev.paddock.review;

import dev.paddock.sandbox.SandboxException;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.worktree.GitCli;
import dev.paddock.worktree.GitException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What a comment refers to, read when it is written: the commit (the sandbox branch's tip) and the quoted line, from
 * the worktree as it is (what the diff shows; the branch's tip for a file no longer there) for {@code new}, or from
 * the commit the sandbox started from for {@code old}.
 */
final class CommentContext {
    /** Longest quoted line kept, in characters. */
    static final int QUOTE_MAX = 2000;

    /** Larger worktree files are quoted from the branch's tip instead (they are not read whole). */
    static final long MAX_FILE = 8L * 1024 * 1024;

    private final GitCli git;

    CommentContext(GitCli git) {
        this.git = git;
    }

    /** The tip of the sandbox's branch, or empty when git cannot tell (its worktree is gone). */
    Optional<String> commitOf(SandboxRecord s) {
        Path wt = worktree(s);
        if (wt == null) {
            return Optional.empty();
        }
        try {
            GitCli.Result r = git.run(
                    wt,
                    "rev-parse",
                    "--verify",
                    "-q",
                    "refs/heads/" + s.workspace().branch());
            return r.ok() ? Optional.of(r.stdout().strip()) : Optional.empty();
        } catch (GitException e) {
            return Optional.empty();
        }
    }

    /**
     * Line {@code line} (from 1) of {@code path} at the commit the side names, or empty when there is no such file,
     * line or commit.
     */
    Optional<String> quote(SandboxRecord s, String commit, String path, int line, ReviewComment.Side side) {
        String at = side == ReviewComment.Side.OLD ? s.workspace().baseCommit() : commit;
        Path wt = worktree(s);
        if (wt == null || line < 1) {
            return Optional.empty();
        }
        try {
            String content = side == ReviewComment.Side.OLD ? null : worktreeFile(wt, path);
            if (content == null) {
                if (at == null || at.isBlank()) {
                    return Optional.empty();
                }
                GitCli.Result r = git.run(wt, "show", at + ":" + path);
                if (!r.ok()) {
                    return Optional.empty();
                }
                content = r.stdout();
            }
            String[] lines = content.split("\n", -1);
            if (line > lines.length || (line == lines.length && lines[line - 1].isEmpty())) {
                return Optional.empty();
            }
            String text = lines[line - 1].replace("\r", "");
            return Optional.of(text.length() > QUOTE_MAX ? text.substring(0, QUOTE_MAX) + "…" : text);
        } catch (GitException e) {
            return Optional.empty();
        }
    }

    /** Whether {@code path} is a file of the worktree or of the sandbox's base. */
    boolean exists(SandboxRecord s, String path) {
        Path wt = worktree(s);
        if (wt == null) {
            return false;
        }
        if (worktreeFile(wt, path) != null) {
            return true;
        }
        String base = s.workspace().baseCommit();
        try {
            return base != null
                    && git.run(wt, "cat-file", "-e", base + ":" + path).ok();
        } catch (GitException e) {
            return false;
        }
    }

    /** The file's text in the worktree (not through a link), or null when it is not a file there or too large. */
    private static String worktreeFile(Path wt, String path) {
        Path f = wt.resolve(path);
        try {
            // Not through a link, and not out of the worktree through a linked folder (an agent could make one).
            if (!Files.isRegularFile(f, java.nio.file.LinkOption.NOFOLLOW_LINKS)
                    || !f.toRealPath().startsWith(wt.toRealPath())
                    || Files.size(f) > MAX_FILE) {
                return null;
            }
            return Files.readString(f, java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException | java.io.UncheckedIOException e) {
            return null;
        }
    }

    /**
     * {@code path} as a comment keeps it: relative to the repository, with forward slashes.
     *
     * @throws SandboxException when it is absolute, climbs out with {@code ..}, or points into {@code .git}
     */
    static String checkedPath(String path) throws SandboxException {
        String p = path.strip().replace('\\', '/');
        while (p.startsWith("./")) {
            p = p.substring(2);
        }
        java.util.List<String> parts = java.util.List.of(p.split("/"));
        if (p.startsWith("/")
                || p.isEmpty()
                || parts.contains("..")
                || parts.get(0).equals(".git")
                || p.chars().anyMatch(ch -> ch < 0x20)) {
            throw new SandboxException("\"" + path + "\" is not a path inside the repository: give it relative to the"
                    + " repository's top, as the diff lists it (src/App.java).");
        }
        return p.replace("/./", "/");
    }

    private static Path worktree(SandboxRecord s) {
        String p = s.workspace().worktreePath();
        if (p == null || p.isBlank()) {
            return null;
        }
        Path wt = Path.of(p);
        return Files.isDirectory(wt) ? wt : null;
    }
}
