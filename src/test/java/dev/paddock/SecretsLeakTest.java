package dev.paddock;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.paddock.api.InstanceFile;
import dev.paddock.common.Json;
import dev.paddock.testing.AgentEnvironment;
import dev.paddock.testing.BrokerRig;
import dev.paddock.testing.ChildJvm;
import dev.paddock.testing.TempRepo;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where a sandbox's token may be: in its agent's environment, nowhere else. A real {@code paddock serve} with its
 * own logging runs a sandbox through two runs (stopped, retried), answers heartbeats, decisions (allowed, denied,
 * asked and expired, refused tokens, a malformed request) and the hook script's calls; then every file of the home
 * (logs, the store's raw bytes), the store's every row ({@code SCRIPT}), the events' details, the sandbox's own
 * folder, the API's answers, {@code paddock status --json} and the server's output are searched for the tokens.
 */
class SecretsLeakTest {
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @TempDir
    Path tmp;

    private Path home;
    private final List<String> answers = new ArrayList<>();
    /** The sandbox's hook key (the same for every run: it is derived from the install token and the id). */
    private String hookKey;

    @Test
    void noSandboxTokenIsInALogTheStoreAnEventAnAnswerOrTheSandboxFolder() throws Exception {
        home = tmp.resolve("home");
        TempRepo repo = BrokerRig.repoWithPolicy(tmp.resolve("repo"));
        String id;
        String first;
        String second;
        String install;
        List<String> cliOutputs = new ArrayList<>();
        try (ChildJvm serve = ChildJvm.startWithOwnLogging(
                tmp.resolve("serve-out"),
                Map.of(),
                Paddock.class.getName(),
                List.of("--home", home.toString(), "serve"))) {
            serve.awaitStdout("Paddock serving on", Duration.ofSeconds(90));
            install = Files.readString(home.resolve("api-token")).strip();
            assertThat(call("PUT", "/v1/settings/approval.timeoutMs", "{\"value\": \"1000\"}", install)
                            .statusCode())
                    .isEqualTo(200);
            HttpResponse<String> created = call(
                    "POST",
                    "/v1/sandboxes",
                    Json.mapper()
                            .createObjectNode()
                            .put("repo", repo.dir().toString())
                            .put("task", "Keep a secret")
                            .put("command", "sleep 300")
                            .toString(),
                    install);
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            id = Json.mapper().readTree(created.body()).get("id").asText();

            first = tokenOfRun(id, 1);
            hookKey = hookKeyOfRun(id);
            exercise(id, first, repo);

            assertThat(call("POST", "/v1/sandboxes/" + id + "/stop", null, install)
                            .statusCode())
                    .isEqualTo(200);
            assertThat(call("POST", "/v1/sandboxes/" + id + "/retry", null, install)
                            .statusCode())
                    .isEqualTo(200);
            second = tokenOfRun(id, 2);
            assertThat(second).as("every run gets a token of its own").isNotEqualTo(first);
            assertThat(call("POST", "/v1/sandboxes/" + id + "/heartbeat", "{}", first)
                            .statusCode())
                    .as("the first run's token stops working")
                    .isEqualTo(401);
            exercise(id, second, repo);

            for (String path : List.of(
                    "/v1/sandboxes/" + id,
                    "/v1/sandboxes",
                    "/v1/approvals",
                    "/v1/sandboxes/" + id + "/log",
                    "/v1/status?repo=" + java.net.URLEncoder.encode(repo.dir().toString(), StandardCharsets.UTF_8))) {
                call("GET", path, null, install);
            }
            for (List<String> args : List.of(
                    List.of("status", "--json", "--repo", repo.dir().toString()),
                    List.of("sandbox", "list", "--json", "--repo", repo.dir().toString()))) {
                List<String> all = new ArrayList<>(List.of("--home", home.toString()));
                all.addAll(args);
                try (ChildJvm cli =
                        ChildJvm.startWithOwnLogging(tmp.resolve("cli-out"), Map.of(), Paddock.class.getName(), all)) {
                    assertThat(cli.waitFor(Duration.ofSeconds(60)))
                            .as(cli.report())
                            .isZero();
                    cliOutputs.add(cli.stdout() + cli.stderr());
                }
            }
            assertThat(call("POST", "/v1/sandboxes/" + id + "/stop", null, install)
                            .statusCode())
                    .isEqualTo(200);
            serve.close();
            cliOutputs.add(serve.stdout() + serve.stderr());
        }
        Map<String, String> secrets = new LinkedHashMap<>();
        secrets.put("the first run's token", first);
        secrets.put("the second run's token", second);
        secrets.put("the sandbox's hook key", hookKey);

        Map<String, String> places = new LinkedHashMap<>();
        places.putAll(files(home));
        places.putAll(files(repo.dir().resolve(".worktrees").resolve(id)));
        places.put("the store's rows (SCRIPT)", String.join("\n", storeScript()));
        places.put("the events' details", String.join("\n", eventDetails()));
        places.put("the API's answers", String.join("\n", answers));
        places.put("the command line's and the server's output", String.join("\n", cliOutputs));
        assertThat(places)
                .containsKeys(
                        "logs/paddock.log", "paddock.mv.db", "logs/sandboxes/" + id + ".log", ".paddock/sandbox.json");
        assertThat(places.get("logs/paddock.log")).contains("Created sandbox " + id);
        assertThat(places.get("the events' details")).contains("\"approvalId\"", "git push origin main");

        secrets.forEach((what, secret) -> places.forEach(
                (where, text) -> assertThat(text).as(what + " in " + where).doesNotContain(secret)));
        places.forEach((where, text) -> {
            if (!where.equals("api-token")) {
                assertThat(text).as("the install token in " + where).doesNotContain(install);
            }
        });
        assertThat(String.join("\n", storeScript()))
                .as("the store keeps the second run's token as its SHA-256")
                .contains(sha256(second))
                .doesNotContain(sha256(first));
    }

    /** Heartbeats, decisions of every kind, refusals and the hook script, all with the sandbox's {@code token}. */
    private void exercise(String id, String token, TempRepo repo) throws Exception {
        String cwd = worktree(id);
        assertThat(call("POST", "/v1/sandboxes/" + id + "/heartbeat", "{\"progress\": \"working\"}", token)
                        .statusCode())
                .isEqualTo(200);
        for (String command : List.of("git status", "rm -rf /", "git push origin main")) {
            HttpResponse<String> r =
                    call("POST", "/v1/decide", decide(command, cwd).toString(), token);
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        }
        assertThat(call("POST", "/v1/sandboxes/" + id + "/heartbeat", "{}", token + "x")
                        .statusCode())
                .isEqualTo(401);
        assertThat(call("GET", "/v1/sandboxes", null, token).statusCode()).isEqualTo(403);
        assertThat(call("POST", "/v1/decide", "{not json", token).statusCode()).isEqualTo(400);
        assertThat(call("POST", "/v1/hooks/claude", hookPayload("git status", cwd), token)
                        .body())
                .startsWith("allow");
        Path script = home.resolve("bin/paddock-hook-claude");
        for (String command : List.of("git status", "rm -rf build")) {
            ProcessBuilder pb = new ProcessBuilder(script.toString());
            pb.environment().clear();
            pb.environment()
                    .putAll(Map.of(
                            "PATH",
                            System.getenv("PATH"),
                            "PADDOCK_API",
                            "http://127.0.0.1:" + port(),
                            "PADDOCK_TOKEN",
                            token,
                            "PADDOCK_HOOK_KEY",
                            hookKey,
                            "PADDOCK_SANDBOX_ID",
                            id,
                            "HOME",
                            tmp.toString()));
            pb.redirectErrorStream(true);
            Process p = pb.start();
            try (var in = p.getOutputStream()) {
                in.write(hookPayload(command, cwd).getBytes(StandardCharsets.UTF_8));
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor()).as(out).isEqualTo(command.equals("git status") ? 0 : 2);
            answers.add(out);
        }
    }

    /** The token of run {@code run} of the sandbox, from its agent's environment once it runs. */
    private String tokenOfRun(String id, int run) throws Exception {
        JsonNode[] s = {null};
        BrokerRig.await("run " + run + " of " + id, () -> {
            try {
                s[0] = Json.mapper()
                        .readTree(call(
                                        "GET",
                                        "/v1/sandboxes/" + id,
                                        null,
                                        Files.readString(home.resolve("api-token"))
                                                .strip())
                                .body())
                        .get("sandbox");
                return s[0].get("state").asText().equals("running")
                        && s[0].get("iteration").asInt() == run
                        && s[0].hasNonNull("pid");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        return AgentEnvironment.of(s[0].get("pid").asLong()).get("PADDOCK_TOKEN");
    }

    /** The hook key of the sandbox's running agent, from its environment. */
    private String hookKeyOfRun(String id) throws Exception {
        JsonNode s = Json.mapper()
                .readTree(call(
                                "GET",
                                "/v1/sandboxes/" + id,
                                null,
                                Files.readString(home.resolve("api-token")).strip())
                        .body())
                .get("sandbox");
        String key = AgentEnvironment.of(s.get("pid").asLong()).get("PADDOCK_HOOK_KEY");
        assertThat(key).as("the agent's PADDOCK_HOOK_KEY").isNotBlank();
        return key;
    }

    private String worktree(String id) throws Exception {
        return Json.mapper()
                .readTree(call(
                                "GET",
                                "/v1/sandboxes/" + id,
                                null,
                                Files.readString(home.resolve("api-token")).strip())
                        .body())
                .at("/sandbox/worktreePath")
                .asText();
    }

    private static ObjectNode decide(String command, String cwd) {
        ObjectNode n = Json.mapper()
                .createObjectNode()
                .put("tool", "Bash")
                .put("cwd", cwd)
                .put("sessionId", "s-1");
        n.putObject("input").put("command", command);
        return n;
    }

    private static String hookPayload(String command, String cwd) {
        ObjectNode n = Json.mapper()
                .createObjectNode()
                .put("session_id", "s-2")
                .put("hook_event_name", "PreToolUse")
                .put("cwd", cwd)
                .put("tool_name", "Bash");
        n.putObject("tool_input").put("command", command);
        return n.toString();
    }

    /** Every file under {@code dir}, by its path relative to {@code dir}, as one character per byte. */
    private static Map<String, String> files(Path dir) throws Exception {
        Map<String, String> out = new LinkedHashMap<>();
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.filter(Files::isRegularFile).toList()) {
                out.put(dir.relativize(p).toString(), new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1));
            }
        }
        return out;
    }

    private List<String> storeScript() throws Exception {
        List<String> lines = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:h2:file:" + home.resolve("paddock"), "paddock", "");
                ResultSet rs = c.createStatement().executeQuery("SCRIPT")) {
            while (rs.next()) {
                lines.add(rs.getString(1));
            }
        }
        return lines;
    }

    private List<String> eventDetails() throws Exception {
        List<String> details = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:h2:file:" + home.resolve("paddock"), "paddock", "");
                ResultSet rs = c.createStatement().executeQuery("SELECT message, details FROM events ORDER BY id")) {
            while (rs.next()) {
                details.add(rs.getString(1) + " " + rs.getString(2));
            }
        }
        return details;
    }

    private int port() {
        return InstanceFile.read(home.resolve("instance.json")).orElseThrow().port();
    }

    private HttpResponse<String> call(String method, String path, String body, String token) throws Exception {
        HttpRequest r = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port() + path))
                .timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + token)
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build();
        HttpResponse<String> answer = HTTP.send(r, HttpResponse.BodyHandlers.ofString());
        answers.add(answer.body());
        return answer;
    }

    private static String sha256(String s) throws Exception {
        return HexFormat.of()
                .formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    }
}
