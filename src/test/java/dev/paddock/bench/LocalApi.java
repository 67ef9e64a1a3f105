package dev.paddock.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.common.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The loopback API of a Paddock a benchmark started as its own process (the panel or {@code serve}), found through
 * its home ({@code instance.json}, {@code api-token}) and called with the install token.
 */
final class LocalApi {
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final URI base;
    private final String installToken;
    private final Duration timeout;

    private LocalApi(URI base, String installToken, Duration timeout) {
        this.base = base;
        this.installToken = installToken;
        this.timeout = timeout;
    }

    /**
     * Waits until the Paddock of {@code home}, running as {@code process}, answers {@code /v1/health}.
     *
     * @param timeout how long each later call may take
     * @throws AssertionError when the process ends first or {@code wait} passes (its log names why)
     */
    static LocalApi await(Path home, Process process, Duration wait, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + wait.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new AssertionError("Paddock ended with " + process.exitValue() + " before its API answered");
            }
            if (Files.exists(home.resolve("instance.json")) && Files.exists(home.resolve("api-token"))) {
                JsonNode instance =
                        Json.mapper().readTree(home.resolve("instance.json").toFile());
                LocalApi api = new LocalApi(
                        URI.create("http://127.0.0.1:" + instance.get("port").asInt()),
                        Files.readString(home.resolve("api-token")).strip(),
                        timeout);
                try {
                    if (api.send("GET", "/v1/health", null).statusCode() == 200) {
                        return api;
                    }
                } catch (IOException notYet) {
                    // the API is not listening yet
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("Paddock's API did not answer within " + wait);
    }

    URI base() {
        return base;
    }

    /** A call with the install token; {@code body} null for none. */
    HttpResponse<String> send(String method, String path, String body) throws Exception {
        return send(method, path, body, installToken);
    }

    /** A call with {@code token} (a sandbox's, say). */
    HttpResponse<String> send(String method, String path, String body, String token) throws Exception {
        return http.send(
                HttpRequest.newBuilder(base.resolve(path))
                        .timeout(timeout)
                        .header("Authorization", "Bearer " + token)
                        .method(
                                method,
                                body == null
                                        ? HttpRequest.BodyPublishers.noBody()
                                        : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
                        .build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }
}
