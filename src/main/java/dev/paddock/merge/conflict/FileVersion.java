package dev.paddock.merge.conflict;

import java.io.IOException;
import org.eclipse.jgit.diff.RawText;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.revwalk.RevTree;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.util.RawParseUtils;

/**
 * One side's version of a path: its mode and bytes, or absent.
 *
 * @param mode  the entry's mode ({@link FileMode#MISSING} when the side has no entry at the path)
 * @param bytes the blob's content ({@code null} unless a regular file or symlink)
 */
record FileVersion(FileMode mode, byte[] bytes) {
    static final FileVersion ABSENT = new FileVersion(FileMode.MISSING, null);

    /** The version of {@code path} in {@code tree} ({@link #ABSENT} for a null tree or a missing path). */
    static FileVersion read(ObjectReader reader, RevTree tree, String path) throws IOException {
        if (tree == null) {
            return ABSENT;
        }
        try (TreeWalk tw = TreeWalk.forPath(reader, path, tree)) {
            if (tw == null) {
                return ABSENT;
            }
            FileMode mode = tw.getFileMode(0);
            boolean blob = mode.getObjectType() == Constants.OBJ_BLOB;
            return new FileVersion(
                    mode,
                    blob ? reader.open(tw.getObjectId(0), Constants.OBJ_BLOB).getBytes(Integer.MAX_VALUE) : null);
        }
    }

    boolean present() {
        return mode != FileMode.MISSING;
    }

    /** Whether the entry is a file or symlink (not a directory or submodule). */
    boolean isBlob() {
        return bytes != null;
    }

    /** Whether the content is binary by git's rule (a NUL byte in the first 8000 bytes; JGit {@link RawText#isBinary}). */
    boolean isBinary() {
        return bytes != null && RawText.isBinary(bytes);
    }

    /** The content decoded (UTF-8, JGit's fallback for other bytes); null when absent or not a blob. */
    String text() {
        return bytes == null ? null : RawParseUtils.decode(bytes);
    }
}
