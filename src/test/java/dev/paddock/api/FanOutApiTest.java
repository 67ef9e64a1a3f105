package dev.paddock.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.paddock.Host;
import dev.paddock.common.Json;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.settings.PaddockHome;
import dev.paddock.testing.SmallDisk;
import dev.paddock.testing.TempRepo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fan-out and the agents' options through the loopback API of a real running Paddock ({@link Host}), with real git
 * repositories and real agent processes: the agents' programs are small scripts the {@code agents.*.executable}
 * settings name.
 */
class FanOutApiTest {
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final Duration AGENT_TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    static Path shared;

    private static Host host;
    private static String installToken;

    @TempDir
    Path tmp;

    @BeforeAll
    static void start() throws Exception {
        PaddockHome home = PaddockHome.resolve(shared.resolve("home"), Map.of());
        host = Host.start(home, "serve");
        installToken = ApiToken.read(home.tokenFile()).value();
    }

    @AfterAll
    static void stop() {
        host.close();
    }

    @AfterEach
    void stopAgentsAndResetTheirPrograms() throws Exception {
        for (String agent : List.of("claude", "codex")) {
            call("DELETE", "/v1/settings/agents." + agent + ".executable", null);
        }
        for (SandboxRecord s : host.wiring().sandboxService().list(null)) {
            if (s.state() == SandboxState.RUNNING
                    || s.state() == SandboxState.PENDING
                    || s.state() == SandboxState.RETRYING) {
                host.wiring().sandboxService().stop(s.id(), "the test's clean-up");
            }
        }
    }

    /** A program that prints "ARG <arg>" for each of its arguments, set as the agent's program. */
    private Path fakeAgent(String agent) throws Exception {
        Path p = Files.createDirectories(tmp.resolve("agents")).resolve(agent);
        Files.writeString(p, "#!/bin/sh\nfor a in \"$@\"; do printf 'ARG %s\\n' \"$a\"; done\nexit 0\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
        HttpResponse<String> r = call(
                "PUT",
                "/v1/settings/agents." + agent + ".executable",
                Json.mapper().createObjectNode().put("value", p.toString()).toString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return p;
    }

    @Test
    void aFanOutOfThreeAnswersItsGroupAndEachSandboxRunsItsAgentWithTheRepositorysFlags() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("repo"));
        fakeAgent("claude");
        fakeAgent("codex");
        HttpResponse<String> flags = call(
                "PUT",
                "/v1/repositories/agent-flags",
                Json.mapper()
                        .createObjectNode()
                        .put("repo", repo.dir().toString())
                        .put("agent", "claude")
                        .set("flags", Json.mapper().valueToTree(List.of("--max-turns", "7")))
                        .toString());
        assertThat(flags.statusCode()).as(flags.body()).isEqualTo(200);
        assertThat(json(flags).get("flags").toString()).isEqualTo("[\"--max-turns\",\"7\"]");

        HttpResponse<String> r = create(request(repo, "Speed up the build")
                .put("agents", "claude:2,codex:1")
                .put("tier", "worktree")
                .put("maxRetries", 0));

        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        JsonNode answer = json(r);
        String group = answer.get("group").asText();
        assertThat(group).matches("speed-up-build-\\d{8}-001");
        assertThat(answer.get("sandboxes").findValuesAsText("id"))
                .containsExactly(group + "-claude-1", group + "-claude-2", group + "-codex-1");
        assertThat(answer.get("sandboxes").findValuesAsText("branch"))
                .containsExactly(
                        "agent/speed-up-build-claude-1",
                        "agent/speed-up-build-claude-2",
                        "agent/speed-up-build-codex-1");
        assertThat(answer.get("sandboxes").findValuesAsText("group")).containsOnly(group);

        for (String id : answer.get("sandboxes").findValuesAsText("id")) {
            awaitState(id, "done");
        }
        String claudeLog = host.wiring().sandboxService().logTail(group + "-claude-2");
        assertThat(claudeLog).contains("ARG --max-turns\nARG 7\nARG --\nARG Speed up the build\n");
        assertThat(host.wiring().sandboxService().logTail(group + "-codex-1"))
                .contains("ARG exec\nARG --json\nARG --\nARG Speed up the build\n")
                .doesNotContain("--max-turns");

        JsonNode list =
                json(call("GET", "/v1/sandboxes?repo=" + q(repo.dir()), null)).get("sandboxes");
        assertThat(list.findValuesAsText("group")).containsExactly(group, group, group);
        JsonNode status = json(call("GET", "/v1/status?repo=" + q(repo.dir()), null));
        assertThat(status.get("sandboxes").findValuesAsText("group")).containsExactly(group, group, group);
        // A sandbox made on its own has no group.
        HttpResponse<String> alone =
                create(request(repo, "Alone").put("agent", "codex").put("tier", "worktree"));
        assertThat(alone.statusCode()).as(alone.body()).isEqualTo(201);
        assertThat(json(alone).get("group").isNull()).isTrue();
    }

