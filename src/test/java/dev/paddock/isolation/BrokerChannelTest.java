package dev.paddock.isolation;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The outer end of the broker channel against a loopback HTTP server, with the test playing the relay: each
 * connection reaches the server counted as the channel's sandbox, the connection cap holds, a frame too long ends
 * the channel.
 */
class BrokerChannelTest {
    @TempDir
    Path tmp;

    private HttpServer server;
    private ApiRelays relays;
    private DataOutputStream toChannel;
    private DataInputStream fromChannel;
    private BrokerChannel channel;
    private final AtomicBoolean streamClosed = new AtomicBoolean();

    @BeforeEach
    void setUp() throws IOException {
        relays = new ApiRelays(tmp);
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", ex -> {
            String who = relays.sandboxOfPeer(ex.getRemoteAddress()).orElse("(nobody)");
            byte[] body = ("sandbox=" + who).getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Connection", "close");
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool()); // unfinished requests wait apart
        server.start();
        relays.apiPort(server.getAddress().getPort());
        PipedInputStream channelIn = new PipedInputStream(1 << 20);
        toChannel = new DataOutputStream(new PipedOutputStream(channelIn));
        PipedInputStream testIn = new PipedInputStream(1 << 20);
        fromChannel = new DataInputStream(testIn);
        channel = relays.channel("sb-1", channelIn, new PipedOutputStream(testIn), () -> streamClosed.set(true));
    }

    @AfterEach
    void tearDown() {
        channel.close();
        server.stop(0);
    }

    private void frame(int id, String data) throws IOException {
        byte[] b = data.getBytes(StandardCharsets.UTF_8);
        toChannel.writeInt(id);
        toChannel.writeInt(b.length);
        toChannel.write(b);
        toChannel.flush();
    }

    /** Everything the channel sends for {@code id} until it closes that connection. */
    private String answer(int id) throws IOException {
        StringBuilder out = new StringBuilder();
        while (true) {
            int got = fromChannel.readInt();
            int len = fromChannel.readInt();
            byte[] b = new byte[len];
            fromChannel.readFully(b);
            if (got != id) {
                continue;
            }
            if (len == 0) {
                return out.toString();
            }
            out.append(new String(b, StandardCharsets.UTF_8));
        }
    }

    @Test
    void aConnectionReachesTheApiAsTheChannelsSandbox() throws Exception {
        frame(0, "ready");
        assertThat(channel.awaitReady(Duration.ofSeconds(5))).isTrue();
        frame(1, "GET / HTTP/1.0\r\nHost: x\r\n\r\n");
        frame(1, "");

        String answer = answer(1);

        assertThat(answer).startsWith("HTTP/1.1 200").endsWith("sandbox=sb-1");
        assertThat(relays.sandboxOfPeer(new InetSocketAddress(InetAddress.getLoopbackAddress(), 1)))
                .isEmpty();
    }

    @Test
    void moreConnectionsThanTheCapAreClosedAtOnceAndStaleOnesIgnored() throws Exception {
        for (int id = 1; id <= BrokerChannel.MAX_CONNECTIONS; id++) {
            frame(id, "GET / HTTP/1.0\r\n"); // unfinished: each holds its connection
        }
        frame(BrokerChannel.MAX_CONNECTIONS + 1, "GET / HTTP/1.0\r\n\r\n");
        assertThat(answer(BrokerChannel.MAX_CONNECTIONS + 1))
                .as("closed without an answer")
                .isEmpty();
        assertThat(channel.connections()).isEqualTo(BrokerChannel.MAX_CONNECTIONS);
        frame(3, "\r\n");
        frame(3, "");
        assertThat(answer(3)).contains("sandbox=sb-1");
        frame(3, "GET / HTTP/1.0\r\n\r\n"); // an id already closed is not a new connection
        Thread.sleep(200);
        assertThat(channel.connections()).isEqualTo(BrokerChannel.MAX_CONNECTIONS - 1);
    }

    @Test
    void aFrameTooLongEndsTheChannel() throws Exception {
        toChannel.writeInt(1);
        toChannel.writeInt(BrokerChannel.MAX_FRAME + 1);
        toChannel.flush();
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (channel.isOpen() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(channel.isOpen()).isFalse();
        assertThat(streamClosed).isTrue();
        assertThat(channel.awaitReady(Duration.ofMillis(10))).isFalse();
    }
}
