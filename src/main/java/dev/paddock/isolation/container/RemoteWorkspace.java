package dev.paddock.isolation.container;

import dev.paddock.common.PaddockException;
import dev.paddock.common.PrivateFiles;
import dev.paddock.container.WorkspaceVolumes;
import dev.paddock.worktree.GitCli;
import dev.paddock.worktree.WorkspaceReturn;
import dev.paddock.worktree.WorkspaceTar;
import dev.paddock.worktree.WorkspaceUnpack;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A sandbox's worktree on an engine that shares no disk with Paddock: delivered into a named volume before its agent
 * starts (a standalone repository of the sandbox's branch and the worktree's files, through the engine's archive
 * API; no bind mount, no git needed in the image) and brought back whenever Paddock asks (checkpoint, end, stop),
 * its commits onto the sandbox's branch and its files into the local worktree, so review, diff, checkpoints, merge
 * and rollback work on the local worktree as for a local sandbox. See
 * docs/decisions/0030-remote-workspace-and-broker-channel.md.
 *
 * <p>The agent's container mounts the volume at its working directory. Nothing of the user's home goes along:
 * the repository has Paddock's {@code .git/config} and no remote, hooks or reflogs.
 */
public final class RemoteWorkspace {
    /** The most file content brought back at once, by default. */
    public static final long DEFAULT_MAX_BYTES = 2L << 30;
    /** The most tar entries brought back at once, by default. */
    public static final int DEFAULT_MAX_ENTRIES = 500_000;

    private final WorkspaceVolumes volumes;
    private final GitCli git;
    private final long maxBytes;
    private final int maxEntries;

    public RemoteWorkspace(WorkspaceVolumes volumes, GitCli git, long maxBytes, int maxEntries) {
        this.volumes = volumes;
        this.git = git;
        this.maxBytes = maxBytes;
        this.maxEntries = maxEntries;
    }

    /** What was delivered: files of the worktree, their bytes, the branch's commit, the time it took. */
    public record Delivered(int files, long bytes, long tarBytes, String head, Duration took) {}

    /**
     * Creates the volume and puts the workspace into it, every entry owned by {@code uid:gid} (the agent's user in
     * its container). A volume that exists already is refused (its files would stay beside the new ones).
     *
     * @param image an image on the engine (for the helper container, never started); the agent's will do
     * @throws PaddockException when git or the engine fails
     */
    public Delivered deliver(
            String volume, String image, Path worktree, String branch, int uid, int gid, Map<String, String> labels)
            throws PaddockException, IOException {
        long t0 = System.nanoTime();
        Path tmp = Files.createTempDirectory("paddock-deliver");
        try {
            PrivateFiles.restrict(tmp, PrivateFiles.DIR);
            Path tar = tmp.resolve("workspace.tar");
            WorkspaceTar.Summary s;
            try (OutputStream out = Files.newOutputStream(tar)) {
                s = new WorkspaceTar(git).write(worktree, branch, uid, gid, WorkspaceVolumes.TOP, out);
            }
            if (!volumes.create(volume, labels)) {
                throw new PaddockException("The volume " + volume + " exists already on the engine: it holds an earlier"
                        + " run's workspace, whose files would stay beside the new ones. Bring it back or remove it"
                        + " first.");
            }
            try (InputStream in = Files.newInputStream(tar)) {
                volumes.put(volume, image, in);
            }
            return new Delivered(
                    s.files(), s.bytes(), Files.size(tar), s.head(), Duration.ofNanos(System.nanoTime() - t0));
        } finally {
            deleteTree(tmp);
        }
    }

    /**
     * Copies the volume's workspace out and takes it into {@code worktree} ({@link WorkspaceReturn}): its branch
     * moves when the workspace's is a fast-forward of it, else the outcome says it diverged and nothing local
     * changed (the commits stay on {@link WorkspaceReturn#REF_PREFIX}{@code <sandboxId>}).
     *
     * <p>A running agent may be writing meanwhile: a copy taken mid-commit (a lock file, a ref not yet written) can
     * make the fetch fail; nothing local changed then, and a later call takes a settled copy.
     *
     * @throws dev.paddock.worktree.WorkspaceRefused when the copy holds an entry outside the workspace, a link
     *     leading out, or more than the limits; nothing local changed then
     * @throws PaddockException when git or the engine fails
     */
    public WorkspaceReturn.Outcome bringBack(
            String volume, String image, Path worktree, String branch, String sandboxId)
            throws PaddockException, IOException {
        Path tmp = Files.createTempDirectory("paddock-return");
        try {
            PrivateFiles.restrict(tmp, PrivateFiles.DIR);
            Path copy = Files.createDirectory(tmp.resolve("copy"));
            String top = WorkspaceVolumes.TOP;
            Map<String, String> knownLinks = WorkspaceTar.links(git, worktree);
            try {
                volumes.get(volume, image, in -> {
                    try {
                        WorkspaceUnpack.unpack(in, top, copy, maxBytes, maxEntries, knownLinks);
                        return null;
                    } catch (dev.paddock.worktree.WorkspaceRefused e) {
                        throw new Refused(e);
                    }
                });
            } catch (Refused r) {
                throw r.refused;
            }
            return new WorkspaceReturn(git).bringBack(copy, worktree, branch, sandboxId);
        } finally {
            deleteTree(tmp);
        }
    }

    /** Carries a refusal through the tar reader (which may throw IOException only). */
    private static final class Refused extends IOException {
        private static final long serialVersionUID = 1L;
        private final transient dev.paddock.worktree.WorkspaceRefused refused;

        Refused(dev.paddock.worktree.WorkspaceRefused refused) {
            super(refused.getMessage());
            this.refused = refused;
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
