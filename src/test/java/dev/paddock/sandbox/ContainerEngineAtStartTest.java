package dev.paddock.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.Paddock;
import dev.paddock.Wiring;
import dev.paddock.common.Json;
import dev.paddock.settings.PaddockHome;
import dev.paddock.testing.ChildJvm;
import dev.paddock.testing.DockerTests;
import dev.paddock.testing.RecordingServer;
import dev.paddock.testing.TempRepo;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A real {@code paddock serve} starts while its Docker engine cannot be reached ({@code DOCKER_HOST} naming a port
 * that refuses, a socket that does not exist, or a server that accepts and never answers), with a container
 * sandbox a killed Paddock left running: it behaves as when the engine goes away later. The engine is reported
 * unreachable within seconds, the sandbox is unknown from the first status on (in JSON and in the text of
 * {@code paddock status}), and its heartbeats, which the agent writes to its heartbeat file on the host, are still
 * taken, so its lease never runs out while it works.
 */
class ContainerEngineAtStartTest {
    private static final Duration PATIENCE = Duration.ofSeconds(90);
    private static final long LEASE_MS = 12_000;
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @TempDir
    Path tmp;

    private Path home;
    private TempRepo repo;
    private final List<ChildJvm> servers = new ArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        DockerTests.requireEngineWithGitImage();
        home = tmp.resolve("home");
        repo = TempRepo.init(tmp.resolve("repo"));
        try (Wiring w = Wiring.open(PaddockHome.resolve(home, Map.of()))) {
            w.repoService().setContainerImage(repo.dir(), DockerTests.GIT_IMAGE);
        }
    }

    @AfterEach
    void tearDown() {
        servers.forEach(ChildJvm::close);
        if (repo != null) {
            DockerTests.removeAll("paddock.repo=" + repo.dir());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"refused", "no-socket", "silent"})
    void anEngineUnreachableAtStartIsHandledAsOneLostLater(String how) throws Exception {
        ChildJvm first = serve(Map.of());
        HttpResponse<String> created = call(
                "POST",
                "/v1/sandboxes",
                Json.mapper()
                        .createObjectNode()
                        .put("repo", repo.dir().toString())
                        .put("task", "Beat while the engine is away")
                        .put("tier", "container")
                        .put("leaseMs", LEASE_MS)
                        .put("command", "i=0; while :; do i=$((i+1)); paddock heartbeat beat $i;" + " sleep 1; done")
                        .toString());
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        String id = Json.mapper().readTree(created.body()).get("id").asText();
        first.await(
                "a heartbeat of the container agent",
                () -> progress(sandbox(id)).startsWith("beat "),
                PATIENCE);
        first.process().destroyForcibly();
        first.process().waitFor();

        try (RecordingServer silent = RecordingServer.start(RecordingServer.Mode.NEVER_ANSWER)) {
            String dockerHost = switch (how) {
                case "refused" -> "tcp://127.0.0.1:1";
                case "no-socket" -> "unix://" + tmp.resolve("no-such-docker.sock");
                default -> "tcp://127.0.0.1:" + silent.port();
            };
            ChildJvm second = serve(Map.of("DOCKER_HOST", dockerHost, "DOCKER_CONTEXT", ""));

            JsonNode firstLook = sandbox(id);
            assertThat(firstLook.get("engineUnreachable").asBoolean())
                    .as("unknown from the first status on, before the engine's first answer: %s", firstLook)
                    .isTrue();
            second.await(
                    "the engine reported unreachable",
                    () -> {
                        JsonNode docker = status().at("/environment/docker");
                        return !docker.get("reachable").asBoolean()
                                && !docker.get("awaySince").isNull();
                    },
                    Duration.ofSeconds(20));
            assertThat(status().at("/environment/docker/error").asText()).isNotEqualTo("not checked yet");
            assertThat(text()).as("paddock status").containsPattern(id + " +container +unknown");
            assertThat(text("sandbox", "list"))
                    .as("paddock sandbox list")
                    .containsPattern(id + " +container +unknown +\\S+ +\\(the Docker engine does not answer; last"
                            + " known running\\)");

            Instant watchFrom = Instant.now();
            String before = progress(sandbox(id));
            Thread.sleep(LEASE_MS + 6_000); // longer than the lease: only heartbeats keep it
            JsonNode after = sandbox(id);
            assertThat(after.get("state").asText()).isEqualTo("running");
            assertThat(after.get("engineUnreachable").asBoolean()).isTrue();
            assertThat(progress(after)).as("heartbeats are still taken").isNotEqualTo(before);
            assertThat(Instant.parse(after.get("lastHeartbeatAt").asText())).isAfter(watchFrom);
            assertThat(Instant.parse(after.get("leaseExpiresAt").asText()))
                    .as("the lease runs on")
                    .isAfter(Instant.now());
            assertThat(second.isAlive()).isTrue();
        }
    }

    private static String progress(JsonNode sandbox) {
        return sandbox == null || sandbox.get("progress").isNull()
                ? ""
                : sandbox.get("progress").asText();
    }

    /** The sandbox's row of {@code GET /v1/status}, or null. */
    private JsonNode sandbox(String id) {
        for (JsonNode s : status().path("sandboxes")) {
            if (s.get("id").asText().equals(id)) {
                return s;
            }
        }
        return null;
    }

    private JsonNode status() {
        try {
            HttpResponse<String> r = call(
                    "GET",
                    "/v1/status?repo=" + java.net.URLEncoder.encode(repo.dir().toString(), StandardCharsets.UTF_8),
                    null);
            return r.statusCode() == 200
                    ? Json.mapper().readTree(r.body())
                    : Json.mapper().createObjectNode();
        } catch (Exception e) {
            return Json.mapper().createObjectNode();
        }
    }

    /** {@code paddock status} as a person runs it, in a process of its own. */
    private String text() {
        return text("status");
    }

    /** A read-only command ({@code status}, {@code sandbox list}) as a person runs it, in a process of its own. */
    private String text(String... command) {
        List<String> args = new java.util.ArrayList<>(List.of("--home", home.toString()));
        args.addAll(List.of(command));
        args.addAll(List.of("--repo", repo.dir().toString()));
        try (ChildJvm cli = ChildJvm.start(tmp.resolve("cli"), Map.of(), Paddock.class.getName(), args)) {
            assertThat(cli.waitFor(Duration.ofSeconds(60))).as(cli.report()).isZero();
            return cli.stdout();
        }
    }

    private ChildJvm serve(Map<String, String> env) {
        ChildJvm serve = ChildJvm.start(
                tmp.resolve("child"),
                env,
                Paddock.class.getName(),
                List.of("--home", home.toString(), "serve", "--repo", repo.dir().toString()));
        servers.add(serve);
        serve.awaitStdout("Paddock serving on", PATIENCE);
        return serve;
    }

    private HttpResponse<String> call(String method, String path, String body) throws Exception {
        int port = Json.mapper()
                .readTree(home.resolve("instance.json").toFile())
                .get("port")
                .asInt();
        String token = Files.readString(home.resolve("api-token")).strip();
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token)
                .method(
                        method,
                        body == null
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }
}
