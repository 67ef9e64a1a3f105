package dev.paddock.api;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What every request goes through on a reader thread, before any worker sees it: the {@code Host} and
 * browser checks, and reading the whole body into memory. A slow or endless body therefore holds a reader
 * thread only, until the server's request time limit closes it (see docs/decisions/0003-loopback-api-hardening.md).
 *
 * <p>{@code Host} must name this server: {@code 127.0.0.1}, {@code localhost} or {@code [::1]}, with this port
 * or none. A web page that reaches the port through DNS rebinding sends its own host name and is refused with
 * 421. A request with an {@code Origin} or {@code Sec-Fetch-Site} header comes from a browser (no client of this
 * API sends them) and is refused with 403, even with a token.
 */
final class RequestIntake {
    /** Bodies larger than this count against {@link #BUDGET_BYTES} while they are read. */
    static final int SMALL_BODY_BYTES = 64 * 1024;
    /** Bytes of large bodies that may be in reading at once, all connections together. */
    static final long BUDGET_BYTES = 64L * 1024 * 1024;

    private final int port;
    private final AtomicLong reading = new AtomicLong();

    RequestIntake(int port) {
        this.port = port;
    }

    /**
     * Refuses requests for another host or from a browser.
     *
     * @throws ApiError 400 without {@code Host}, 421 for another host or port, 403 from a browser
     */
    void checkHost(HttpExchange ex) throws ApiError {
        Headers h = ex.getRequestHeaders();
        String host = h.getFirst("Host");
        if (host == null || host.isBlank()) {
            throw new ApiError(400, "the request has no Host header; send Host: 127.0.0.1:" + port, "bad_host");
        }
        if (!isOurs(host.strip().toLowerCase(Locale.ROOT))) {
            throw new ApiError(
                    421,
                    "this API answers only requests for 127.0.0.1:" + port + " or localhost:" + port + ", not for \""
                            + oneLine(host) + "\" (a web page that reaches it through DNS rebinding is refused)",
                    "bad_host");
        }
        if (h.containsKey("Origin") || h.containsKey("Sec-Fetch-Site")) {
            throw new ApiError(
                    403,
                    "requests from web pages are refused (the request has an Origin or Sec-Fetch-Site" + " header)",
                    "browser_request");
        }
    }

    /**
     * The check of a request relayed from a sandbox's API socket: no web page reaches that socket, but a request
     * that says it comes from one is refused all the same; any {@code Host} is taken (curl's
     * {@code --unix-socket} sends the URL's).
     *
     * @throws ApiError 403 for a request with an {@code Origin} or {@code Sec-Fetch-Site} header
     */
    static void checkRelayed(HttpExchange ex) throws ApiError {
        Headers h = ex.getRequestHeaders();
        if (h.containsKey("Origin") || h.containsKey("Sec-Fetch-Site")) {
            throw new ApiError(
                    403,
                    "requests from web pages are refused (the request has an Origin or Sec-Fetch-Site" + " header)",
                    "browser_request");
        }
    }

    private boolean isOurs(String host) {
        String name = host;
        String p = null;
        if (host.startsWith("[")) {
            int end = host.indexOf(']');
            if (end < 0) {
                return false;
            }
            name = host.substring(0, end + 1);
            p = end + 1 < host.length() ? host.substring(end + 1) : null;
            if (p != null && !p.startsWith(":")) {
                return false;
            }
            p = p == null ? null : p.substring(1);
        } else {
            int colon = host.indexOf(':');
            if (colon >= 0) {
                name = host.substring(0, colon);
                p = host.substring(colon + 1);
            }
        }
        boolean loopbackName = name.equals("127.0.0.1") || name.equals("localhost") || name.equals("[::1]");
        return loopbackName && (p == null || p.equals(Integer.toString(port)));
    }

    /**
     * Reads the whole request body: up to {@link HttpIo#MAX_BODY_BYTES}, declared by {@code Content-Length}.
     *
     * @return the body, empty when there is none
     * @throws ApiError 411 for a body without a length (chunked), 413 for one too large, 503 when too many large
     *     bodies are being read at once
     * @throws IOException when the connection fails or is closed for taking too long
     */
    byte[] body(HttpExchange ex) throws ApiError, IOException {
        Headers h = ex.getRequestHeaders();
        if (h.containsKey("Transfer-Encoding")) {
            throw new ApiError(411, "send the request body with a Content-Length, not chunked", "length_required");
        }
        String cl = h.getFirst("Content-Length");
        long length;
        try {
            length = cl == null ? 0 : Long.parseLong(cl.strip());
        } catch (NumberFormatException e) {
            throw ApiError.badRequest("Content-Length is not a number: " + oneLine(cl));
        }
        if (length > HttpIo.MAX_BODY_BYTES) {
            throw new ApiError(413, "the request body is larger than " + HttpIo.MAX_BODY_BYTES + " bytes", "too_large");
        }
        if (length <= 0) {
            return new byte[0];
        }
        boolean large = length > SMALL_BODY_BYTES;
        if (large && reading.addAndGet(length) > BUDGET_BYTES) {
            reading.addAndGet(-length);
            throw new ApiError(503, "too many large requests are being received at once; try again", "busy");
        }
        try (InputStream in = ex.getRequestBody()) {
            byte[] body = in.readNBytes((int) length);
            if (body.length < length) {
                throw new IOException("the request body ended after " + body.length + " of " + length + " bytes");
            }
            return body;
        } finally {
            if (large) {
                reading.addAndGet(-length);
            }
        }
    }

    private static String oneLine(String s) {
        String t = s.replaceAll("[\\p{Cntrl}]", "?");
        return t.length() > 100 ? t.substring(0, 100) + "…" : t;
    }
}
