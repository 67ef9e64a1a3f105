package dev.paddock.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Slow clients of an HTTP port, none with a token, kept at a fixed number: each sends its request one byte every
 * {@code intervalMs} and never finishes it. Kinds: a request line and headers that never end; complete headers
 * announcing a body that never ends (with a {@code Paddock-Auth} header, so the body is what the server waits
 * for); and connections that send nothing at all. A connection the server closes is counted and opened again, so
 * the pressure never lets up.
 */
public final class SlowClients implements AutoCloseable {
    private static final String HEADER = "POST /v1/hooks/claude HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ";
    private static final String BODY_HEAD =
            "POST /v1/hooks/claude HTTP/1.1\r\nHost: 127.0.0.1\r\nPaddock-Auth: v1 install 0 " + "0".repeat(32) + " "
                    + "0".repeat(64) + "\r\nContent-Length: 100000\r\n\r\n{";

    private enum Kind {
        HEADER,
        BODY,
        SILENT
    }

    private final int port;
    private final long intervalMs;
    private final List<Conn> conns = new ArrayList<>();
    private final AtomicInteger closedByServer = new AtomicInteger();
    private final Thread driver;
    private volatile boolean running = true;

    private final class Conn {
        final Kind kind;
        Socket socket;
        int sent;

        Conn(Kind kind) {
            this.kind = kind;
        }

        void open() {
            try {
                socket = new Socket(InetAddress.getByName("127.0.0.1"), port);
                sent = 0;
                if (kind == Kind.BODY) {
                    OutputStream out = socket.getOutputStream();
                    out.write(BODY_HEAD.getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                }
            } catch (IOException e) {
                socket = null; // refused (connection limit): tried again next round
            }
        }

        void tick() {
            if (socket == null) {
                open();
                return;
            }
            if (kind == Kind.SILENT) {
                try {
                    // A silent connection closed by the server reads as end of stream.
                    socket.setSoTimeout(1);
                    if (socket.getInputStream().read() < 0) {
                        reopen();
                    }
                } catch (java.net.SocketTimeoutException stillOpen) {
                    // still open
                } catch (IOException e) {
                    reopen();
                }
                return;
            }
            try {
                OutputStream out = socket.getOutputStream();
                byte b = kind == Kind.HEADER ? (byte) HEADER.charAt(Math.min(sent, HEADER.length() - 1)) : (byte) 'x';
                out.write(b);
                out.flush();
                sent++;
            } catch (IOException e) {
                reopen();
            }
        }

        void reopen() {
            closedByServer.incrementAndGet();
            close();
            open();
        }

        void close() {
            try {
                if (socket != null) {
                    socket.close();
                }
            } catch (IOException ignored) {
                // closing
            }
        }
    }

    private SlowClients(int port, int headers, int bodies, int silent, long intervalMs) {
        this.port = port;
        this.intervalMs = intervalMs;
        for (int i = 0; i < headers; i++) {
            conns.add(new Conn(Kind.HEADER));
        }
        for (int i = 0; i < bodies; i++) {
            conns.add(new Conn(Kind.BODY));
        }
        for (int i = 0; i < silent; i++) {
            conns.add(new Conn(Kind.SILENT));
        }
        for (Conn c : conns) {
            c.open();
        }
        driver = new Thread(this::drive, "slow-clients");
        driver.setDaemon(true);
        driver.start();
    }

    /**
     * Opens {@code headers + bodies + silent} slow connections to {@code port} and keeps them so.
     *
     * @param intervalMs time between two bytes of one connection
     */
    public static SlowClients start(int port, int headers, int bodies, int silent, long intervalMs) {
        return new SlowClients(port, headers, bodies, silent, intervalMs);
    }

    /** How many connections the server has closed so far (each was opened again). */
    public int closedByServer() {
        return closedByServer.get();
    }

    /** How many connections are open now. */
    public int open() {
        return (int) conns.stream()
                .filter(c -> c.socket != null && !c.socket.isClosed())
                .count();
    }

    private void drive() {
        // Spread the connections' bytes over the interval: one round of ticks every intervalMs.
        while (running) {
            long start = System.nanoTime();
            for (Conn c : conns) {
                if (!running) {
                    return;
                }
                c.tick();
            }
            long left = intervalMs - (System.nanoTime() - start) / 1_000_000;
            if (left > 0) {
                try {
                    Thread.sleep(left);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    @Override
    public void close() {
        running = false;
        driver.interrupt();
        try {
            driver.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Conn c : conns) {
            c.close();
        }
    }
}
