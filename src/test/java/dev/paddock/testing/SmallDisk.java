package dev.paddock.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real, small file system for tests of a full disk: a tmpfs of a few MB mounted on a temporary folder (the tests
 * run as root, here and in CI). {@link #fill} leaves only a given number of bytes free with a filler file;
 * {@link #free} deletes it. {@link #close} unmounts.
 */
public final class SmallDisk implements AutoCloseable {
    private final Path dir;

    private SmallDisk(Path dir) {
        this.dir = dir;
    }

    /**
     * Mounts a tmpfs of {@code megabytes} MB on {@code dir} (created if missing).
     *
     * @throws IllegalStateException when it cannot be mounted (the test then fails: it needs root)
     */
    public static SmallDisk mount(Path dir, int megabytes) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        run(List.of("mount", "-t", "tmpfs", "-o", "size=" + megabytes + "m,mode=700", "tmpfs", dir.toString()));
        return new SmallDisk(dir);
    }

    /** The mounted folder. */
    public Path dir() {
        return dir;
    }

    /** Free bytes on it. */
    public long freeBytes() throws IOException {
        return Files.getFileStore(dir).getUsableSpace();
    }

    /** Writes a filler file until at most {@code leave} bytes are free (tmpfs counts whole 4 KB pages). */
    public void fill(long leave) throws IOException {
        byte[] block = new byte[4096];
        try (OutputStream out = Files.newOutputStream(
                filler(), java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND)) {
            while (freeBytes() > leave) {
                long chunk = Math.min(freeBytes() - leave, 1024 * 1024);
                for (long n = 0; n < chunk; n += block.length) {
                    out.write(block, 0, (int) Math.min(block.length, chunk - n));
                }
                out.flush();
            }
        } catch (IOException full) {
            if (freeBytes() > leave) {
                throw full;
            }
        }
    }

    /** Deletes the filler file. */
    public void free() throws IOException {
        Files.deleteIfExists(filler());
    }

    private Path filler() {
        return dir.resolve("filler.bin");
    }

    @Override
    public void close() throws IOException, InterruptedException {
        run(List.of("umount", "-l", dir.toString()));
    }

    private static void run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException(
                    String.join(" ", command) + " failed (the test needs root): " + out.strip());
        }
    }
}
