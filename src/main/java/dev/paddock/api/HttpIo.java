package dev.paddock.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.sun.net.httpserver.HttpExchange;
import dev.paddock.common.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Reading requests and writing answers of the JDK HTTP server: query parameters, JSON bodies, JSON and text. */
final class HttpIo {
    /**
     * Largest request body read, in bytes; larger ones are refused with 400. The store's columns for a request's
     * text (migration 8.1) take this many characters, so whatever is read here can be stored whole.
     */
    static final int MAX_BODY_BYTES = 1 << 20;

    private HttpIo() {}

    /** A query parameter, decoded; null when absent, "" when given without a value. */
    static String query(HttpExchange ex, String name) {
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

    /**
     * The request body as JSON of {@code type}; null when the body is empty.
     *
     * @throws ApiError 400 when it is too large, not JSON, or not of that shape
     */
    static <T> T body(HttpExchange ex, Class<T> type) throws ApiError, IOException {
        byte[] bytes;
        try (InputStream in = ex.getRequestBody()) {
            bytes = in.readNBytes(MAX_BODY_BYTES + 1);
        }
        if (bytes.length > MAX_BODY_BYTES) {
            throw ApiError.badRequest("the request body is larger than " + MAX_BODY_BYTES + " bytes");
        }
        if (new String(bytes, StandardCharsets.UTF_8).isBlank()) {
            return null;
        }
        try {
            return Json.mapper().readValue(bytes, type);
        } catch (JsonProcessingException e) {
            throw ApiError.badRequest("the request body is not the expected JSON: " + e.getOriginalMessage());
        }
    }

    /** {@code {"error": message}}. */
    /**
     * {@code repo} (a request's repository) as an absolute path.
     *
     * @throws ApiError 400 when it is not a path or not absolute
     */
    static java.nio.file.Path repoPath(String repo) throws ApiError {
        try {
            java.nio.file.Path p = java.nio.file.Path.of(repo);
            if (!p.isAbsolute()) {
                throw ApiError.badRequest("repo must be an absolute path: " + repo);
            }
            return p;
        } catch (java.nio.file.InvalidPathException e) {
            throw ApiError.badRequest("not a valid path: " + repo);
        }
    }

    static Map<String, String> error(String message) {
        return Map.of("error", message == null ? "unknown error" : message);
    }

    /** {@code {"error": message, "code": code}} ({@code code} left out when null). */
    static Map<String, String> error(String message, String code) {
        return code == null
                ? error(message)
                : Map.of("error", message == null ? "unknown error" : message, "code", code);
    }

    /** Answers {@code body} as JSON ({@code application/json; charset=utf-8}). */
    static void json(HttpExchange ex, int status, Object body) throws IOException {
        byte[] bytes;
        try {
            bytes = Json.mapper().writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            bytes = "{\"error\":\"cannot serialise the answer\"}".getBytes(StandardCharsets.UTF_8);
            status = 500;
        }
        send(ex, status, "application/json; charset=utf-8", bytes);
    }

    /** Answers plain text ({@code text/plain; charset=utf-8}). */
    static void text(HttpExchange ex, int status, String text) throws IOException {
        send(ex, status, "text/plain; charset=utf-8", text.getBytes(StandardCharsets.UTF_8));
    }

    private static void send(HttpExchange ex, int status, String contentType, byte[] bytes) throws IOException {
        ex.getResponseHeaders().set("Content-Type", contentType);
        ex.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }
}
