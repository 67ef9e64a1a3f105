package dev.paddock.review;

import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.worktree.GitCli;
import dev.paddock.worktree.GitException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What a comment refers to, read with git when it is written: the commit (the sandbox branch's tip) and the
 * quoted line, from that commit ({@code new}) or from the commit the sandbox started from ({@code old}).
 */
final class CommentContext {
    /** Longest quoted line kept, in characters. */
    static final int QUOTE_MAX = 2000;

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
        if (at == null || at.isBlank() || wt == null || line < 1) {
            return Optional.empty();
        }
        try {
            GitCli.Result r = git.run(wt, "show", at + ":" + path);
            if (!r.ok()) {
                return Optional.empty();
            }
            String[] lines = r.stdout().split("\n", -1);
            if (line > lines.length || (line == lines.length && lines[line - 1].isEmpty())) {
                return Optional.empty();
            }
            String text = lines[line - 1].replace("\r", "");
            return Optional.of(text.length() > QUOTE_MAX ? text.substring(0, QUOTE_MAX) + "…" : text);
        } catch (GitException e) {
            return Optional.empty();
        }
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
