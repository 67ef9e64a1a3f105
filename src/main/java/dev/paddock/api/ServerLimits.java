package dev.paddock.api;

import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The limits that keep the JDK's HTTP server answering while clients send slowly or never finish
 * (docs/decisions/0003-loopback-api-hardening.md). The JDK server reads a request's headers on a thread of its
 * executor, blocking; so that a few slow clients cannot take every thread, the executor makes a thread per
 * request being read (up to {@link #MAX_READERS}), and the server closes a connection whose request is not
 * complete {@link #REQUEST_TIME_S} seconds after its first byte, which frees that thread.
 *
 * <p>The JDK server reads these system properties once, when its configuration class loads, for every server
 * of the JVM: {@link #apply} sets those not set already, before the first server is made.
 */
final class ServerLimits {
    /** Seconds a request (headers and body) may take to arrive, from its first byte. */
    static final int REQUEST_TIME_S = 5;
    /** Open connections at most; more are closed at once (the hook then denies). */
    static final int MAX_CONNECTIONS = 1000;
    /** Reader threads at most: one per connection whose request is being read. */
    static final int MAX_READERS = MAX_CONNECTIONS;

    /**
     * The properties of {@code sun.net.httpserver.ServerConfig} (JDK 17), with their units:
     * <ul>
     *   <li>{@code maxReqTime} (s, off by default): a connection still receiving its request this long after its
     *       first byte is closed, checked every {@code timerMillis} (ms, 1000). A connection that has sent
     *       nothing yet is closed after the lesser of this and {@code idleInterval}.</li>
     *   <li>{@code maxRspTime} is left off: it would cut the long answers that wait for a person.</li>
     *   <li>{@code idleInterval} (s, 30): a kept-alive connection idle this long is closed, checked every
     *       {@code clockTick} (ms, 10000, lowered so a silent connection goes within a second of its time).</li>
     *   <li>{@code jdk.httpserver.maxConnections} (unlimited by default).</li>
     *   <li>{@code maxReqHeaderSize} (bytes, 380 KiB): headers larger than this are refused; no client of this API
     *       sends more than a few hundred bytes.</li>
     *   <li>{@code nodelay}: the JDK server writes the headers and the body of an answer separately; with Nagle's
     *       algorithm on, the body then waits for the client's delayed ACK (40 ms on Linux) on a kept-alive
     *       connection.</li>
     * </ul>
     */
    static final Map<String, String> PROPERTIES = Map.of(
            "sun.net.httpserver.maxReqTime", Integer.toString(REQUEST_TIME_S),
            "sun.net.httpserver.timerMillis", "500",
            "sun.net.httpserver.idleInterval", "30",
            "sun.net.httpserver.clockTick", "1000",
            "jdk.httpserver.maxConnections", Integer.toString(MAX_CONNECTIONS),
            "sun.net.httpserver.maxReqHeaderSize", "16384",
            "sun.net.httpserver.nodelay", "true");

    private ServerLimits() {}

    /** Sets the properties not set already (read once, when the first JDK server of this JVM is made). */
    static void apply() {
        PROPERTIES.forEach((k, v) -> {
            if (System.getProperty(k) == null) {
                System.setProperty(k, v);
            }
        });
    }

    /**
     * The server's executor: a new thread for each request being read when none is free, up to
     * {@link #MAX_READERS}; beyond that the server closes the connection. Idle threads end after 30 s.
     */
    static ExecutorService readers(ThreadFactory threads) {
        ThreadPoolExecutor pool =
                new ThreadPoolExecutor(2, MAX_READERS, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), threads);
        return pool;
    }
}
