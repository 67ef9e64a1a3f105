package dev.paddock.isolation;

import dev.paddock.common.PaddockException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The API sockets of the sandboxes whose agents run ({@link ApiRelay}), one directory each under
 * {@code <paddock home>/run/api/<sandbox id>/}, and which loopback connections to the API they made, so the API can
 * tell a relayed request (and whose it is) from one made on the host. Opened when an agent starts or Paddock finds
 * it running after a restart; closed and removed when it no longer runs and when Paddock stops.
 */
public final class ApiRelays implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ApiRelays.class);
    private static final Pattern ID = Pattern.compile("[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?");

    /** The near ends (loopback address and port) of relayed connections → the sandbox whose socket they came through. */
    static final class Peers {
        private final Map<InetSocketAddress, String> byAddress = new ConcurrentHashMap<>();

        void add(InetSocketAddress local, String sandboxId) {
            byAddress.put(local, sandboxId);
        }

        void remove(InetSocketAddress local) {
            byAddress.remove(local);
        }

        Optional<String> sandboxOf(InetSocketAddress remote) {
            return Optional.ofNullable(byAddress.get(remote));
        }
    }

    private final Path root;
    private final Peers peers = new Peers();
    private final Map<String, ApiRelay> relays = new ConcurrentHashMap<>();
    private volatile int apiPort;

    /** @param root the directory holding one directory per sandbox ({@code <paddock home>/run/api}) */
    public ApiRelays(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    /** Relays to the API on {@code 127.0.0.1:port} from now on (connections made before keep their target). */
    public void apiPort(int port) {
        this.apiPort = port;
    }

    /**
     * The directory of a sandbox's socket (shown to it at {@link SandboxApi#SOCKET_DIR}): {@code <root>/<id>}, or
     * {@code <root>/<16 hex digits of the id's SHA-256>} when the socket's path would not fit the 107 bytes a Unix
     * socket's path may have.
     */
    public Path dirOf(String sandboxId) {
        if (!ID.matcher(sandboxId).matches()) {
            throw new IllegalArgumentException("not a sandbox id: " + sandboxId);
        }
        Path byId = root.resolve(sandboxId);
        if (pathBytes(byId.resolve(ApiRelay.SOCKET_NAME)) <= MAX_PATH) {
            return byId;
        }
        return root.resolve(dev.paddock.common.TokenHash.of(sandboxId).substring(0, 16));
    }

    /** The longest path of a Unix socket, in bytes (the kernel's 108 with the final NUL). */
    static final int MAX_PATH = 107;

    private static int pathBytes(Path p) {
        return p.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    }

    /**
     * The sandbox's socket, opened now unless it is open.
     *
     * @return its directory
     * @throws PaddockException when the socket cannot be made
     */
    public synchronized Path ensure(String sandboxId) throws PaddockException {
        ApiRelay r = relays.get(sandboxId);
        if (r != null && java.nio.file.Files.exists(r.socket())) {
            return r.dir();
        }
        if (r != null) {
            r.close(); // its socket file is gone: listen anew
        }
        Path dir = dirOf(sandboxId);
        if (pathBytes(dir.resolve(ApiRelay.SOCKET_NAME)) > MAX_PATH) {
            throw new PaddockException("Cannot open the API socket of " + sandboxId + ": its path under " + root
                    + " is longer than the " + MAX_PATH + " bytes a Unix socket's path may have. Use a Paddock home"
                    + " with a shorter path (--home), or the worktree tier.");
        }
        try {
            r = ApiRelay.open(sandboxId, dir, () -> apiPort, peers);
        } catch (IOException e) {
            relays.remove(sandboxId);
            throw new PaddockException(
                    "Cannot open the API socket of " + sandboxId + " under " + root + ": " + e.getMessage(), e);
        }
        relays.put(sandboxId, r);
        return r.dir();
    }

    /**
     * A broker channel for a sandbox whose agent runs on an engine that shares no disk with Paddock
     * ({@link BrokerChannel}): its connections count for that sandbox as its socket's do.
     *
     * @param fromRelay the relay's output (frames)
     * @param toRelay the relay's input (frames); closed with the channel
     * @param onClose run once when the channel closes (e.g. to drop the stream it came on)
     */
    public BrokerChannel channel(
            String sandboxId, java.io.InputStream fromRelay, java.io.OutputStream toRelay, Runnable onClose) {
        dirOf(sandboxId); // a sandbox id, nothing else
        return new BrokerChannel(sandboxId, fromRelay, toRelay, () -> apiPort, peers, onClose);
    }

    /** Closes and removes the sandbox's socket (and its directory), if it has one. */
    public synchronized void close(String sandboxId) {
        ApiRelay r = relays.remove(sandboxId);
        if (r != null) {
            r.close();
        }
        try {
            java.nio.file.Files.deleteIfExists(dirOf(sandboxId).resolve(ApiRelay.SOCKET_NAME));
            java.nio.file.Files.deleteIfExists(dirOf(sandboxId));
        } catch (IOException | IllegalArgumentException e) {
            LOG.debug("Cannot remove the API socket directory of {}: {}", sandboxId, e.toString());
        }
    }

    /** Closes the sockets of every sandbox but {@code keep}. */
    public void retain(Set<String> keep) {
        for (String id : Set.copyOf(relays.keySet())) {
            if (!keep.contains(id)) {
                close(id);
            }
        }
    }

    /** The sandboxes whose sockets are open. */
    public Set<String> open() {
        return Set.copyOf(relays.keySet());
    }

    /**
     * The sandbox whose socket a connection to the API came through, by its far end (the loopback address and
     * port of a connection the relay holds open), or empty for a connection made any other way.
     */
    public Optional<String> sandboxOfPeer(InetSocketAddress remote) {
        if (remote == null
                || remote.getAddress() == null
                || !remote.getAddress().isLoopbackAddress()) {
            return Optional.empty();
        }
        return peers.sandboxOf(new InetSocketAddress(remote.getAddress(), remote.getPort()));
    }

    /**
     * Closes every socket and keeps the directories: an agent that outlives this Paddock (a container, a bubblewrap
     * run in its own session) still shows its directory, where the next Paddock listens again ({@link #ensure}).
     */
    @Override
    public synchronized void close() {
        relays.values().forEach(ApiRelay::close);
        relays.clear();
    }
}
