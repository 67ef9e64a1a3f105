package dev.paddock.review;

import dev.paddock.sandbox.SandboxException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The review comments of a request for changes, written in the sandbox's worktree at {@link #RELATIVE}. The folder
 * holds a {@code .gitignore} of {@code *}, so git ignores the folder, the file and itself: the comments are never
 * committed with the agent's work, and nothing in the repository's own ignore files changes.
 */
final class ReviewFile {
    /** The folder, relative to the worktree. */
    static final String FOLDER = ".paddock-review";
    /** The file, relative to the worktree. */
    static final String RELATIVE = FOLDER + "/review-comments.md";

    private ReviewFile() {}

    /**
     * Writes (replaces) the file in {@code worktree}.
     *
     * @return its path
     * @throws SandboxException when it cannot be written
     */
    static Path write(Path worktree, String markdown) throws SandboxException {
        Path dir = worktree.resolve(FOLDER);
        Path file = worktree.resolve(RELATIVE);
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve(".gitignore"), "*\n", StandardCharsets.UTF_8);
            Files.writeString(file, markdown, StandardCharsets.UTF_8);
            return file;
        } catch (IOException e) {
            throw new SandboxException("Cannot write the review comments to " + file + ": " + e.getMessage(), e);
        }
    }
}
