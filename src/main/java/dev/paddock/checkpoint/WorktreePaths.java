package dev.paddock.checkpoint;

import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Locale;

/** Guards for the paths a rollback writes and deletes: inside the worktree, never {@code .git}, never through a link. */
final class WorktreePaths {
    private WorktreePaths() {}

    /**
     * Refuses a repository-relative path that is absolute, has an empty, {@code .} or {@code ..} component, or a
     * {@code .git} component.
     *
     * @throws CheckpointException naming the path
     */
    static void check(String path) throws CheckpointException {
        if (path.isEmpty() || path.startsWith("/") || path.contains("\\") || path.contains("\0")) {
            throw new CheckpointException("Refusing the path \"" + path + "\": it would leave the worktree.");
        }
        for (String part : path.split("/", -1)) {
            if (part.isEmpty() || part.equals(".") || part.equals("..")) {
                throw new CheckpointException("Refusing the path \"" + path + "\": it would leave the worktree.");
            }
            if (part.toLowerCase(Locale.ROOT).equals(".git")) {
                throw new CheckpointException("Refusing the path \"" + path + "\": Paddock never writes inside .git.");
            }
        }
    }

    /**
     * Deletes {@code path} (a file or a link, never what a link points at) from the worktree whose real path is
     * {@code root}, then the folders it leaves empty. A path whose folders are not plain folders inside the worktree
     * (one became a link) or that is a non-empty folder (a submodule) is left.
     *
     * @return whether the path is gone
     */
    static boolean delete(Path root, String path) {
        Path target = root.resolve(path).normalize();
        Path parent = target.getParent();
        try {
            if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
                return true;
            }
            if (!parent.toRealPath().equals(parent) || !parent.startsWith(root)) {
                return false;
            }
            Files.delete(target);
        } catch (DirectoryNotEmptyException e) {
            return false;
        } catch (IOException e) {
            return false;
        }
        for (Path dir = parent; dir != null && !dir.equals(root) && dir.startsWith(root); dir = dir.getParent()) {
            try {
                Files.delete(dir);
            } catch (IOException notEmpty) {
                break; // it holds something else (an ignored file, say): it stays
            }
        }
        return true;
    }
}
