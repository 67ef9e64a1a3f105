package dev.paddock.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.Wiring;
import dev.paddock.common.Json;
import dev.paddock.settings.PaddockHome;
import dev.paddock.testing.TempRepo;
import java.io.IOException;
import java.net.ConnectException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The loopback API over real HTTP: a real store and workspace behind it (as {@code Host} wires it),
 * real git repositories, {@link HttpClient} as the client.
 */
class ApiServerTest {
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** One store and server for the class: starting them is most of the cost of a test. */
    @TempDir
    static Path shared;

    private static Wiring wiring;
    private static ApiToken token;
    private static ApiServer api;

    @TempDir
    Path tmp;

    private TempRepo repo;

    @BeforeAll
    static void start() throws Exception {
        PaddockHome home = PaddockHome.resolve(shared.resolve("home"), Map.of());
        wiring = Wiring.open(home);
        token = ApiToken.loadOrCreate(home.tokenFile());
        api = ApiServer.start(
                token, r -> wiring.workspace().statusOf(r), wiring.sandboxService(), wiring.settings(), "serve");
    }

    @AfterAll
    static void stop() {
        api.close();
        wiring.close();
    }

    @BeforeEach
    void makeRepository() {
        repo = TempRepo.init(tmp.resolve("repo"));
    }

    private static URI uri(String pathAndQuery) {
        return uri(api, pathAndQuery);
    }

