package dev.paddock.worktree;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/**
 * Unpacks a tar stream that came from a machine Paddock does not trust (a sandbox's workspace on a remote engine)
 * into a fresh directory, refusing ({@link WorkspaceRefused}) instead of writing anything outside it: only
 * directories, regular files and symbolic links whose target stays inside; no absolute path, no {@code ..}, no path
 * through a link; at most {@code maxBytes} of file content and {@code maxEntries} entries. Modes are reduced to
 * 0644/0755, owners are this process's.
 */
public final class WorkspaceUnpack {
    private WorkspaceUnpack() {}

    /**
     * Unpacks the entries under {@code root/} (the archive's top directory, e.g. {@code paddock-volume}) into
     * {@code into}, which must be an empty directory.
     *
     * @throws WorkspaceRefused when an entry is refused or a limit is passed; {@code into} then holds a part, to
     *     be deleted
     */
    public static void unpack(InputStream in, String root, Path into, long maxBytes, int maxEntries)
            throws IOException, WorkspaceRefused {
        unpack(in, root, into, maxBytes, maxEntries, Map.of());
    }

    /**
     * Like {@link #unpack(InputStream, String, Path, long, int)}, but a link leading out is taken when
     * {@code knownLinks} has the same link (its path below {@code root/} → its target): one the sandbox's worktree
     * has already, so bringing it back gives the agent nothing it did not have.
     */
    public static void unpack(
            InputStream in, String root, Path into, long maxBytes, int maxEntries, Map<String, String> knownLinks)
            throws IOException, WorkspaceRefused {
        Path base = into.toAbsolutePath().normalize();
        long bytes = 0;
        int entries = 0;
        TarArchiveInputStream tar = new TarArchiveInputStream(in, StandardCharsets.UTF_8.name());
        TarArchiveEntry e;
        byte[] buf = new byte[64 * 1024];
        while ((e = tar.getNextEntry()) != null) {
            if (++entries > maxEntries) {
                throw new WorkspaceRefused(
                        "The workspace has more than " + maxEntries + " entries; nothing was" + " brought back.");
            }
            String rel = relative(e.getName(), root);
            if (rel == null) {
                continue; // the top directory itself
            }
            Path target = base.resolve(rel).normalize();
            if (!target.startsWith(base) || target.equals(base)) {
                throw new WorkspaceRefused("The workspace holds an entry outside it: " + e.getName());
            }
            noLinkOnTheWay(base, target, e.getName());
            if (e.isLink() || e.isCharacterDevice() || e.isBlockDevice() || e.isFIFO()) {
                throw new WorkspaceRefused("The workspace holds " + e.getName() + ", which is neither a file, a"
                        + " directory nor a link (hard link, device or pipe); nothing was brought back.");
            }
            if (e.isDirectory()) {
                if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)
                        && !Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
                    throw new WorkspaceRefused("The workspace holds " + e.getName() + " twice");
                }
                Files.createDirectories(target);
            } else if (e.isSymbolicLink()) {
                String link = e.getLinkName();
                Path to = target.getParent().resolve(link).normalize();
                boolean out = link.startsWith("/") || !to.startsWith(base);
                if (link.isEmpty() || link.indexOf('\0') >= 0 || (out && !link.equals(knownLinks.get(rel)))) {
                    throw new WorkspaceRefused(
                            "The workspace holds a link leading out of it: " + e.getName() + " -> " + link);
                }
                Files.createDirectories(target.getParent());
                Files.deleteIfExists(target);
                Files.createSymbolicLink(target, Path.of(link));
            } else if (e.isFile()) {
                bytes += e.getSize();
                if (bytes > maxBytes) {
                    throw new WorkspaceRefused("The workspace is larger than " + (maxBytes >> 20) + " MiB; nothing was"
                            + " brought back. Remove large outputs in the sandbox (or ignore them) and try again.");
                }
                Files.createDirectories(target.getParent());
                Files.deleteIfExists(target);
                long left = e.getSize();
                try (OutputStream out = Files.newOutputStream(
                        target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
                    int n;
                    while (left > 0 && (n = tar.read(buf, 0, (int) Math.min(buf.length, left))) > 0) {
                        out.write(buf, 0, n);
                        left -= n;
                    }
                }
                boolean exec = (e.getMode() & 0100) != 0;
                Files.setPosixFilePermissions(
                        target, PosixFilePermissions.fromString(exec ? "rwxr-xr-x" : "rw-r--r--"));
            } else {
                throw new WorkspaceRefused("The workspace holds " + e.getName() + ", which is neither a file, a"
                        + " directory nor a link (hard link, device or pipe); nothing was brought back.");
            }
        }
    }

    /** The entry's path below {@code root/}, or null for the root itself; refuses every other shape. */
    static String relative(String name, String root) throws WorkspaceRefused {
        String n = name;
        while (n.startsWith("./")) {
            n = n.substring(2);
        }
        if (n.equals(root) || n.equals(root + "/")) {
            return null;
        }
        if (!n.startsWith(root + "/") || n.indexOf('\0') >= 0) {
            throw new WorkspaceRefused("The workspace holds an entry outside it: " + name);
        }
        String rel = n.substring(root.length() + 1);
        while (rel.endsWith("/")) {
            rel = rel.substring(0, rel.length() - 1);
        }
        if (rel.isEmpty() || rel.startsWith("/")) {
            throw new WorkspaceRefused("The workspace holds an entry outside it: " + name);
        }
        for (String part : rel.split("/")) {
            if (part.equals("..")) {
                throw new WorkspaceRefused("The workspace holds an entry outside it: " + name);
            }
        }
        return rel;
    }

    /** Refuses a target below a symbolic link (written through it, it would land anywhere). */
    private static void noLinkOnTheWay(Path base, Path target, String name) throws WorkspaceRefused {
        Path p = target.getParent();
        while (p != null && p.startsWith(base) && !p.equals(base)) {
            if (Files.isSymbolicLink(p)) {
                throw new WorkspaceRefused("The workspace holds an entry behind a link: " + name);
            }
            p = p.getParent();
        }
    }
}
