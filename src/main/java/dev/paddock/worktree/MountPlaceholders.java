package dev.paddock.worktree;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The empty files and folders Claude Code's own sandbox (bubblewrap) puts in a worktree while it runs: it mounts
 * {@code /dev/null} over each path it keeps read-only that does not exist, so bubblewrap first creates an empty
 * mount point there, which git on the host sees as untracked until the sandbox ends (checked with Claude Code
 * 2.1.332). They are no work of the agent's, so a worktree's dirty count leaves them out: an untracked entry that is
 * one of these paths and empty, or the {@code .claude/} folder when it holds nothing else (Paddock's own
 * {@code settings.local.json} and Claude Code's {@code .cc-writes} aside).
 */
final class MountPlaceholders {
    private static final Set<String> PATHS = Set.of(
            ".bash_profile",
            ".bashrc",
            ".profile",
            ".zprofile",
            ".zshrc",
            ".gitconfig",
            ".gitmodules",
            ".ripgreprc",
            ".mcp.json",
            ".idea",
            ".vscode",
            ".claude/agents",
            ".claude/commands",
            ".claude/hooks",
            ".claude/launch.json",
            ".claude/loop.md",
            ".claude/output-styles",
            ".claude/routines",
            ".claude/scheduled_tasks.json",
            ".claude/settings.json",
            ".claude/skills",
            ".claude/workflows");
    private static final Set<String> CLAUDE_OWN = Set.of("settings.local.json", ".cc-writes");

    private MountPlaceholders() {}

    /** Whether the untracked entry {@code entry} (as git status names it; a folder ends with /) is only placeholders. */
    static boolean only(Path worktree, String entry) {
        String path = entry.endsWith("/") ? entry.substring(0, entry.length() - 1) : entry;
        if (PATHS.contains(path)) {
            return empty(worktree.resolve(path));
        }
        if (!path.equals(".claude")) {
            return false;
        }
        try (Stream<Path> inside = Files.list(worktree.resolve(path))) {
            return inside.allMatch(p -> CLAUDE_OWN.contains(p.getFileName().toString())
                    || PATHS.contains(".claude/" + p.getFileName()) && empty(p));
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean empty(Path p) {
        try {
            if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                return Files.size(p) == 0;
            }
            if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                try (Stream<Path> s = Files.list(p)) {
                    return s.findAny().isEmpty();
                }
            }
            return false;
        } catch (IOException e) {
            return false;
        }
    }
}
