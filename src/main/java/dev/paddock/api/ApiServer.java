package dev.paddock.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.paddock.common.Json;
import dev.paddock.common.PaddockException;
import dev.paddock.status.RepositoryStatus;
import dev.paddock.status.UnknownRepositoryException;
import dev.paddock.worktree.GitException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Paddock's HTTP API, bound to the loopback interface only (127.0.0.1) on a free port, and
 * requiring the install's bearer token on every request. The port is published in
 * {@code instance.json} so CLI commands find it.
 *
 * <p>Routes: {@code GET /v1/health}; {@code GET /v1/status[?repo=PATH]} → {@link RepositoryStatus}.
 * Errors are JSON objects {@code {"error": "..."}} with a 4xx or 5xx status.
 */
public final class ApiServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ApiServer.class);

    /** What the API asks of the running Paddock. */
    public interface Backend {
        /**
         * The status of the repository containing {@code repo}, or of the most recently opened one
         * when {@code repo} is null.
         *
         * @throws PaddockException a {@code GitException} or {@code UnknownRepositoryException} when there is
         *     no such repository (answered 404); anything else, such as a store failure, is answered 500
         */
        RepositoryStatus status(Path repo) throws PaddockException;
    }

    private final HttpServer server;
    private final ExecutorService executor;
    private final ApiToken token;
    private final Backend backend;
    private final String mode;

    private ApiServer(HttpServer server, ExecutorService executor, ApiToken token, Backend backend, String mode) {
        this.server = server;
        this.executor = executor;
        this.token = token;
        this.backend = backend;
        this.mode = mode;
    }

    /**
     * Starts the API on 127.0.0.1 and a free port.
     *
     * @param mode {@code panel} or {@code serve}, reported by {@code /v1/health}
     * @throws IOException when no loopback port can be bound
     */
    public static ApiServer start(ApiToken token, Backend backend, String mode) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        AtomicInteger n = new AtomicInteger();
        ExecutorService executor = Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "api-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        ApiServer api = new ApiServer(server, executor, token, backend, mode);
        // Every path, not just /v1/: the token check and JSON errors then cover the whole port (the
        // JDK's own 404 for a path without a context is HTML and asks for no token).
        server.createContext("/", api::handle);
        server.start();
        LOG.info("API listening on {}", server.getAddress());
        return api;
    }

    /** The bound address (always a loopback address). */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    private void handle(HttpExchange ex) throws IOException {
        // The 500 answer is sent inside the try-with-resources: its catch clause would run after the
        // exchange is closed, and the client would get a dropped connection instead of JSON.
        try (ex) {
            try {
                route(ex);
            } catch (RuntimeException e) {
                LOG.warn("API request {} failed", ex.getRequestURI(), e);
                send(ex, 500, error("internal error: " + e));
            }
        }
    }

    private void route(HttpExchange ex) throws IOException {
        String auth = ex.getRequestHeaders().getFirst("Authorization");
        String presented = auth != null && auth.startsWith("Bearer ") ? auth.substring(7).strip() : null;
        if (!token.matches(presented)) {
            send(ex, 401, error(presented == null ? "missing bearer token" : "invalid token"));
            return;
        }
        String path = ex.getRequestURI().getPath();
        String method = ex.getRequestMethod();
        if (path.equals("/v1/health") && method.equals("GET")) {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("ok", true);
            body.put("mode", mode);
            body.put("pid", ProcessHandle.current().pid());
            body.put("time", Instant.now().toString());
            send(ex, 200, body);
        } else if (path.equals("/v1/status") && method.equals("GET")) {
            status(ex);
        } else {
            send(ex, 404, error("no route " + method + " " + path));
        }
    }

    private void status(HttpExchange ex) throws IOException {
        String repo = query(ex, "repo");
        try {
            Path path = repo == null ? null : Path.of(repo);
            if (path != null && !path.isAbsolute()) {
                send(ex, 400, error("repo must be an absolute path: " + repo));
                return;
            }
            RepositoryStatus s = backend.status(path);
            send(ex, 200, s);
        } catch (InvalidPathException e) {
            send(ex, 400, error("not a valid path: " + repo));
        } catch (GitException | UnknownRepositoryException e) {
            send(ex, 404, error(e.getMessage()));
        } catch (PaddockException e) {
            send(ex, 500, error(e.getMessage()));
        }
    }

    private static String query(HttpExchange ex, String name) {
        String q = ex.getRequestURI().getRawQuery();
        if (q == null) {
            return null;
        }
        for (String pair : q.split("&")) {
            int eq = pair.indexOf('=');
            String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            if (k.equals(name)) {
                return eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    private static Map<String, String> error(String message) {
        return Map.of("error", message);
    }

    private static void send(HttpExchange ex, int status, Object body) throws IOException {
        byte[] bytes;
        try {
            bytes = Json.mapper().writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            bytes = ("{\"error\":\"cannot serialise the answer\"}").getBytes(StandardCharsets.UTF_8);
            status = 500;
        }
        ex.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
        try {
            executor.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