    private static URI uri(ApiServer server, String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + server.address().getPort() + pathAndQuery);
    }

    private static HttpResponse<String> get(String pathAndQuery, String authorization) throws Exception {
        return get(api, pathAndQuery, authorization);
    }

    private static HttpResponse<String> get(ApiServer server, String pathAndQuery, String authorization)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(server, pathAndQuery))
                .timeout(Duration.ofSeconds(20))
                .GET();
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private static HttpResponse<String> authorized(String pathAndQuery) throws Exception {
        return get(pathAndQuery, "Bearer " + token.value());
    }

    private static JsonNode json(HttpResponse<String> r) throws IOException {
        assertThat(r.headers().firstValue("Content-Type")).contains("application/json; charset=utf-8");
        return Json.mapper().readTree(r.body());
    }

    private static String q(Path p) {
        return URLEncoder.encode(p.toString(), StandardCharsets.UTF_8);
    }

    @Test
    void theServerListensOnTheLoopbackInterfaceOnly() throws Exception {
        InetSocketAddress bound = api.address();
        assertThat(bound.getAddress().isLoopbackAddress())
                .as("bound to %s", bound)
                .isTrue();
        assertThat(bound.getPort()).isPositive();

        for (InetAddress other : nonLoopbackAddresses()) {
            try (Socket s = new Socket()) {
                assertThatThrownBy(() -> s.connect(new InetSocketAddress(other, bound.getPort()), 1000))
                        .as("connecting through %s", other)
                        .isInstanceOf(ConnectException.class);
            }
        }
    }

    @Test
    void aRequestWithoutATokenGets401AndAJsonError() throws Exception {
        HttpResponse<String> r = get("/v1/health", null);

        assertThat(r.statusCode()).isEqualTo(401);
        assertThat(json(r).get("error").asText()).isEqualTo("missing bearer token");
    }

    @Test
    void aRequestWithAWrongTokenGets401AndAJsonError() throws Exception {
        HttpResponse<String> r = get("/v1/status?repo=" + q(repo.dir()), "Bearer not-the-token");

        assertThat(r.statusCode()).isEqualTo(401);
        assertThat(json(r).get("error").asText()).isEqualTo("invalid token");
        assertThat(r.body()).doesNotContain(repo.dir().toString());
    }

    @Test
    void theTokenCountsOnlyAsABearerCredential() throws Exception {
        assertThat(get("/v1/health", "Basic " + token.value()).statusCode()).isEqualTo(401);
        assertThat(get("/v1/health", token.value()).statusCode()).isEqualTo(401);
        assertThat(get("/v1/health?token=" + token.value(), null).statusCode()).isEqualTo(401);
    }

    @Test
    void healthAnswersWithTheModeAndThisProcess() throws Exception {
        HttpResponse<String> r = authorized("/v1/health");

        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode body = json(r);
        assertThat(body.get("ok").asBoolean()).isTrue();
        assertThat(body.get("mode").asText()).isEqualTo("serve");
        assertThat(body.get("pid").asLong()).isEqualTo(ProcessHandle.current().pid());
    }

    @Test
    void statusWithAValidTokenReturnsTheRepositoryStatus() throws Exception {
        Path wt = repo.addWorktree(tmp.resolve("wt-login"), "feature/login");

        HttpResponse<String> r = authorized("/v1/status?repo=" + q(repo.dir()));

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode body = json(r);
        assertThat(body.at("/repository/path").asText()).isEqualTo(repo.dir().toString());
        assertThat(body.at("/repository/registered").asBoolean()).isFalse();
        assertThat(body.at("/repository/baseBranch").asText()).isEqualTo("main");
        assertThat(paths(body)).containsExactly(repo.dir().toString(), wt.toString());
        assertThat(body.at("/worktrees/1/branch").asText()).isEqualTo("feature/login");
        assertThat(body.at("/worktrees/0/subject").asText()).isEqualTo("Initial commit");
        assertThat(body.at("/counts/active").asLong()).isZero();
        assertThat(body.has("environment")).isTrue();
        assertThat(body.has("generatedAt")).isTrue();
    }

    @Test
    void statusFromInsideALinkedWorktreeAnswersForTheWholeRepository() throws Exception {
        Path wt = repo.addWorktree(tmp.resolve("wt-login"), "feature/login");

        HttpResponse<String> r = authorized("/v1/status?repo=" + q(wt));

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(json(r).at("/repository/path").asText()).isEqualTo(repo.dir().toString());
    }

    @Test
    void aRepositoryPathWithSpacesAndNonAsciiCharactersComesBackIntact() throws Exception {
        TempRepo odd = TempRepo.init(tmp.resolve("Проекты").resolve("My Répo & co"));

        HttpResponse<String> r = authorized("/v1/status?repo=" + q(odd.dir()));

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(json(r).at("/repository/path").asText()).isEqualTo(odd.dir().toString());
        assertThat(json(r).at("/repository/name").asText()).isEqualTo("My Répo & co");
    }

    @Test
    void statusOfAMissingPathIs404WithTheReason() throws Exception {
        HttpResponse<String> r = authorized("/v1/status?repo=" + q(tmp.resolve("nope")));

        assertThat(r.statusCode()).isEqualTo(404);
        assertThat(json(r).get("error").asText()).isEqualTo(tmp.resolve("nope") + " does not exist.");
    }

    @Test
    void statusOfAFolderOutsideAnyRepositoryIs404WithTheReason() throws Exception {
        HttpResponse<String> r = authorized("/v1/status?repo=" + q(tmp));

        assertThat(r.statusCode()).isEqualTo(404);
        assertThat(json(r).get("error").asText()).contains("is not inside a git repository");
    }

    @Test
    void aPathJavaCannotRepresentIs400() throws Exception {
        HttpResponse<String> r = authorized("/v1/status?repo=%00");

        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(json(r).get("error").asText()).startsWith("not a valid path");
    }

    @Test
    void aRelativeRepositoryPathIs400BecauseTheServerHasAnotherWorkingDirectory() throws Exception {
        HttpResponse<String> r = authorized("/v1/status?repo=some/relative/dir");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(json(r).get("error").asText()).contains("absolute path");
    }

    @Test
    void anUnknownRouteIs404WithAJsonError() throws Exception {
        HttpResponse<String> r = authorized("/v1/nope");

        assertThat(r.statusCode()).isEqualTo(404);
        assertThat(json(r).get("error").asText()).isEqualTo("no route GET /v1/nope");
    }

    @Test
    void aKnownRouteWithAnotherMethodIsRefusedWithAJsonError() throws Exception {
        HttpRequest post = HttpRequest.newBuilder(uri("/v1/status"))
                .timeout(Duration.ofSeconds(10))
                .header("Authorization", "Bearer " + token.value())
                .POST(HttpRequest.BodyPublishers.ofString("{}"))
                .build();

        HttpResponse<String> r = HTTP.send(post, HttpResponse.BodyHandlers.ofString());

        assertThat(r.statusCode()).isBetween(400, 499);
        assertThat(json(r).get("error").asText()).contains("POST");
    }

    @Test
    void aPathOutsideTheApiNeedsTheTokenTooAndAnswersJson() throws Exception {
        HttpResponse<String> anonymous = get("/", null);
        HttpResponse<String> withToken = authorized("/v2/status");

        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(json(anonymous).get("error").asText()).isEqualTo("missing bearer token");
        assertThat(withToken.statusCode()).isEqualTo(404);
        assertThat(json(withToken).get("error").asText()).isEqualTo("no route GET /v2/status");
    }

    @Test
    void anUnexpectedFailureBehindTheApiIs500WithAJsonError() throws Exception {
        // A store closed under the server makes the status call fail with an unchecked exception.
        PaddockHome home = PaddockHome.resolve(tmp.resolve("broken-home"), Map.of());
        try (Wiring broken = Wiring.open(home)) {
            ApiServer server = ApiServer.start(
                    token, r -> broken.workspace().statusOf(r), broken.sandboxService(), broken.settings(), "serve");
            try {
                broken.database().close();

                HttpResponse<String> r = get(server, "/v1/status?repo=" + q(repo.dir()), "Bearer " + token.value());

                assertThat(r.statusCode()).isEqualTo(500);
                assertThat(json(r).get("error").asText()).startsWith("internal error: ");
            } finally {
                server.close();
            }
        }
    }

    private static List<String> paths(JsonNode status) {
        List<String> out = new ArrayList<>();
        status.get("worktrees").forEach(w -> out.add(w.get("path").asText()));
        return out;
    }

    private static List<InetAddress> nonLoopbackAddresses() throws IOException {
        List<InetAddress> out = new ArrayList<>();
        for (NetworkInterface nif : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!nif.isUp() || nif.isLoopback()) {
                continue;
            }
            for (InetAddress a : Collections.list(nif.getInetAddresses())) {
                // link-local IPv6 addresses need a scope and say nothing more than the IPv4 ones
                if (!a.isLoopbackAddress() && !(a instanceof Inet6Address && a.isLinkLocalAddress())) {
                    out.add(a);
                }
            }
        }
        return out;
    }
}
