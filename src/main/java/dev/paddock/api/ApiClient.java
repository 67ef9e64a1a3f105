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
 * Talks to the API of the Paddock running with the same home (a panel or {@code paddock serve}),
 * for CLI commands.
 */
public final class ApiClient {
    /** Time a request may take, in seconds. */
    static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final URI base;
    private final ApiToken token;
    private final InstanceFile instance;

    private ApiClient(InstanceFile instance, ApiToken token) {
        this.instance = instance;
        this.base = URI.create("http://127.0.0.1:" + instance.port());
        this.token = token;
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
        return Optional.of(new ApiClient(live.get(), ApiToken.read(tokenFile)));
    }

    /**
     * {@code GET /v1/status}, the body as JSON text.
     *
     * @param repo repository path, or null for the running Paddock's current one
     * @throws PaddockException when the API cannot be reached or answers an error (its message)
     */
    public String status(Path repo) throws PaddockException {
        String q = repo == null ? "" : "?repo=" + URLEncoder.encode(repo.toString(), StandardCharsets.UTF_8);
        return get("/v1/status" + q);
    }

    /** Sends a GET and returns the body of a 2xx answer. */
    public String get(String pathAndQuery) throws PaddockException {
        HttpRequest req = HttpRequest.newBuilder(base.resolve(pathAndQuery)).timeout(TIMEOUT)
                .header("Authorization", "Bearer " + token.value()).GET().build();
        try {
            HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            if (r.statusCode() / 100 != 2) {
                throw new PaddockException(errorOf(r.body(), r.statusCode()));
            }
            return r.body();
        } catch (IOException e) {
            throw new PaddockException("The running Paddock (" + instance.mode() + ", pid " + instance.pid()
                    + ") does not answer on port " + instance.port() + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PaddockException("Interrupted while asking the running Paddock", e);
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
