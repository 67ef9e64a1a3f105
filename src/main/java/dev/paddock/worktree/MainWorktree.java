package dev.paddock.worktree;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The main worktree of the repository a path belongs to, found from the file layout alone, without asking git
 * in that directory: inside a sandbox's worktree the {@code .git} file and the git configuration are the agent's
 * to write, so they must not decide which repository (and which policy) a path belongs to.
 *
 * <p>Sandboxes live in {@code <repository>/.worktrees/<id>/<branch>}: a path under a folder named
 * {@code .worktrees} whose parent holds {@code .git} belongs to that parent. The outermost such folder counts, so
 * a {@code .worktrees} folder an agent makes inside its own worktree changes nothing.
 */
public final class MainWorktree {
    /** The folder of the sandboxes under a main worktree. */
    public static final String SANDBOXES = ".worktrees";

    private MainWorktree() {}

    /**
     * The repository whose sandbox folder ({@code <repository>/.worktrees}) contains {@code path}, or empty when
     * it lies in none.
     *
     * @param path an absolute path (normalised here)
     */
    public static Optional<Path> ofSandboxArea(Path path) {
        Path p = path.toAbsolutePath().normalize();
        Path root = p.getRoot();
        if (root == null) {
            return Optional.empty();
        }
        Path cur = root;
        for (Path name : p) {
            if (name.toString().equals(SANDBOXES) && Files.exists(cur.resolve(".git"))) {
                return Optional.of(cur);
            }
            cur = cur.resolve(name);
        }
        return Optional.empty();
    }

    /**
     * The main worktree of the repository containing {@code dir}: the repository of its sandbox folder
     * ({@link #ofSandboxArea}); else the nearest directory at or above it holding {@code .git}: itself when
     * {@code .git} is a directory, the main worktree named by its {@code gitdir} and {@code commondir} files when
     * it is a linked worktree's {@code .git} file. Empty when none is found or a {@code .git} file cannot be read.
     */
    public static Optional<Path> of(Path dir) {
        Path d = dir.toAbsolutePath().normalize();
        Optional<Path> sandboxOf = ofSandboxArea(d);
        if (sandboxOf.isPresent()) {
            return sandboxOf;
        }
        for (Path p = d; p != null; p = p.getParent()) {
            Path git = p.resolve(".git");
            if (Files.isDirectory(git)) {
                return Optional.of(p);
            }
            if (Files.isRegularFile(git)) {
                return ofGitFile(p, git);
            }
        }
        return Optional.empty();
    }

    /** A linked worktree's {@code .git} file → {@code gitdir} → its {@code commondir} → the folder holding it. */
    private static Optional<Path> ofGitFile(Path worktree, Path gitFile) {
        try {
            String line = Files.readString(gitFile, StandardCharsets.UTF_8).strip();
            if (!line.startsWith("gitdir:")) {
                return Optional.empty();
            }
            Path gitDir =
                    worktree.resolve(line.substring("gitdir:".length()).strip()).normalize();
            Path common = gitDir;
            Path commonFile = gitDir.resolve("commondir");
            if (Files.isRegularFile(commonFile)) {
                common = gitDir.resolve(Files.readString(commonFile, StandardCharsets.UTF_8)
                                .strip())
                        .normalize();
            }
            if (common.getFileName() != null
                    && common.getFileName().toString().equals(".git")
                    && common.getParent() != null) {
                return Optional.of(common.getParent());
            }
            return Optional.of(worktree); // a submodule or a separate git dir: the worktree is its own main one
        } catch (IOException | InvalidPathException e) {
            return Optional.empty();
        }
    }
}
