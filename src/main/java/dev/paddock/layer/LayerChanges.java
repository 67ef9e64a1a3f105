package dev.paddock.layer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.UserDefinedFileAttributeView;
import java.util.ArrayList;
import java.util.List;

/**
 * What a sandbox changed in a shared folder, read from its overlay's upper layer alone: a walk of what it wrote, never
 * of the shared layer (one existence check there per path written). In the upper layer a regular file or link is a
 * write (added when the shared layer has no such path, else modified), a character device 0/0 is a whiteout (the
 * path was deleted), and a folder marked {@code user.overlay.opaque} replaced the shared folder of that name; a
 * path whose kind changed (a folder below, a file now, or the other way round) is replaced too.
 */
final class LayerChanges {
    private static final String OPAQUE = "overlay.opaque";
    private static final int S_IFMT = 0170000;
    private static final int S_IFCHR = 0020000;

    private LayerChanges() {}

    /**
     * @param folder the shared folder's name, the prefix of every path listed
     * @param upper the sandbox's upper layer (nothing changed when it does not exist)
     * @param lower the shared layer
     */
    static List<LayerChange> read(String folder, Path upper, Path lower) throws IOException {
        List<LayerChange> out = new ArrayList<>();
        if (!Files.isDirectory(upper, LinkOption.NOFOLLOW_LINKS)) {
            return out;
        }
        Files.walkFileTree(upper, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                if (!dir.equals(upper)) {
                    Path below = lower.resolve(upper.relativize(dir).toString());
                    boolean replacedFolder = opaque(dir) && exists(below);
                    boolean replacedFile = exists(below) && !Files.isDirectory(below, LinkOption.NOFOLLOW_LINKS);
                    if (replacedFolder || replacedFile) {
                        out.add(new LayerChange(name(dir), LayerChange.Kind.REPLACED));
                    }
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Path below = lower.resolve(upper.relativize(file).toString());
                if (attrs.isOther() && whiteout(file)) {
                    out.add(new LayerChange(name(file), LayerChange.Kind.DELETED));
                } else if (Files.isDirectory(below, LinkOption.NOFOLLOW_LINKS)) {
                    out.add(new LayerChange(name(file), LayerChange.Kind.REPLACED)); // a folder below, a file now
                } else {
                    out.add(new LayerChange(
                            name(file), exists(below) ? LayerChange.Kind.MODIFIED : LayerChange.Kind.ADDED));
                }
                return FileVisitResult.CONTINUE;
            }

            private String name(Path p) {
                return folder + "/" + upper.relativize(p).toString();
            }
        });
        out.sort(java.util.Comparator.comparing(LayerChange::path));
        return out;
    }

    private static boolean exists(Path p) {
        return Files.exists(p, LinkOption.NOFOLLOW_LINKS);
    }

    /** A character device 0/0 (a fifo or a socket has device number 0 too, and is a write like any file). */
    private static boolean whiteout(Path p) throws IOException {
        Object mode = Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS);
        Object rdev = Files.getAttribute(p, "unix:rdev", LinkOption.NOFOLLOW_LINKS);
        return mode instanceof Integer m && (m & S_IFMT) == S_IFCHR && rdev instanceof Long l && l == 0L;
    }

    private static boolean opaque(Path dir) {
        try {
            UserDefinedFileAttributeView v =
                    Files.getFileAttributeView(dir, UserDefinedFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
            if (v == null || !v.list().contains(OPAQUE)) {
                return false;
            }
            ByteBuffer b = ByteBuffer.allocate(v.size(OPAQUE));
            v.read(OPAQUE, b);
            b.flip();
            return b.remaining() > 0 && b.get(0) == 'y';
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }
}
