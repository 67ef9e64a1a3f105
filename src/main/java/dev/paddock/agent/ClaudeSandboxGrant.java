package dev.paddock.agent;

import java.nio.file.Path;
import java.util.List;

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

    /** Only the worktree writable, no network. */
    public static ClaudeSandboxGrant closed() {
        return new ClaudeSandboxGrant(List.of(), false, List.of());
    }
}
