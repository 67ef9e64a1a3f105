package dev.paddock.isolation.bubblewrap;

import dev.paddock.isolation.GitWrites;
import dev.paddock.isolation.LayerMount;
import dev.paddock.isolation.LinkedWorktree;
import dev.paddock.isolation.SandboxApi;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code bwrap} command line of the namespace tier (see docs/decisions/0009-three-isolation-tiers.md): system
 * directories read-only, the worktree and what git needs to commit writable, a private {@code /tmp},
 * every namespace unshared (no network unless granted), a new session, and death with its parent.
 *
 * <p>What git needs, writable: the shared object store, the refs, the reflogs and this worktree's own
 * admin directory ({@code .git/worktrees/<name>}); the rest of the common {@code .git} directory (other
 * worktrees' admin directories, the config) is mounted read-only. No home directory is mounted: HOME is
 * a directory in the private {@code /tmp}. Writes anywhere else fail ({@code EROFS}) instead of landing unseen:
 * the root is remounted read-only, and the main checkout that holds {@code .worktrees/} is an empty read-only
 * tmpfs (its files are not visible; only the mounts above show through).
 */
public final class BubblewrapCommand {
    /** Top-level system directories mounted read-only when present (symlinks are recreated as symlinks). */
    static final List<String> SYSTEM_DIRS =
            List.of("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt");

    private final String bwrap;

    /** @param bwrap the bwrap executable (a name looked up on the PATH, or a path) */
    public BubblewrapCommand(String bwrap) {
        this.bwrap = bwrap;
    }

    /**
     * The main checkout ({@code <common>/..}) when the worktree lies inside it (Paddock's {@code .worktrees/}):
     * it gets an empty read-only tmpfs, so a write to the user's own files fails instead of landing unseen in
     * the sandbox's private root; null otherwise, or when it is {@code /} or {@code /tmp}.
     */
    private static Path mainCheckout(LinkedWorktree wt) {
        Path main = wt.commonDir().getParent();
        if (main == null
                || main.getNameCount() == 0
                || main.equals(Path.of("/tmp"))
                || !wt.worktree().startsWith(main)
                || wt.worktree().equals(main)) {
            return null;
        }
        return main;
    }

    /**
     * The full command for {@code argv} run in a linked worktree: {@code bwrap <options> -- <argv>}. The
     * environment inside is the one bwrap is started with (the runtime scrubs it), with only HOME and TMPDIR set
     * here: secrets such as a sandbox's token never appear on a command line, which every local user can read in
     * {@code /proc/<pid>/cmdline}.
     *
     * @param wt the worktree (writable, the working directory) and where its git state is
     * @param writes what of the common {@code .git} directory may be written
     * @param alsoWritable more writable directories (an agent's control directory: its heartbeat file)
     * @param network whether to keep the host's network
     * @param argv what to run inside
     */
    public List<String> command(
            LinkedWorktree wt, GitWrites writes, List<Path> alsoWritable, boolean network, List<String> argv)
            throws IOException {
        return command(wt, writes, alsoWritable, network, null, argv);
    }

    /**
     * {@link #command(LinkedWorktree, GitWrites, List, boolean, List)} showing {@code api} read-only: its socket's
     * directory at {@link SandboxApi#SOCKET_DIR} and its programs under {@link SandboxApi#BIN} (null: nothing).
     */
    public List<String> command(
            LinkedWorktree wt,
            GitWrites writes,
            List<Path> alsoWritable,
            boolean network,
            SandboxApi api,
            List<String> argv)
            throws IOException {
        return command(wt, writes, alsoWritable, network, api, List.of(), argv);
    }

    /**
     * {@link #command(LinkedWorktree, GitWrites, List, boolean, SandboxApi, List)} with shared layers: when there are
     * any, bwrap runs inside a user and mount namespace of its own ({@link LayerMounts}) where each layer's overlay
     * is mounted first, and each merged folder is bound at its target; the run keeps the caller's uid and gid.
     */
    public List<String> command(
            LinkedWorktree wt,
            GitWrites writes,
            List<Path> alsoWritable,
            boolean network,
            SandboxApi api,
            List<LayerMount> layers,
            List<String> argv)
            throws IOException {
        Path commonDir = wt.commonDir();
        List<String> c = new ArrayList<>(List.of(bwrap, "--die-with-parent", "--new-session", "--unshare-all"));
        if (!layers.isEmpty()) {
            c.addAll(LayerMounts.identity(LayerMounts.Ids.own()));
        }
        if (network) {
            c.add("--share-net");
        }
        for (String dir : SYSTEM_DIRS) {
            Path p = Path.of(dir);
            if (Files.isSymbolicLink(p)) {
                c.addAll(List.of("--symlink", Files.readSymbolicLink(p).toString(), dir));
            } else if (Files.isDirectory(p)) {
                c.addAll(List.of("--ro-bind", dir, dir));
            }
        }
        c.addAll(List.of(
                "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--tmpfs", "/var/tmp", "--dir", "/tmp/home"));
        Path main = mainCheckout(wt);
        if (main != null) {
            c.addAll(List.of("--tmpfs", main.toString())); // hides the main checkout's files; read-only below
        }
        c.addAll(List.of("--ro-bind", commonDir.toString(), commonDir.toString()));
        for (String writable : writes.dirs()) {
            Path p = commonDir.resolve(writable);
            if (Files.isDirectory(p)) {
                c.addAll(List.of("--bind", p.toString(), p.toString()));
            }
        }
        c.addAll(List.of("--bind", wt.adminDir().toString(), wt.adminDir().toString()));
        c.addAll(List.of("--bind", wt.worktree().toString(), wt.worktree().toString()));
        for (Path p : alsoWritable) {
            c.addAll(List.of("--bind", p.toString(), p.toString()));
        }
        for (LayerMount l : layers) {
            c.addAll(List.of("--bind", l.dir().resolve(LayerMounts.MERGED).toString(), l.target()));
        }
        if (api != null) {
            c.addAll(List.of("--ro-bind", api.socketDir().toString(), SandboxApi.SOCKET_DIR));
            for (Path p : api.programs()) {
                c.addAll(List.of("--ro-bind", p.toString(), SandboxApi.inside(p)));
            }
        }
        if (main != null) {
            c.addAll(List.of("--remount-ro", main.toString()));
        }
        c.addAll(List.of("--remount-ro", "/"));
        c.addAll(List.of("--setenv", "HOME", "/tmp/home", "--setenv", "TMPDIR", "/tmp"));
        c.addAll(List.of("--chdir", wt.worktree().toString(), "--"));
        c.addAll(argv);
        return layers.isEmpty() ? c : LayerMounts.wrap(layers, c);
    }
}
