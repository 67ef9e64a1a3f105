package dev.paddock.agent;

import dev.paddock.worktree.GitCli;
import dev.paddock.worktree.GitException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Keeps a file Paddock writes into a sandbox's worktree out of git's sight (not in {@code git status}, never added
 * by {@code git add -A}), without committing anything.
 *
 * <p>A linked worktree has no {@code info/exclude} of its own: {@code git rev-parse --git-path info/exclude} names
 * the main repository's, which every worktree shares ({@code extensions.worktreeConfig} gives per-worktree
 * configuration, not per-worktree excludes, and would change the repository's format for every tool, JGit
 * included). So:
 * <ul>
 * <li>an untracked file gets one anchored line ({@code /.claude/settings.local.json}) in that shared
 *     {@code info/exclude}, added once. It hides the same path in every worktree, the main one too: fine for a
 *     file that is local by definition (Claude Code's documentation calls {@code settings.local.json} "not
 *     committed");</li>
 * <li>a file the branch tracks cannot be excluded; it gets {@code git update-index --skip-worktree} in this
 *     worktree's own index (git then neither shows nor stages Paddock's change; other worktrees are untouched);</li>
 * <li>a file the repository's own ignore rules already ignore is left alone.</li>
 * </ul>
 */
public final class WorktreeExclude {
    private final GitCli git;

    public WorktreeExclude(GitCli git) {
        this.git = git;
    }

    /** How the file was kept out. */
    public enum How {
        ALREADY_IGNORED,
        EXCLUDED,
        SKIP_WORKTREE
    }

    /**
     * Keeps {@code relativePath} (slash-separated, from the worktree's top) out of git's sight in {@code worktree}.
     *
     * @throws IOException when git fails or {@code info/exclude} cannot be written
     */
    public How keepOut(Path worktree, String relativePath) throws IOException {
        try {
            GitCli.Result tracked = git.run(worktree, "ls-files", "--error-unmatch", "--", relativePath);
            if (tracked.ok()) {
                git.runOk(worktree, "update-index", "--skip-worktree", "--", relativePath);
                return How.SKIP_WORKTREE;
            }
            GitCli.Result ignored = git.run(worktree, "check-ignore", "-q", "--no-index", "--", relativePath);
            if (ignored.ok()) {
                return How.ALREADY_IGNORED;
            }
            String p = git.runOk(worktree, "rev-parse", "--path-format=absolute", "--git-path", "info/exclude")
                    .strip();
            appendOnce(Path.of(p), "/" + relativePath);
            return How.EXCLUDED;
        } catch (GitException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    private static void appendOnce(Path exclude, String line) throws IOException {
        String text = Files.exists(exclude) ? Files.readString(exclude, StandardCharsets.UTF_8) : "";
        for (String l : text.split("\n", -1)) {
            if (l.strip().equals(line)) {
                return;
            }
        }
        Files.createDirectories(exclude.getParent());
        String add = (text.isEmpty() || text.endsWith("\n") ? "" : "\n")
                + "# Written by Paddock into its sandboxes' worktrees; never committed.\n" + line + "\n";
        Files.writeString(exclude, add, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }
}
