package dev.paddock.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.common.Json;
import dev.paddock.common.PaddockException;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Talks to the API of a running Paddock (a panel or {@code paddock serve}): the one of the same home, for
 * CLI commands ({@link #discover}), or the one named by {@code PADDOCK_API} with a sandbox's token, for
 * agents ({@link #of}).
 */
public final class ApiClient {
    /** Time a request may take. */
    static final Duration TIMEOUT = Duration.ofSeconds(10);
    /**
     * Time a request that changes sandboxes may take: creating one runs git, stopping one waits until its
     * process tree is gone (a grace period, then SIGKILL), removing one also deletes its worktree.
     */
    public static final Duration SLOW_TIMEOUT = Duration.ofSeconds(60);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
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
        return Optional.of(new ApiClient(URI.create("http://127.0.0.1:" + i.port()), ApiToken.read(tokenFile).value(),
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
            throw new PaddockException("\"" + baseUrl + "\" is not the URL of Paddock's API (" + e.getMessage() + ").", e);
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
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(pathAndQuery)).timeout(timeout)
                .header("Authorization", "Bearer " + token)
                .method(method, jsonBody == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(jsonBody, StandardCharsets.UTF_8));
        if (jsonBody != null) {
            b.header("Content-Type", "application/json; charset=utf-8");
        }
        try {
            HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            if (r.statusCode() / 100 != 2) {
                throw new ApiAnswerException(r.statusCode(), errorOf(r.body(), r.statusCode()), codeOf(r.body()));
            }
            return r.body();
        } catch (IOException e) {
            throw new ApiUnreachableException(description + " does not answer: " + describe(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PaddockException("Interrupted while asking the running Paddock", e);
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