    @Test
    void badFanOutsAre400AndMakeNothing() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("repo"));

        assertRefused(
                request(repo, "T").put("agents", "claude:0"),
                400,
                "agents: 'claude:0': a count is a whole number from 1 to 20");
        assertRefused(
                request(repo, "T").put("agents", "claude:2").put("agent", "claude"),
                400,
                "give agent (one sandbox) or agents (a fan-out such as \"claude:2,codex:1\"), not both");
        assertRefused(
                request(repo, "T").put("agents", "claude:1,cursor:1"),
                400,
                "Unknown agent \"cursor\"; known agents: claude, codex, gemini, aider, custom.");
        assertRefused(
                request(repo, "T")
                        .put("agents", "codex:2")
                        .put("branch", "a..b")
                        .put("tier", "worktree"),
                400,
                null);
        assertRefused(
                request(repo, "T").put("agents", "claude:1,codex:1").put("model", "o3"),
                400,
                "A model (--model) is one agent's: this fan-out runs claude, codex. Leave the model out, or fan out to"
                        + " one agent.");
        assertThat(repo.dir().resolve(".worktrees")).doesNotExist();
        assertThat(repo.git("branch", "--list", "agent/*")).isBlank();
    }

    @Test
    void aFanOutThatRunsOutOfDiskPartWayAnswersWhatItMadeAndWhatNot() throws Exception {
        try (SmallDisk disk = SmallDisk.mount(tmp.resolve("disk"), 8)) {
            TempRepo repo = TempRepo.init(disk.dir().resolve("repo"));
            byte[] big = new byte[1024 * 1024];
            new Random(7).nextBytes(big);
            Files.write(repo.dir().resolve("data.bin"), big);
            repo.commitAll("Add 1 MB of data");
            // Room for one more checkout of the data, not two.
            disk.fill(1536 * 1024);

            HttpResponse<String> r = create(request(repo, "Sort the data")
                    .put("agents", "custom:3")
                    .put("command", "exit 0")
                    .put("maxRetries", 0));

            assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
            JsonNode answer = json(r);
            String group = answer.get("group").asText();
            assertThat(answer.get("code").asText()).isEqualTo("fan_out_incomplete");
            assertThat(answer.get("created").findValuesAsText("id")).containsExactly(group + "-custom-1");
            assertThat(answer.get("created").findValuesAsText("group")).containsExactly(group);
            assertThat(answer.at("/failed/id").asText()).isEqualTo(group + "-custom-2");
            assertThat(answer.at("/failed/branch").asText()).isEqualTo("agent/sort-data-custom-2");
            assertThat(answer.at("/failed/error").asText()).isNotBlank();
            assertThat(answer.get("notTried").findValuesAsText("id")).containsExactly(group + "-custom-3");
            assertThat(answer.get("error").asText())
                    .startsWith("The fan-out " + group + " made 1 of its 3 sandboxes: " + group
                            + "-custom-2 (custom, branch agent/sort-data-custom-2) could not be created: ")
                    .contains(
                            "Created, and their agents start: " + group + "-custom-1 (custom, branch"
                                    + " agent/sort-data-custom-1).",
                            "Not tried: " + group + "-custom-3");
            // As reported: one sandbox, the failed one taken back.
            JsonNode list = json(call("GET", "/v1/sandboxes?repo=" + q(repo.dir()), null))
                    .get("sandboxes");
            assertThat(list.findValuesAsText("id")).containsExactly(group + "-custom-1");
            assertThat(repo.dir().resolve(".worktrees").resolve(group + "-custom-2"))
                    .doesNotExist();
            assertThat(repo.git("branch", "--list", "agent/sort-data-custom-2")).isBlank();
            awaitState(group + "-custom-1", "done");
            disk.free();
            host.wiring()
                    .sandboxService()
                    .remove(group + "-custom-1", dev.paddock.sandbox.RemoveMode.FORCE, true, "the test");
        }
    }

    private void assertRefused(ObjectNode body, int status, String message) throws Exception {
        HttpResponse<String> r = create(body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        if (message != null) {
            assertThat(json(r).get("error").asText()).isEqualTo(message);
        }
    }

    private static ObjectNode request(TempRepo repo, String task) {
        return Json.mapper()
                .createObjectNode()
                .put("repo", repo.dir().toString())
                .put("task", task);
    }

    private static HttpResponse<String> create(ObjectNode body) throws Exception {
        return call("POST", "/v1/sandboxes", body.toString());
    }

    private static void awaitState(String id, String state) throws Exception {
        long deadline = System.nanoTime() + AGENT_TIMEOUT.toNanos();
        String last = null;
        while (System.nanoTime() < deadline) {
            last = host.wiring().sandboxService().find(id).state().id();
            if (last.equals(state)) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError(id + " did not become " + state + " within " + AGENT_TIMEOUT + ": " + last + "\n"
                + host.wiring().sandboxService().logTail(id));
    }

    private static HttpResponse<String> call(String method, String pathAndQuery, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + host.apiPort() + pathAndQuery))
                .timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + installToken)
                .method(
                        method,
                        body == null
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private static JsonNode json(HttpResponse<String> r) {
        try {
            return Json.mapper().readTree(r.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String q(Path p) {
        return URLEncoder.encode(p.toString(), StandardCharsets.UTF_8);
    }
}
