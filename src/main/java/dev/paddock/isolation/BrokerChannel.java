package dev.paddock.isolation;

import dev.paddock.common.Threads;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The outer end of a sandbox's broker channel: the API socket of an agent whose container runs on an engine that
 * shares no disk with Paddock. Inside the container, {@code paddock-relay} listens on the socket and carries its
 * connections over one byte stream (a {@code docker exec}'s standard input and output) in frames
 * {@code [u32 connection][u32 length][bytes]}, length 0 ending a direction; here each connection goes to the loopback
 * API like {@link ApiRelay}'s, registered as this sandbox's before its first byte, so the API requires this
 * sandbox's key or token (docs/decisions/0030-remote-workspace-and-broker-channel.md).
 *
 * <p>At most {@value #MAX_CONNECTIONS} connections at once; a frame longer than {@value #MAX_FRAME} bytes ends the
 * channel. When the stream ends the channel closes with every connection, and the relay inside exits: a hook then
 * cannot connect and denies.
 */
public final class BrokerChannel implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerChannel.class);
    /** Connections carried at once. */
    public static final int MAX_CONNECTIONS = ApiRelay.MAX_CONNECTIONS;
    /** The longest frame either end sends. */
    public static final int MAX_FRAME = 64 * 1024;

    private static final int CONNECT_MS = 2000;

    private final String sandboxId;
    private final DataInputStream in;
    private final OutputStream out;
    private final IntSupplier apiPort;
    private final ApiRelays.Peers peers;
    private final Runnable onClose;
    private final Map<Integer, SocketChannel> conns = new ConcurrentHashMap<>();
    private final ExecutorService pumps;
    private final CountDownLatch ready = new CountDownLatch(1);
    private long highestId;
    private volatile boolean closed;

    BrokerChannel(
            String sandboxId,
            InputStream fromRelay,
            OutputStream toRelay,
            IntSupplier apiPort,
            ApiRelays.Peers peers,
            Runnable onClose) {
        this.sandboxId = sandboxId;
        this.in = new DataInputStream(fromRelay);
        this.out = toRelay;
        this.apiPort = apiPort;
        this.peers = peers;
        this.onClose = onClose;
        this.pumps = Executors.newCachedThreadPool(Threads.numbered("broker-" + sandboxId));
        Threads.daemon("broker-in-" + sandboxId).newThread(this::read).start();
    }

    /**
     * Waits until the relay listens inside the container.
     *
     * @return false when it did not say so within {@code timeout} or the channel closed first
     */
    public boolean awaitReady(Duration timeout) throws InterruptedException {
        return ready.await(timeout.toMillis(), TimeUnit.MILLISECONDS) && !closed;
    }

    /** Whether the channel still carries connections (false once its stream ended or it was closed). */
    public boolean isOpen() {
        return !closed;
    }

    /** The sandbox this channel speaks for. */
    public String sandboxId() {
        return sandboxId;
    }

    /** Connections carried now. */
    public int connections() {
        return conns.size();
    }

    private void read() {
        byte[] buf = new byte[MAX_FRAME];
        try {
            while (!closed) {
                int id = in.readInt();
                int len = in.readInt();
                if (len < 0 || len > MAX_FRAME) {
                    throw new IOException("a frame of " + Integer.toUnsignedString(len) + " bytes");
                }
                in.readFully(buf, 0, len);
                if (id == 0) {
                    ready.countDown();
                } else {
                    frame(id, buf, len);
                }
            }
        } catch (EOFException e) {
            LOG.debug("The broker channel of {} ended", sandboxId);
        } catch (IOException | RuntimeException e) {
            if (!closed) {
                LOG.warn("The broker channel of {} failed: {}", sandboxId, e.toString());
            }
        } finally {
            close();
        }
    }

    private void frame(int id, byte[] buf, int len) throws IOException {
        SocketChannel api = conns.get(id);
        long unsigned = Integer.toUnsignedLong(id);
        if (api == null) {
            if (unsigned <= highestId || len == 0) {
                return; // a connection this end has closed already
            }
            highestId = unsigned;
            if (conns.size() >= MAX_CONNECTIONS) {
                send(id, buf, 0);
                return;
            }
            api = connect(id);
            if (api == null) {
                send(id, buf, 0);
                return;
            }
        }
        if (len == 0) {
            try {
                api.shutdownOutput(); // the client has sent all; the API answers and closes
            } catch (IOException e) {
                drop(id);
            }
            return;
        }
        try {
            ByteBuffer b = ByteBuffer.wrap(buf, 0, len);
            while (b.hasRemaining()) {
                api.write(b);
            }
        } catch (IOException e) {
            drop(id);
            send(id, buf, 0);
        }
    }

    private SocketChannel connect(int id) {
        SocketChannel api = null;
        try {
            api = SocketChannel.open();
            api.socket()
                    .connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), apiPort.getAsInt()), CONNECT_MS);
            InetSocketAddress bound = (InetSocketAddress) api.getLocalAddress();
            // Known before its first byte reaches the API: the API counts it as this sandbox's.
            peers.add(new InetSocketAddress(bound.getAddress(), bound.getPort()), sandboxId);
            conns.put(id, api);
            SocketChannel up = api;
            pumps.execute(() -> pump(id, up));
            return api;
        } catch (IOException | RuntimeException e) {
            LOG.debug("The broker channel of {} cannot reach the API: {}", sandboxId, e.toString());
            closeQuietly(api);
            return null;
        }
    }

    /** Carries what the API answers on one connection to the relay, then ends the connection there. */
    private void pump(int id, SocketChannel api) {
        ByteBuffer b = ByteBuffer.allocate(MAX_FRAME);
        try {
            while (api.read(b) >= 0) {
                b.flip();
                send(id, b.array(), b.remaining());
                b.clear();
            }
        } catch (IOException e) {
            LOG.debug("A connection of {}'s broker channel ended: {}", sandboxId, e.toString());
        } finally {
            drop(id);
            try {
                send(id, b.array(), 0);
            } catch (IOException e) {
                close();
            }
        }
    }

    private void send(int id, byte[] data, int len) throws IOException {
        synchronized (out) {
            byte[] h = ByteBuffer.allocate(8).putInt(id).putInt(len).array();
            out.write(h);
            if (len > 0) {
                out.write(data, 0, len);
            }
            out.flush();
        }
    }

    private void drop(int id) {
        SocketChannel api = conns.remove(id);
        if (api != null) {
            try {
                InetSocketAddress bound = (InetSocketAddress) api.getLocalAddress();
                if (bound != null) {
                    peers.remove(new InetSocketAddress(bound.getAddress(), bound.getPort()));
                }
            } catch (IOException e) {
                // closed already: its address was removed with it
            }
            closeQuietly(api);
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

    /** Ends every connection and the stream (the relay inside then exits). */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (Integer id : Map.copyOf(conns).keySet()) {
            drop(id);
        }
        pumps.shutdownNow();
        closeQuietly(out);
        try {
            onClose.run();
        } catch (RuntimeException e) {
            LOG.debug("Closing the stream of {}'s broker channel: {}", sandboxId, e.toString());
        }
    }
}
