package dev.paddock.ui.diff;

import dev.paddock.common.PaddockException;
import dev.paddock.diff.DiffOptions;
import dev.paddock.diff.FilePatch;
import dev.paddock.diff.SandboxDiff;
import java.time.Instant;
import java.util.List;

/** What the diff view needs: a sandbox's change, one file's patch, and the comments on the change. */
public interface DiffBackend {
    /** The files of a sandbox's change (no text yet). */
    SandboxDiff diff(String sandboxId, DiffOptions options) throws PaddockException;

    /** One file's patch. */
    FilePatch file(String sandboxId, String path, DiffOptions options) throws PaddockException;

    /** The comments on a sandbox's change, oldest first. */
    List<Comment> comments(String sandboxId) throws PaddockException;

    /** Adds a comment (the backend quotes the line); {@code path} null: on the change as a whole. */
    Comment comment(String sandboxId, String path, int line, boolean oldSide, String body) throws PaddockException;

    /**
     * A comment.
     *
     * @param path the file, or null for a comment on the whole change
     * @param line its line (0 with no file)
     * @param oldSide whether the line is one of the old file's (a deleted line)
     * @param sent whether it was already sent to the agent
     */
    record Comment(
            long id, String path, int line, boolean oldSide, String body, String author, Instant at, boolean sent) {}
}
