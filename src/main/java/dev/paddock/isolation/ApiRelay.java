package dev.paddock.isolation;

import dev.paddock.common.PrivateFiles;
import dev.paddock.common.Threads;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One sandbox's way to Paddock's API without a network: a Unix-domain socket, {@code <dir>/}{@value #SOCKET_NAME},
 * that Paddock listens on and whose connections it relays, byte for byte, to its loopback API. The directory is
 * Paddock's own (mode 700, the socket 600) and is shown to the sandbox read-only ({@link SandboxApi}), so the agent
 * can connect but can neither replace the socket nor reach another sandbox's. The relay judges nothing: the API
 * does, and it knows each relayed connection by its loopback port ({@link ApiRelays#sandboxOfPeer}), so a request
 * through this socket counts only for this sandbox. See docs/decisions/0019-hook-channel-per-sandbox-socket.md.
 *
 * <p>At most {@value #MAX_CONNECTIONS} connections at once (a hook call takes one; more are closed at once): a
 * sandbox that floods its socket holds no more of Paddock than that.
 */
public final class ApiRelay implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ApiRelay.class);
    /** The socket's file name in its directory. */
    public static final String SOCKET_NAME = "api.sock";
    /** Connections relayed at once, per sandbox. */
    public static final int MAX_CONNECTIONS = 16;

    private static final int CONNECT_MS = 2000;

    private final String sandboxId;
    private final Path dir;
    private final Path socket;
    private final IntSupplier apiPort;
    private final ApiRelays.Peers peers;
    private final ServerSocketChannel server;
    private final ExecutorService pumps;
    private final AtomicInteger open = new AtomicInteger();
    private volatile boolean closed;

    private ApiRelay(String sandboxId, Path dir, IntSupplier apiPort, ApiRelays.Peers peers) throws IOException {
        this.sandboxId = sandboxId;
        this.dir = dir;
        this.socket = dir.resolve(SOCKET_NAME);
        this.apiPort = apiPort;
        this.peers = peers;
        PrivateFiles.createDirectories(dir);
        if (Files.isSymbolicLink(dir) || !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException(dir + " is not a directory of Paddock's own");
        }
        PrivateFiles.restrict(dir, PrivateFiles.DIR);
        Files.deleteIfExists(socket); // an earlier run's socket (a link is removed, never followed)
        ServerSocketChannel s = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            s.bind(UnixDomainSocketAddress.of(socket));
            if (PrivateFiles.posix(socket)) {
                Files.setPosixFilePermissions(socket, PrivateFiles.FILE); // a socket cannot be opened as a file
            }
        } catch (IOException e) {
            s.close();
            throw e;
        }
        this.server = s;
        this.pumps = Executors.newCachedThreadPool(Threads.numbered("api-relay-" + sandboxId));
    }

    /**
     * Listens on {@code <dir>/}{@value #SOCKET_NAME} (an old socket there is replaced) and relays to
     * {@code 127.0.0.1:apiPort}.
     *
     * @throws IOException when the directory or the socket cannot be made
     */
    static ApiRelay open(String sandboxId, Path dir, IntSupplier apiPort, ApiRelays.Peers peers) throws IOException {
        ApiRelay r = new ApiRelay(sandboxId, dir, apiPort, peers);
        Thread t = Threads.daemon("api-relay-" + sandboxId).newThread(r::accept);
        t.start();
        return r;
    }

    /** The socket's path on the host. */
    public Path socket() {
        return socket;
    }

    /** The directory the socket is in (shown to the sandbox). */
    public Path dir() {
        return dir;
    }

    private void accept() {
        while (!closed) {
            SocketChannel client;
            try {
                client = server.accept();
            } catch (IOException e) {
                if (!closed) {
                    LOG.warn("The API socket of {} stopped accepting: {}", sandboxId, e.toString());
                }
                return;
            }
            if (open.incrementAndGet() > MAX_CONNECTIONS) {
                open.decrementAndGet();
                closeQuietly(client);
                continue;
            }
            try {
                pumps.execute(() -> relay(client));
            } catch (RuntimeException e) {
                open.decrementAndGet();
                closeQuietly(client);
            }
        }
    }

    /** Relays one connection both ways until either side ends. */
    private void relay(SocketChannel client) {
        SocketChannel api = null;
        InetSocketAddress local = null;
        try {
            api = SocketChannel.open();
            api.socket()
                    .connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), apiPort.getAsInt()), CONNECT_MS);
            InetSocketAddress bound = (InetSocketAddress) api.getLocalAddress();
            local = new InetSocketAddress(bound.getAddress(), bound.getPort());
            // Known before its first byte reaches the API: the API counts it as this sandbox's.
            peers.add(local, sandboxId);
            SocketChannel up = api;
            pumps.execute(() -> pump(client, up));
            // The API ends every answer by closing (HTTP/1.0): then the whole connection ends, whatever the client
            // still sends.
            pump(up, client);
        } catch (IOException | RuntimeException e) {
            LOG.debug("Relay of {}'s API socket ended: {}", sandboxId, e.toString());
        } finally {
            if (local != null) {
                peers.remove(local);
            }
            closeQuietly(api);
            closeQuietly(client);
            open.decrementAndGet();
        }
    }

    /** Copies {@code from} to {@code to} until {@code from} ends, then ends {@code to}'s output. */
    private static void pump(SocketChannel from, SocketChannel to) {
        ByteBuffer buf = ByteBuffer.allocate(16 * 1024);
        try {
            while (from.read(buf) >= 0) {
                buf.flip();
                while (buf.hasRemaining()) {
                    to.write(buf);
                }
                buf.clear();
            }
            to.shutdownOutput();
        } catch (IOException e) {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private static void closeQuietly(java.io.Closeable c) {
        if (c != null) {
            try {
                c.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }

    /** Stops listening, ends every relayed connection and removes the socket. */
    @Override
    public void close() {
        closed = true;
        closeQuietly(server);
        pumps.shutdownNow();
        try {
            Files.deleteIfExists(socket);
        } catch (IOException e) {
            LOG.warn("Cannot remove the API socket {}: {}", socket, e.toString());
        }
    }
}
