package dev.paddock.common;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Deleting and listing folder trees without ever following a symbolic link out of them. */
public final class Trees {
    private Trees() {}

    /**
     * Deletes {@code dir} and everything in it. A symbolic link is deleted as a link, never followed (also
     * when {@code dir} itself is one). A folder its owner may not read (overlayfs leaves {@code work/work} with mode
     * 000) is opened to its owner first.
     *
     * @throws IOException when something cannot be deleted (what could be is gone)
     */
    public static void delete(Path dir) throws IOException {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFileFailed(Path f, IOException e) throws IOException {
                if (!(e instanceof java.nio.file.AccessDeniedException)
                        || !Files.isDirectory(f, LinkOption.NOFOLLOW_LINKS)) {
                    throw e;
                }
                Files.setPosixFilePermissions(f, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
                delete(f);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                if (e != null) {
                    throw e;
                }
                Files.delete(d);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    /** Up to {@code max} files under {@code dir}, relative to it, sorted; links are listed, not followed. */
    public static List<String> files(Path dir, int max) throws IOException {
        List<String> out = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.filter(p -> !Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS))
                    .limit(max)
                    .forEach(p -> out.add(dir.relativize(p).toString()));
        }
        out.sort(null);
        return out;
    }
}
