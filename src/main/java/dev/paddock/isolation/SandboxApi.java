package dev.paddock.isolation;

import java.nio.file.Path;
import java.util.List;

/**
 * What an agent in a namespace or container sandbox is shown of Paddock so its Claude Code hook works without a
 * network: its sandbox's API socket directory ({@link ApiRelay}) at {@value #SOCKET_DIR} and the hook programs at
 * {@value #BIN}, all read-only, at these fixed paths in either tier. See
 * docs/decisions/0019-hook-channel-per-sandbox-socket.md.
 *
 * @param socketDir the host directory of the sandbox's socket
 * @param programs host paths of the hook programs (each shown as {@link #inside})
 */
public record SandboxApi(Path socketDir, List<Path> programs) {
    /** Where the socket's directory appears inside. */
    public static final String SOCKET_DIR = "/run/paddock/api";
    /** The socket's path inside. */
    public static final String SOCKET = SOCKET_DIR + "/" + ApiRelay.SOCKET_NAME;
    /** Where the hook programs appear inside. */
    public static final String BIN = "/run/paddock/bin";
    /** The variable that names the socket to the hook ({@link #SOCKET}). */
    public static final String SOCKET_VARIABLE = "PADDOCK_API_SOCKET";

    public SandboxApi {
        programs = List.copyOf(programs);
    }

    /** Where a hook program appears inside: {@value #BIN}{@code /<its file name>}. */
    public static String inside(Path program) {
        return BIN + "/" + program.getFileName();
    }
}
