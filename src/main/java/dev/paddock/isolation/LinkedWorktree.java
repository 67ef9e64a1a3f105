package dev.paddock.isolation;

import dev.paddock.worktree.WorktreeHeads;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where git keeps the state of a linked worktree ({@code git worktree add}), read from the worktree's own files
 * as git reads them ({@code gitrepository-layout(5)}): {@code <worktree>/.git} is a file {@code gitdir: <admin>}
 * naming its admin directory ({@code <common>/worktrees/<name>}: HEAD, index, its reflog), and the admin
 * directory's {@code commondir} file names the repository's common {@code .git} directory (objects, refs,
 * config), usually as {@code ../..}.
 *
 * @param worktree the worktree (absolute)
 * @param adminDir its admin directory (absolute)
 * @param commonDir the repository's common {@code .git} directory (absolute, normalised)
 */
public record LinkedWorktree(Path worktree, Path adminDir, Path commonDir) {

    /**
     * Reads the two files.
     *
     * @throws IOException when {@code worktree} is not a linked worktree (no {@code .git} file naming a directory)
     *     or its admin directory has no {@code commondir}
     */
    public static LinkedWorktree of(Path worktree) throws IOException {
        Path wt = worktree.toAbsolutePath().normalize();
        Path admin = adminDirOf(wt);
        Path commondirFile = admin.resolve("commondir");
        if (!Files.isRegularFile(commondirFile)) {
            throw new IOException(admin + " has no commondir file: " + wt + " is not a linked worktree");
        }
        return new LinkedWorktree(
                wt, admin, WorktreeHeads.commonDirOf(admin).toAbsolutePath().normalize());
    }

    /**
     * The admin directory {@code <worktree>/.git} names ("gitdir: ...").
     *
     * @throws IOException when {@code .git} cannot be read or names no directory
     */
    public static Path adminDirOf(Path worktree) throws IOException {
        String line = Files.readString(worktree.resolve(".git"), StandardCharsets.UTF_8)
                .strip();
        if (!line.startsWith("gitdir:")) {
            throw new IOException(worktree.resolve(".git") + " does not name a git directory");
        }
        Path dir = Path.of(line.substring("gitdir:".length()).strip());
        return dir.isAbsolute() ? dir : worktree.resolve(dir).normalize();
    }
}
