package dev.paddock.isolation.container;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code paddock-relay} (src/main/c/paddock-relay.c) run here, the test playing Paddock on its standard input and
 * output: it says it is ready, frames a client's bytes and end, delivers Paddock's answer and closes, holds at most
 * 16 connections, and ends (removing its socket) when its input ends or a frame is too long.
 */
class RelayProgramTest {
    @TempDir
    Path tmp;

    private Process relay;
    private DataOutputStream toRelay;
    private DataInputStream fromRelay;
    private Path socket;

    @BeforeEach
    void start() throws Exception {
        byte[] program = RemoteBroker.relayProgram()
                .orElseThrow(() -> new AssertionError(
                        "this build has no paddock-relay: the native-hook profile needs /usr/bin/cc"));
        Path exe = tmp.resolve("paddock-relay");
        Files.write(exe, program);
        Files.setPosixFilePermissions(exe, PosixFilePermissions.fromString("rwx------"));
        socket = tmp.resolve("api.sock");
        relay = new ProcessBuilder(exe.toString(), socket.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        toRelay = new DataOutputStream(relay.getOutputStream());
        fromRelay = new DataInputStream(relay.getInputStream());
        assertThat(fromRelay.readInt()).isZero();
        byte[] ready = new byte[fromRelay.readInt()];
        fromRelay.readFully(ready);
        assertThat(new String(ready, StandardCharsets.US_ASCII)).isEqualTo("ready");
    }

    @AfterEach
    void stop() {
        relay.destroyForcibly();
    }

    private SocketChannel connect() throws IOException {
        SocketChannel c = SocketChannel.open(StandardProtocolFamily.UNIX);
        c.connect(UnixDomainSocketAddress.of(socket));
        return c;
    }

    private record Frame(int id, String data) {}

    /** The next frame that is not a keep-alive (an empty frame for connection 0). */
    private Frame frame() throws IOException {
        for (; ; ) {
            int id = fromRelay.readInt();
            byte[] b = new byte[fromRelay.readInt()];
            fromRelay.readFully(b);
            if (id != 0 || b.length != 0) {
                return new Frame(id, new String(b, StandardCharsets.UTF_8));
            }
        }
    }

    private void send(int id, String data) throws IOException {
        byte[] b = data.getBytes(StandardCharsets.UTF_8);
        toRelay.writeInt(id);
        toRelay.writeInt(b.length);
        toRelay.write(b);
        toRelay.flush();
    }

    private static String readAll(SocketChannel c) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(4096);
        while (c.read(b) >= 0) {
            // until the relay closes it
        }
        return new String(b.array(), 0, b.position(), StandardCharsets.UTF_8);
    }

    @Test
    void aConnectionIsFramedBothWays() throws Exception {
        try (SocketChannel c = connect()) {
            c.write(ByteBuffer.wrap("GET / HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.UTF_8)));
            c.shutdownOutput();
            Frame data = frame();
            assertThat(data.data()).isEqualTo("GET / HTTP/1.0\r\n\r\n");
            assertThat(frame()).isEqualTo(new Frame(data.id(), ""));
            send(data.id(), "HTTP/1.1 200 OK\r\n\r\nhi");
            send(data.id(), "");
            assertThat(readAll(c)).isEqualTo("HTTP/1.1 200 OK\r\n\r\nhi");
        }
        assertThat(Files.getPosixFilePermissions(socket)).isEqualTo(PosixFilePermissions.fromString("rw-rw-rw-"));
    }

    @Test
    void atMostSixteenConnectionsAreHeld() throws Exception {
        List<SocketChannel> held = new ArrayList<>();
        try {
            for (int i = 0; i < 16; i++) {
                SocketChannel c = connect();
                c.write(ByteBuffer.wrap(("c" + i).getBytes(StandardCharsets.UTF_8)));
                held.add(c);
                assertThat(frame().data()).isEqualTo("c" + i); // taken: it has a slot
            }
            try (SocketChannel extra = connect()) {
                assertThat(readAll(extra)).as("closed at once").isEmpty();
            }
            send(1, ""); // one ends: a slot is free again
            assertThat(readAll(held.get(0))).isEmpty();
            try (SocketChannel again = connect()) {
                again.write(ByteBuffer.wrap("again".getBytes(StandardCharsets.UTF_8)));
                assertThat(frame().data()).isEqualTo("again");
            }
        } finally {
            for (SocketChannel c : held) {
                c.close();
            }
        }
    }

    @Test
    void aQuietRelaySendsKeepAlivesSoTheEnginesConnectionDoesNotTimeOut() throws Exception {
        long t0 = System.nanoTime();
        for (int i = 0; i < 2; i++) {
            assertThat(fromRelay.readInt()).isZero();
            assertThat(fromRelay.readInt()).isZero();
        }
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(3));
    }

    @Test
    void keepAlivesFlowWhilePaddockSendsAndTheClientIsQuiet() throws Exception {
        // A hook waiting for a person: Paddock sends a space twice a second, the client sends nothing. The relay
        // must still speak to Paddock at least every second, or the engine's connection times out (about 2 s).
        try (SocketChannel c = connect()) {
            c.write(ByteBuffer.wrap("POST /v1/hooks/claude HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.UTF_8)));
            int id = frame().id();
            Thread spaces = new Thread(() -> {
                try {
                    for (int i = 0; i < 10; i++) {
                        send(id, " ");
                        Thread.sleep(400);
                    }
                } catch (IOException | InterruptedException e) {
                    // the test ends
                }
            });
            spaces.start();
            try {
                long last = System.nanoTime();
                for (int k = 0; k < 3; k++) {
                    assertThat(fromRelay.readInt()).isZero();
                    assertThat(fromRelay.readInt()).isZero();
                    long now = System.nanoTime();
                    assertThat(Duration.ofNanos(now - last))
                            .as("keep-alive %d while spaces flow", k)
                            .isLessThan(Duration.ofMillis(1600));
                    last = now;
                }
            } finally {
                spaces.interrupt();
                spaces.join();
            }
        }
    }

    @Test
    void theRelayEndsAndRemovesItsSocketWhenItsInputEnds() throws Exception {
        toRelay.close();
        assertThat(relay.waitFor(5, TimeUnit.SECONDS)).isTrue();
        assertThat(socket).doesNotExist();
    }

    @Test
    void aFrameTooLongEndsTheRelay() throws Exception {
        toRelay.writeInt(1);
        toRelay.writeInt(64 * 1024 + 1);
        toRelay.flush();
        assertThat(relay.waitFor(5, TimeUnit.SECONDS)).isTrue();
        assertThat(socket).doesNotExist();
    }
}
