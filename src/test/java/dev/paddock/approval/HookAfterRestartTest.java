package dev.paddock.approval;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.Paddock;
import dev.paddock.api.HookAuth;
import dev.paddock.common.Json;
import dev.paddock.testing.BrokerRig;
import dev.paddock.testing.ChildJvm;
import dev.paddock.testing.HookRun;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An agent outlives {@code kill -9} of a real {@code paddock serve} and keeps the environment it was started with
 * ({@code PADDOCK_API}, {@code PADDOCK_HOOK_KEY}, {@code PADDOCK_TOKEN}). The agent itself runs the real hook script
 * of the home and sends heartbeats (through the API with its token, and {@code paddock heartbeat} on its PATH):
 * after a restart they still work, because the next Paddock takes the same port; and when that port was taken
 * meanwhile, the hook finds the live Paddock through {@code instance.json}, which must prove itself, while the
 * program on the old port gets no secret.
 */
class HookAfterRestartTest {
    private static final Duration PATIENCE = Duration.ofSeconds(60);
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @TempDir
    Path tmp;

    private Path home;
    private TempRepo repo;
    private Path agentDir;
    private final List<ChildJvm> servers = new ArrayList<>();
    private String sandbox;

    @BeforeEach
    void setUp() throws Exception {
        home = tmp.resolve("home");
        repo = BrokerRig.repoWithPolicy(tmp.resolve("repo"));
        agentDir = Files.createDirectories(tmp.resolve("agent"));
    }

    @AfterEach
    void tearDown() throws Exception {
        if (sandbox != null) {
            Path pidFile = repo.dir()
                    .resolve(".worktrees")
                    .resolve(sandbox)
                    .resolve(".paddock")
                    .resolve("agent-pid");
            if (Files.exists(pidFile)) {
                ProcessHandle.of(Long.parseLong(Files.readString(pidFile).strip()))
                        .ifPresent(h -> {
                            h.descendants().forEach(ProcessHandle::destroyForcibly);
                            h.destroyForcibly();
                        });
            }
        }
        servers.forEach(ChildJvm::close);
    }

    /**
     * The agent: on each {@code go.N} the test drops, it runs the home's hook script on {@code payload} (its exit
     * code, stdout and stderr into {@code rc.N}, {@code out.N}, {@code err.N}), sends a heartbeat through the API
     * with its own token unless {@code noapi} exists ({@code api.N}: the HTTP status), then runs
     * {@code paddock heartbeat "file N"}.
     */
    private String agent() {
        String t = "'" + agentDir + "'";
        String hook = "'" + home.resolve("bin").resolve("paddock-hook-claude") + "'";
        return "while :; do for g in " + t + "/go.*; do [ -e \"$g\" ] || continue; n=${g##*.}; rm -f \"$g\";"
                + " " + hook + " < " + t + "/payload > " + t + "/out.$n 2> " + t + "/err.$n; echo $? > " + t
                + "/rc.tmp;"
                + " if [ ! -e " + t + "/noapi ]; then curl -s -o /dev/null -w '%{http_code}' -X POST"
                + " -H \"Authorization: Bearer $PADDOCK_TOKEN\" -H 'Content-Type: application/json'"
                + " --data \"{\\\"progress\\\": \\\"api $n\\\"}\""
                + " \"$PADDOCK_API/v1/sandboxes/$PADDOCK_SANDBOX_ID/heartbeat\" > " + t + "/api.$n; fi;"
                + " paddock heartbeat \"file $n\"; mv " + t + "/rc.tmp " + t + "/rc.$n; done; sleep 0.1; done";
    }

    @Test
    void theSameAgentsHookAndHeartbeatsWorkAfterKillNineAndRestart() throws Exception {
        ChildJvm first = serve();
        int port = port();
        HttpResponse<String> created = call(
                port,
                "POST",
                "/v1/sandboxes",
                Json.mapper()
                        .createObjectNode()
                        .put("repo", repo.dir().toString())
                        .put("task", "Outlive Paddock")
                        .put("command", agent())
                        .toString());
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        sandbox = Json.mapper().readTree(created.body()).get("id").asText();
        first.await("the agent runs", () -> "running".equals(sandboxField(port(), "state")), PATIENCE);
        Path worktree = Path.of(sandboxField(port, "worktreePath"));
        Files.writeString(agentDir.resolve("payload"), HookRun.payload(worktree, "git status"));

        assertRound(1, first);

        kill9(first);
        ChildJvm second = serve();
        assertRound(2, second);
        assertThat(port()).as("the API takes the port it had").isEqualTo(port);

        // The port is taken while no Paddock runs: the next one takes another, which the hook finds.
        kill9(second);
        Files.writeString(agentDir.resolve("noapi"), "the agent's own curl would send its token to the squatter");
        try (RecordingServer squatter = RecordingServer.start(RecordingServer.Mode.ALLOW, port, 0)) {
            ChildJvm third = serve();
            assertThat(port()).isNotEqualTo(port);
            assertRound(3, third);
            String installToken = Files.readString(home.resolve("api-token")).strip();
            assertThat(squatter.connections())
                    .as("the hook tried the old port first")
                    .isGreaterThanOrEqualTo(1);
            assertThat(squatter.received())
                    .doesNotContain(installToken)
                    .doesNotContain(HookAuth.sandboxKey(installToken, sandbox));
        }
    }

    /** Drops go.N and checks the agent's hook call was allowed and its heartbeats were taken. */
    private void assertRound(int n, ChildJvm serve) throws Exception {
        Files.writeString(agentDir.resolve("go." + n), "");
        Path rc = agentDir.resolve("rc." + n);
        serve.await("the agent's hook call " + n, () -> Files.exists(rc), PATIENCE);
        String err = Files.readString(agentDir.resolve("err." + n));
        assertThat(Files.readString(rc).strip()).as("round %d: %s", n, err).isEqualTo("0");
        JsonNode out = Json.mapper().readTree(Files.readString(agentDir.resolve("out." + n)));
        assertThat(out.at("/hookSpecificOutput/permissionDecision").asText()).isEqualTo("allow");
        Path api = agentDir.resolve("api." + n);
        if (Files.exists(api)) {
            assertThat(Files.readString(api).strip())
                    .as("round %d: the API heartbeat's status", n)
                    .isEqualTo("200");
        }
        serve.await(
                "heartbeat 'file " + n + "' recorded",
                () -> ("file " + n).equals(sandboxField(port(), "progress")),
                PATIENCE);
    }

    private ChildJvm serve() {
        ChildJvm serve = ChildJvm.start(
                tmp.resolve("child"),
                Map.of(),
                Paddock.class.getName(),
                List.of("--home", home.toString(), "serve", "--repo", repo.dir().toString()));
        servers.add(serve);
        serve.awaitStdout("Paddock serving on", PATIENCE);
        return serve;
    }

    /** kill -9: instance.json stays behind, the agent runs on. */
    private static void kill9(ChildJvm serve) throws InterruptedException {
        serve.process().destroyForcibly();
        serve.process().waitFor();
    }

    private int port() {
        try {
            return Json.mapper()
                    .readTree(home.resolve("instance.json").toFile())
                    .get("port")
                    .asInt();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private String sandboxField(int port, String field) {
        try {
            HttpResponse<String> r = call(port, "GET", "/v1/sandboxes/" + sandbox, null);
            return r.statusCode() == 200
                    ? Json.mapper().readTree(r.body()).at("/sandbox/" + field).asText()
                    : null;
        } catch (Exception e) {
            return null;
        }
    }

    private HttpResponse<String> call(int port, String method, String path, String body) throws Exception {
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
