package dev.paddock.sandbox;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code bwrap} command line of the namespace tier (BRIEF "Isolation tiers", seed 003): system
 * directories read-only, the worktree and what git needs to commit writable, a private {@code /tmp},
 * every namespace unshared (no network unless granted), a new session, and death with its parent.
 *
 * <p>What git needs, writable: the shared object store, the refs, the reflogs and this worktree's own
 * admin directory ({@code .git/worktrees/<name>}); the rest of the common {@code .git} directory (other
 * worktrees' admin directories, the config) is mounted read-only. No home directory is mounted: HOME is
 * a directory in the private {@code /tmp}.
 */
public final class BubblewrapCommand {
    /** Top-level system directories mounted read-only when present (symlinks are recreated as symlinks). */
    static final List<String> SYSTEM_DIRS = List.of("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
            "/etc", "/opt");

    private final String bwrap;

    public BubblewrapCommand(String bwrap) {
        this.bwrap = bwrap;
    }

    /**
     * The full command: {@code bwrap <options> -- <argv>}. The environment inside is the one bwrap is
     * started with (the launcher scrubs it), with only HOME and TMPDIR set here: secrets such as the
     * sandbox's token never appear on a command line, which every local user can read in
     * {@code /proc/<pid>/cmdline}.
     *
     * @param worktree the sandbox's worktree (writable, the working directory)
     * @param commonDir the repository's common {@code .git} directory
     * @param worktreeGitDir this worktree's admin directory ({@code <commonDir>/worktrees/<name>})
     * @param controlDir Paddock's directory of the sandbox (writable: the heartbeat file)
     * @param network whether to keep the host's network
     * @param argv what to run inside
     */
    public List<String> command(Path worktree, Path commonDir, Path worktreeGitDir, Path controlDir,
                                boolean network, List<String> argv) throws IOException {
        List<String> c = new ArrayList<>(List.of(bwrap, "--die-with-parent", "--new-session", "--unshare-all"));
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
        c.addAll(List.of("--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--tmpfs", "/var/tmp",
                "--dir", "/tmp/home"));
        c.addAll(List.of("--ro-bind", commonDir.toString(), commonDir.toString()));
        for (String writable : List.of("objects", "refs", "logs")) {
            Path p = commonDir.resolve(writable);
            if (Files.isDirectory(p)) {
                c.addAll(List.of("--bind", p.toString(), p.toString()));
            }
        }
        c.addAll(List.of("--bind", worktreeGitDir.toString(), worktreeGitDir.toString()));
        c.addAll(List.of("--bind", worktree.toString(), worktree.toString()));
        c.addAll(List.of("--bind", controlDir.toString(), controlDir.toString()));
        c.addAll(List.of("--setenv", "HOME", "/tmp/home", "--setenv", "TMPDIR", "/tmp"));
        c.addAll(List.of("--chdir", worktree.toString(), "--"));
        c.addAll(argv);
        return c;
    }
}
