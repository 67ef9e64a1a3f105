package dev.paddock.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.common.Json;
import dev.paddock.common.PaddockException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Talks to the API of a running Paddock (a panel or {@code paddock serve}): the one of the same home, for
 * CLI commands ({@link #discover}), or the one named by {@code PADDOCK_API} with a sandbox's token, for
 * agents ({@link #of}).
 *
 * <p>Through {@link HttpURLConnection}, not {@code java.net.http}: that client sets up TLS even for a plain
 * {@code http} call, which was a fifth of a CLI command's time.
 */
public final class ApiClient {
    /** Time a request may take. */
    static final Duration TIMEOUT = Duration.ofSeconds(10);
    /**
     * Time a request that changes sandboxes may take: creating one runs git, stopping one waits until its
     * process tree is gone (a grace period, then SIGKILL), removing one also deletes its worktree.
     */
    public static final Duration SLOW_TIMEOUT = Duration.ofSeconds(60);
    /** Time to connect: the API is on loopback, so a connection that takes longer will not come. */
    private static final int CONNECT_TIMEOUT_MS = 2000;

    private final URI base;
    private final String token;
    private final String description;

    private ApiClient(URI base, String token, String description) {
        this.base = base;
        this.token = token;
        this.description = description;
    }

    /**
     * Finds the running Paddock of a home: empty when none runs (no instance file, or its process is
     * gone).
     *
     * @throws PaddockException when one runs but its token file cannot be read
     */
    public static Optional<ApiClient> discover(Path instanceFile, Path tokenFile) throws PaddockException {
        Optional<InstanceFile> live = InstanceFile.live(instanceFile);
        if (live.isEmpty()) {
            return Optional.empty();
        }
        InstanceFile i = live.get();
        return Optional.of(new ApiClient(
                URI.create("http://127.0.0.1:" + i.port()),
                ApiToken.read(tokenFile).value(),
                "The running Paddock (" + i.mode() + ", pid " + i.pid() + ") on port " + i.port()));
    }

    /**
     * A client for the API at {@code baseUrl} (e.g. {@code http://127.0.0.1:41234}) with a bearer token.
     *
     * @throws PaddockException when {@code baseUrl} is not an http URL
     */
    public static ApiClient of(String baseUrl, String token) throws PaddockException {
        try {
            URI uri = URI.create(baseUrl.strip());
            if (!"http".equals(uri.getScheme()) || uri.getHost() == null) {
                throw new IllegalArgumentException("not an http URL");
            }
            return new ApiClient(uri, token, "Paddock's API at " + baseUrl);
        } catch (IllegalArgumentException e) {
            throw new PaddockException(
                    "\"" + baseUrl + "\" is not the URL of Paddock's API (" + e.getMessage() + ").", e);
        }
    }

    /**
     * {@code GET /v1/status}, the body as JSON text.
     *
     * @param repo repository path, or null for the running Paddock's current one
     * @throws PaddockException when the API cannot be reached or answers an error (its message)
     */
    public String status(Path repo) throws PaddockException {
        return get("/v1/status" + (repo == null ? "" : "?repo=" + encode(repo.toString())));
    }

    /** Sends a GET and returns the body of a 2xx answer. See {@link #send}. */
    public String get(String pathAndQuery) throws PaddockException {
        return send("GET", pathAndQuery, null);
    }

    /** Sends a request that must answer within {@link #TIMEOUT}. See {@link #send(String, String, String, Duration)}. */
    public String send(String method, String pathAndQuery, String jsonBody) throws PaddockException {
        return send(method, pathAndQuery, jsonBody, TIMEOUT);
    }

    /**
     * Sends a request and returns the body of a 2xx answer.
     *
     * @param jsonBody the request body (JSON), or null for none
     * @param timeout how long the answer may take
     * @throws ApiUnreachableException when nothing answers (no connection, timeout)
     * @throws ApiAnswerException when the API answers an error status (its {@code error} message)
     */
    public String send(String method, String pathAndQuery, String jsonBody, Duration timeout) throws PaddockException {
        try {
            HttpURLConnection c =
                    (HttpURLConnection) base.resolve(pathAndQuery).toURL().openConnection(Proxy.NO_PROXY);
            c.setConnectTimeout(CONNECT_TIMEOUT_MS);
            c.setReadTimeout((int) Math.min(Integer.MAX_VALUE, timeout.toMillis()));
            c.setUseCaches(false);
            c.setInstanceFollowRedirects(false);
            c.setRequestMethod(method);
            c.setRequestProperty("Authorization", "Bearer " + token);
            if (jsonBody != null) {
                byte[] body = jsonBody.getBytes(StandardCharsets.UTF_8);
                c.setRequestProperty("Content-Type", "application/json; charset=utf-8");
                c.setDoOutput(true);
                // Streamed with its length: never retried by HttpURLConnection, so a POST is sent once.
                c.setFixedLengthStreamingMode(body.length);
                try (OutputStream out = c.getOutputStream()) {
                    out.write(body);
                }
            }
            int status = c.getResponseCode();
            try (InputStream in = status / 100 == 2 ? c.getInputStream() : c.getErrorStream()) {
                String answer = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
                if (status / 100 != 2) {
                    throw new ApiAnswerException(status, errorOf(answer, status), codeOf(answer));
                }
                return answer;
            } finally {
                c.disconnect();
            }
        } catch (IOException e) {
            throw new ApiUnreachableException(description + " does not answer: " + describe(e), e);
        }
    }

    /** URL-encodes a query parameter value. */
    static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private static String describe(IOException e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    private static String codeOf(String body) {
        try {
            JsonNode n = Json.mapper().readTree(body);
            return n != null && n.hasNonNull("code") ? n.get("code").asText() : null;
        } catch (IOException | RuntimeException notJson) {
            return null;
        }
    }

    private static String errorOf(String body, int status) {
        try {
            JsonNode n = Json.mapper().readTree(body);
            if (n.hasNonNull("error")) {
                return n.get("error").asText();
            }
        } catch (IOException | RuntimeException ignored) {
            // not JSON: fall through
        }
        return "The running Paddock answered HTTP " + status;
    }
}
