package dev.paddock.agent;

import dev.paddock.common.PaddockException;
import dev.paddock.worktree.GitCli;
import dev.paddock.worktree.GitException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * What Claude Code's own Bash sandbox ({@code sandbox} settings; bubblewrap and socat on Linux) allows a sandbox's
 * agent: the worktree is writable by default; {@code extraWritable} adds what git needs outside it (a linked
 * worktree's admin folder and the common {@code objects}, {@code refs}, {@code logs}) and Paddock's control folder
 * (the heartbeat file). Without network, every domain is denied ({@code deniedDomains: ["*"]}); with it, the
 * {@code allowedDomains} listed (none: Claude Code then refuses, headless, any domain it would ask about).
 *
 * @param extraWritable absolute paths writable besides the worktree
 * @param network whether the sandbox's grant includes the network
 * @param allowedDomains domains Bash commands may reach when {@code network} (wildcards such as {@code *.npmjs.org})
 */
public record ClaudeSandboxGrant(List<Path> extraWritable, boolean network, List<String> allowedDomains) {
    public ClaudeSandboxGrant {
        extraWritable = List.copyOf(extraWritable);
        allowedDomains = List.copyOf(allowedDomains);
        for (Path p : extraWritable) {
            if (!p.isAbsolute()) {
                throw new IllegalArgumentException("a writable path must be absolute: " + p);
            }
        }
    }

    /**
     * The grant of a sandbox in the {@code worktree} tier: what {@code git commit} writes outside the worktree (its
     * admin folder in the repository's git folder, and the shared {@code objects}, {@code refs} and {@code logs};
     * never {@code config} or {@code hooks}), the sandbox's control folder, and the network when the sandbox has it.
     *
     * @throws PaddockException when git cannot say where the worktree's git folders are
     */
    public static ClaudeSandboxGrant forWorktree(GitCli git, Path worktree, Path controlDir, boolean network)
            throws PaddockException {
        try {
            Path admin = Path.of(git.runOk(worktree, "rev-parse", "--path-format=absolute", "--git-dir")
                    .strip());
            Path common = Path.of(git.runOk(worktree, "rev-parse", "--path-format=absolute", "--git-common-dir")
                    .strip());
            List<Path> writable = new ArrayList<>();
            writable.add(admin);
            for (String shared : List.of("objects", "refs", "logs")) {
                writable.add(common.resolve(shared));
            }
            writable.add(controlDir.toAbsolutePath());
            return new ClaudeSandboxGrant(writable, network, List.of());
        } catch (GitException e) {
            throw new PaddockException(worktree + " is not a git worktree: " + e.getMessage(), e);
        }
    }

    /**
     * Whether Claude Code's own sandbox can run with the programs on {@code path}: on Linux it needs
     * {@code bwrap} and {@code socat}.
     */
    public static boolean toolsOn(String path) {
        if (path == null) {
            return false;
        }
        return Stream.of("bwrap", "socat")
                .allMatch(tool -> Stream.of(path.split(java.io.File.pathSeparator))
                        .filter(d -> !d.isBlank())
                        .map(d -> Path.of(d, tool))
                        .anyMatch(Files::isExecutable));
    }

    /** Only the worktree writable, no network. */
    public static ClaudeSandboxGrant closed() {
        return new ClaudeSandboxGrant(List.of(), false, List.of());
    }
}
