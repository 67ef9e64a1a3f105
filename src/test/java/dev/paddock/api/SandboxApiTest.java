package dev.paddock.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.paddock.Host;
import dev.paddock.common.Json;
import dev.paddock.isolation.host.ProcessTree;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.settings.PaddockHome;
import dev.paddock.testing.AgentEnvironment;
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
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sandbox routes of the loopback API over real HTTP, against a real running Paddock ({@link Host}:
 * store, supervisor and API in this JVM), real git repositories and real agent processes.
 */
class SandboxApiTest {
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final Duration AGENT_TIMEOUT = Duration.ofSeconds(30);

    /** One running Paddock for the class: starting it is most of the cost of a test. */
    @TempDir
    static Path shared;

    private static Host host;
    private static String installToken;

    @TempDir
    Path tmp;

    private TempRepo repo;

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

    @BeforeEach
    void makeRepository() {
        repo = TempRepo.init(tmp.resolve("repo"));
    }

    /** Agents outlive a closed Paddock (a restart adopts them): stop every one this test started. */
    @AfterEach
    void stopAgents() throws Exception {
        for (SandboxRecord s : host.wiring().sandboxService().list(null)) {
            if (s.state() == SandboxState.RUNNING
                    || s.state() == SandboxState.PENDING
                    || s.state() == SandboxState.RETRYING) {
                host.wiring().sandboxService().stop(s.id(), "the test's clean-up");
            }
        }
    }

    @Test
    void aSandboxCreatedThroughTheApiRunsItsAgentAndEndsDone() throws Exception {
        HttpResponse<String> r = create(request("Say hi to the world", "echo hi from $PADDOCK_SANDBOX_ID; exit 0"));

        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        JsonNode created = json(r);
        String id = created.get("id").asText();
        assertThat(id).matches("say-hi-world-\\d{8}-\\d{3}");
        assertThat(r.headers().firstValue("Location")).contains("/v1/sandboxes/" + id);
        assertThat(created.get("branch").asText()).isEqualTo("agent/say-hi-world");
        assertThat(created.get("tier").asText()).isEqualTo("worktree");
        assertThat(created.get("state").asText()).isEqualTo("pending");
        assertThat(created.get("baseCommit").asText()).isEqualTo(repo.head());
        Path worktree = Path.of(created.get("worktreePath").asText());
        assertThat(worktree)
                .isEqualTo(repo.dir().resolve(".worktrees").resolve(id).resolve("agent/say-hi-world"))
                .isDirectory();
        assertThat(created.has("token")).as("a sandbox's token is never shown").isFalse();

        JsonNode done = awaitState(id, "done");

        assertThat(done.at("/sandbox/exitCode").asInt()).isZero();
        assertThat(done.at("/sandbox/iteration").asInt()).isEqualTo(1);
        assertThat(done.get("history").findValuesAsText("kind"))
                .containsSubsequence(
                        "sandbox.branch_created",
                        "sandbox.worktree_added",
                        "sandbox.created",
                        "sandbox.running",
                        "sandbox.done");
        HttpResponse<String> log = call("GET", "/v1/sandboxes/" + id + "/log", null, installToken);
        assertThat(log.statusCode()).isEqualTo(200);
        assertThat(log.headers().firstValue("Content-Type")).contains("text/plain; charset=utf-8");
        assertThat(log.body()).contains("hi from " + id);
        assertThat(ids(call("GET", "/v1/sandboxes?repo=" + q(repo.dir()), null, installToken)))
                .containsExactly(id);
    }

    @Test
    void anUnknownAgentOrACommandWithAPresetIsRefusedWith400AndNothingIsCreated() throws Exception {
        ObjectNode unknown = request("Bad", null).put("agent", "cursor");
        unknown.remove("command");
        ObjectNode cmdWithPreset = request("Bad", "claude -p hi").put("agent", "claude");
        ObjectNode badModel = request("Bad", null).put("agent", "claude").put("model", "-x");
        badModel.remove("command");

        HttpResponse<String> a = create(unknown);
        HttpResponse<String> b = create(cmdWithPreset);
        HttpResponse<String> c = create(badModel);

        assertThat(a.statusCode()).as(a.body()).isEqualTo(400);
        assertThat(json(a).get("error").asText())
                .isEqualTo("Unknown agent \"cursor\"; known agents: claude, codex, gemini, aider, custom.");
        assertThat(b.statusCode()).as(b.body()).isEqualTo(400);
        assertThat(json(b).get("error").asText()).startsWith("A command (--cmd) is for the custom agent only");
        assertThat(c.statusCode()).as(c.body()).isEqualTo(400);
        assertThat(json(c).get("error").asText()).contains("is not a model name");
        assertThat(repo.dir().resolve(".worktrees")).doesNotExist();
        assertThat(ids(call("GET", "/v1/sandboxes?repo=" + q(repo.dir()), null, installToken)))
                .isEmpty();
    }

    @Test
    void aPresetIsStoredWithItsModelAndItsRunFailsClearlyWhenItsProgramIsMissing() throws Exception {
        // aider is looked for on this Paddock's PATH (CI has none). Where it is installed, the start itself is
        // not this test's subject: the record is still checked, and the run is stopped.
        boolean aiderMissing = dev.paddock.agent.ExecutableLocator.locate(
                        dev.paddock.agent.AgentPreset.AIDER, null, System.getenv("PATH"))
                .isEmpty();
        ObjectNode body = request("Tidy the readme", null)
                .put("agent", "aider")
                .put("model", "gpt-4.1")
                .put("maxRetries", 0)
                .put("tier", "worktree");
        body.remove("command");

        HttpResponse<String> r = create(body);

        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        assertThat(json(r).get("agent").asText()).isEqualTo("aider");
        assertThat(json(r).get("model").asText()).isEqualTo("gpt-4.1");
        String id = json(r).get("id").asText();
        if (!aiderMissing) {
            host.wiring().sandboxService().stop(id, "the test: aider is installed here");
            return;
        }
        JsonNode failed = awaitState(id, "awaiting_human");
        assertThat(failed.at("/sandbox/lastError").asText())
                .startsWith("Cannot start the aider agent of " + id + ": no executable \"aider\" on Paddock's PATH (");
    }

    @Test
    void stoppingARunningAgentKillsItsProcessTreeAndHandsTheSandboxToAPerson() throws Exception {
        String id = json(create(request("Sleep a long time", "sleep 300")))
                .get("id")
                .asText();
        JsonNode running = awaitState(id, "running");
        ProcessHandle wrapper =
                ProcessHandle.of(running.at("/sandbox/pid").asLong()).orElseThrow();
        List<ProcessHandle> tree = awaitTreeWith(wrapper, "sleep");

        HttpResponse<String> r = call("POST", "/v1/sandboxes/" + id + "/stop", "{\"by\": \"ann\"}", installToken);

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(json(r).get("state").asText()).isEqualTo("awaiting_human");
        assertThat(json(r).get("lastError").asText()).isEqualTo("stopped by ann");
        // Running, not alive: here PID 1 may leave the killed processes as zombies for a while.
        assertThat(tree)
                .allSatisfy(p -> assertThat(ProcessTree.isRunning(p))
                        .as("pid %d", p.pid())
                        .isFalse());
        JsonNode after = detail(id);
        assertThat(after.at("/sandbox/pid").isNull()).isTrue();
        assertThat(after.get("history").findValuesAsText("message")).contains(id + " was stopped by ann");

        HttpResponse<String> again = call("POST", "/v1/sandboxes/" + id + "/stop", null, installToken);
        assertThat(again.statusCode()).isEqualTo(409);
        assertThat(json(again).get("error").asText())
                .isEqualTo(id + " is awaiting_human, not running: there is" + " nothing to stop.");
    }

    @Test
    void aStoppedSandboxCanBeRetriedAndRunsAgain() throws Exception {
        String id = json(create(request("Count sheep", "sleep 300"))).get("id").asText();
        awaitState(id, "running");
        assertThat(call("POST", "/v1/sandboxes/" + id + "/stop", null, installToken)
                        .statusCode())
                .isEqualTo(200);

        HttpResponse<String> r = call("POST", "/v1/sandboxes/" + id + "/retry", null, installToken);

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(json(r).get("state").asText()).isIn("retrying", "running");
        JsonNode rerun = awaitState(id, "running");
        assertThat(rerun.at("/sandbox/iteration").asInt()).isEqualTo(2);
        assertThat(rerun.get("history").findValuesAsText("message")).contains(id + " retried by the API");
    }

    @Test
    void heartbeatsAreAcceptedFromTheSandboxItselfOrTheInstallTokenOnly() throws Exception {
        String a = json(create(request("Agent alpha", "sleep 300"))).get("id").asText();
        String b = json(create(request("Agent bravo", "sleep 300"))).get("id").asText();
        awaitState(a, "running");
        JsonNode before = awaitState(b, "running");
        String tokenA = AgentEnvironment.awaitToken(host.wiring().sandboxes(), a);
        String tokenB = AgentEnvironment.awaitToken(host.wiring().sandboxes(), b);
        String path = "/v1/sandboxes/" + a + "/heartbeat";

        HttpResponse<String> none = call("POST", path, progress("from nobody"), null);
        HttpResponse<String> wrong = call("POST", path, progress("from a guess"), "not-a-token");
        HttpResponse<String> other = call("POST", path, progress("from bravo"), tokenB);

        assertThat(none.statusCode()).isEqualTo(401);
        assertThat(json(none).get("error").asText()).isEqualTo("missing bearer token");
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(json(wrong).get("error").asText()).isEqualTo("invalid token");
        assertThat(other.statusCode()).isEqualTo(403);
        assertThat(json(other).get("error").asText())
                .isEqualTo("this token belongs to sandbox " + b + "; it cannot send heartbeats for " + a);
        assertThat(detail(a).at("/sandbox/lastHeartbeatAt").isNull())
                .as("nothing recorded")
                .isTrue();

        HttpResponse<String> own = call("POST", path, progress("halfway — 50 %"), tokenA);

        assertThat(own.statusCode()).as(own.body()).isEqualTo(200);
        JsonNode afterOwn = detail(a).get("sandbox");
        assertThat(afterOwn.get("progress").asText()).isEqualTo("halfway — 50 %");
        Instant beat = Instant.parse(afterOwn.get("lastHeartbeatAt").asText());
        assertThat(Instant.parse(afterOwn.get("leaseExpiresAt").asText()))
                .isEqualTo(beat.plusMillis(afterOwn.get("leaseMs").asLong()));
        assertThat(detail(b).get("sandbox").get("progress").isNull())
                .as("b untouched")
                .isTrue();

        HttpResponse<String> install =
                call("POST", "/v1/sandboxes/" + b + "/heartbeat", progress("nudged"), installToken);

        assertThat(install.statusCode()).as(install.body()).isEqualTo(200);
        assertThat(detail(b).at("/sandbox/progress").asText()).isEqualTo("nudged");
        assertThat(Instant.parse(detail(b).at("/sandbox/leaseExpiresAt").asText()))
                .isAfter(Instant.parse(before.at("/sandbox/leaseExpiresAt").asText()));
    }

    @Test
    void slowStopsDoNotHoldUpHeartbeats() throws Exception {
        // Agents that ignore SIGTERM: each stop waits the whole grace period (3 s), then kills.
        List<String> stubborn = new ArrayList<>();
        for (int i = 1; i <= 4; i++) {
            stubborn.add(json(create(request("Stubborn " + i, "trap '' TERM; echo armed; sleep 300")))
                    .get("id")
                    .asText());
        }
        String beating = json(create(request("Beating", "sleep 300"))).get("id").asText();
        for (String id : stubborn) {
            awaitState(id, "running");
            awaitLog(id, "armed"); // running is recorded before the agent's shell has set its trap
        }
        awaitState(beating, "running");
        String token = AgentEnvironment.awaitToken(host.wiring().sandboxes(), beating);

        List<java.util.concurrent.CompletableFuture<HttpResponse<String>>> stops = new ArrayList<>();
        for (String id : stubborn) {
            stops.add(HTTP.sendAsync(
                    HttpRequest.newBuilder(
                                    URI.create("http://127.0.0.1:" + host.apiPort() + "/v1/sandboxes/" + id + "/stop"))
                            .header("Authorization", "Bearer " + installToken)
                            .POST(HttpRequest.BodyPublishers.noBody())
                            .build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        Thread.sleep(300); // the stops have reached the server and wait for their grace period

        HttpResponse<String> beat =
                call("POST", "/v1/sandboxes/" + beating + "/heartbeat", progress("still here"), token);

        assertThat(beat.statusCode()).as(beat.body()).isEqualTo(200);
        assertThat(stops)
                .as("the heartbeat was answered while every stop still waited")
                .allMatch(f -> !f.isDone());
        for (var f : stops) {
            assertThat(f.get(30, java.util.concurrent.TimeUnit.SECONDS).statusCode())
                    .isEqualTo(200);
        }
    }

    @Test
    void aSandboxTokenIsRefusedOnEveryRouteButItsOwnHeartbeat() throws Exception {
        String a = json(create(request("Agent charlie", "sleep 300"))).get("id").asText();
        awaitState(a, "running");
        String tokenA = AgentEnvironment.awaitToken(host.wiring().sandboxes(), a);

        List<HttpResponse<String>> refused = List.of(
                call("GET", "/v1/health", null, tokenA),
                call("GET", "/v1/status?repo=" + q(repo.dir()), null, tokenA),
                call("GET", "/v1/sandboxes", null, tokenA),
                call("GET", "/v1/sandboxes/" + a, null, tokenA),
                call("GET", "/v1/sandboxes/" + a + "/log", null, tokenA),
                call("POST", "/v1/sandboxes/" + a + "/stop", null, tokenA),
                call("POST", "/v1/sandboxes/" + a + "/retry", null, tokenA),
                call("GET", "/v1/sandboxes/" + a + "/checkpoints", null, tokenA),
                call("POST", "/v1/sandboxes/" + a + "/rollback", "{\"to\": 1}", tokenA),
                call("DELETE", "/v1/sandboxes/" + a + "?mode=force", null, tokenA),
                call("POST", "/v1/sandboxes", request("Sneaky", "true").toString(), tokenA),
                call("GET", "/v1/nope", null, tokenA),
                // An agent cannot send itself a follow-up: that is a person's.
                call("POST", "/v1/sandboxes/" + a + "/say", "{\"text\": \"go on\"}", tokenA));

        assertThat(refused).allSatisfy(r -> {
            assertThat(r.statusCode())
                    .as(r.request().method() + " " + r.request().uri())
                    .isEqualTo(403);
            assertThat(json(r).get("error").asText())
                    .isEqualTo("a sandbox's token may only send that sandbox's"
                            + " heartbeats (POST /v1/sandboxes/" + a
                            + "/heartbeat), take its checkpoints (POST /v1/sandboxes/"
                            + a
                            + "/checkpoints), ask for its agent's decisions (POST /v1/decide, POST /v1/hooks/claude)"
                            + " and tell its turn's end (POST /v1/hooks/claude/turn)");
        });
        assertThat(detail(a).at("/sandbox/state").asText()).isEqualTo("running");
        assertThat(ids(call("GET", "/v1/sandboxes?repo=" + q(repo.dir()), null, installToken)))
                .containsExactly(a);
    }

    @Test
    void aHeartbeatForASandboxThatIsNotRunningIs409AndForNoSandbox404() throws Exception {
        // The agent keeps its token where the test finds it after the agent ended (the store has its hash only).
        Path kept = tmp.resolve("token");
        Path go = tmp.resolve("go");
        String id = json(create(request(
                        "Quick job",
                        "printf %s \"$PADDOCK_TOKEN\" > '" + kept + ".part'; mv '" + kept + ".part' '" + kept
                                + "'; while [ ! -e '" + go + "' ]; do sleep 0.1; done; exit 0")))
                .get("id")
                .asText();
        for (int i = 0; i < 300 && !Files.exists(kept); i++) {
            Thread.sleep(100);
        }
        String token = Files.readString(kept);
        // A heartbeat while it runs is taken (and the store remembers that it runs) ...
        assertThat(call("POST", "/v1/sandboxes/" + id + "/heartbeat", progress("early"), token)
                        .statusCode())
                .isEqualTo(200);
        Files.writeString(go, "");
        awaitState(id, "done");

        // ... and one after it ended is not: its transition made the store forget.
        HttpResponse<String> late = call("POST", "/v1/sandboxes/" + id + "/heartbeat", progress("late"), token);
        HttpResponse<String> nobody =
                call("POST", "/v1/sandboxes/no-such-thing/heartbeat", progress("x"), installToken);

        assertThat(late.statusCode()).isEqualTo(409);
        assertThat(json(late).get("error").asText())
                .isEqualTo(id + " is done, not running: the heartbeat was not" + " recorded.");
        assertThat(detail(id).at("/sandbox/progress").asText()).isEqualTo("early");
        assertThat(nobody.statusCode()).isEqualTo(404);
        assertThat(json(nobody).get("error").asText()).isEqualTo("No sandbox no-such-thing.");
    }

    @Test
    void anInvalidBranchNameIs400AndChangesNothing() throws Exception {
        assertRefusedAndNothingChanged(
                request("Bad branch", "true").put("branch", "feature..x"),
                400,
                "\"feature..x\" is not a valid branch name (git check-ref-format refuses it).");
    }

    @Test
    void anIdWithDotDotIs400AndChangesNothing() throws Exception {
        assertRefusedAndNothingChanged(
                request("Escape", "true").put("id", "../../escape"),
                400,
                "\"../../escape\" is not a valid sandbox id: use 1 to 64 lower-case letters, digits and dashes"
                        + " (it names a folder under .worktrees/).");
    }

    @Test
    void anExistingTargetDirectoryIs409AndChangesNothing() throws Exception {
        Path taken = Files.createDirectories(repo.dir().resolve(".worktrees/taken"));
        Files.writeString(taken.resolve("notes.txt"), "someone's files");

        assertRefusedAndNothingChanged(
                request("Taken", "true").put("id", "taken"),
                409,
                "The directory " + taken + " exists already; remove it or choose another id.");
        assertThat(taken.resolve("notes.txt")).hasContent("someone's files");
    }

    @Test
    void anEmptyCommandIs400AndChangesNothing() throws Exception {
        assertRefusedAndNothingChanged(
                request("Nothing to run", "   "),
                400,
                "The agent command is empty: say what the agent runs (--cmd CMD), or pick an agent (--agent"
                        + " claude|codex|gemini|aider|custom).");
    }

    @Test
    void aBranchCheckedOutElsewhereIs409AndChangesNothing() throws Exception {
        Path elsewhere = repo.addWorktree(tmp.resolve("wt-login"), "feature/login");

        assertRefusedAndNothingChanged(
                request("Login again", "true").put("branch", "feature/login"),
                409,
                "The branch feature/login is already checked out in " + elsewhere
                        + "; git allows a branch in one worktree only. Choose another branch.");
    }

    @Test
    void aNegativeNumberOfRetriesIs400AndChangesNothing() throws Exception {
        assertRefusedAndNothingChanged(
                request("Retry forever", "true").put("maxRetries", -1),
                400,
                "The number of retries cannot be negative (got -1).");
    }

    @Test
    void retriesOrALeaseBeyondTheSettingsBoundsAre400AndChangeNothing() throws Exception {
        assertRefusedAndNothingChanged(
                request("Retry a lot", "true").put("maxRetries", 1000),
                400,
                "The number of retries can be at most 100 (got 1000).");
        assertRefusedAndNothingChanged(
                request("Sleep long", "true").put("leaseMs", 120_000_000L),
                400,
                "The lease can be at most 24 hours (86400000 ms; got 120000000 ms): an agent that long silent is"
                        + " better stopped.");
    }

    @Test
    void aRefusedRequestLeavesTheRepositoryUnregistered() throws Exception {
        assertThat(snapshot()).startsWith("registered: false");

        assertRefusedAndNothingChanged(
                request("Bad branch", "true").put("branch", "-x"),
                400,
                "\"-x\" is not a valid branch name (git check-ref-format refuses it).");
        assertThat(snapshot()).startsWith("registered: false");
    }

    @Test
    void malformedRequestsAre400WithTheReason() throws Exception {
        HttpResponse<String> notJson = call("POST", "/v1/sandboxes", "{not json", installToken);
        HttpResponse<String> empty = call("POST", "/v1/sandboxes", "", installToken);
        HttpResponse<String> relative = create(request("Relative", "true").put("repo", "some/dir"));
        HttpResponse<String> tier = create(request("Tiered", "true").put("tier", "vm"));
        HttpResponse<String> lease = create(request("Leased", "true").put("leaseMs", "soon"));
        HttpResponse<String> mode = call("DELETE", "/v1/sandboxes/x?mode=gently", null, installToken);

        assertThat(List.of(notJson, empty, relative, tier, lease, mode))
                .allSatisfy(r -> assertThat(r.statusCode()).as(r.body()).isEqualTo(400));
        assertThat(json(notJson).get("error").asText()).startsWith("the request body is not the expected JSON");
        assertThat(json(empty).get("error").asText()).startsWith("the request body is empty");
        assertThat(json(relative).get("error").asText()).isEqualTo("repo must be an absolute path: some/dir");
        assertThat(json(tier).get("error").asText())
                .isEqualTo("unknown tier \"vm\": use worktree, namespace or container");
        assertThat(json(lease).get("error").asText()).startsWith("the request body is not the expected JSON");
        assertThat(json(mode).get("error").asText()).isEqualTo("unknown mode \"gently\": use strict, commit or force");
        assertThat(Files.exists(repo.dir().resolve(".worktrees"))).isFalse();
    }

    @Test
    void anUnknownSandboxIs404OnEveryRoute() throws Exception {
        List<HttpResponse<String>> answers = List.of(
                call("GET", "/v1/sandboxes/ghost", null, installToken),
                call("GET", "/v1/sandboxes/ghost/log", null, installToken),
                call("GET", "/v1/sandboxes/ghost/removal", null, installToken),
                call("POST", "/v1/sandboxes/ghost/stop", null, installToken),
                call("POST", "/v1/sandboxes/ghost/retry", null, installToken),
                call("DELETE", "/v1/sandboxes/ghost", null, installToken));

        assertThat(answers).allSatisfy(r -> {
            assertThat(r.statusCode()).as(r.request().uri().toString()).isEqualTo(404);
            assertThat(json(r).get("error").asText()).isEqualTo("No sandbox ghost.");
        });
        assertThat(call("GET", "/v1/sandboxes/ghost/tail", null, installToken).statusCode())
                .isEqualTo(404);
        assertThat(call("PUT", "/v1/sandboxes/ghost", "{}", installToken).statusCode())
                .isEqualTo(405);
        assertThat(call("GET", "/v1/sandboxes/ghost/stop", null, installToken).statusCode())
                .isEqualTo(405);
    }

    @Test
    void listingARepositoryThatIsNotAGitRepositoryIs404AndOneWithoutSandboxesIsEmpty() throws Exception {
        HttpResponse<String> plain = call("GET", "/v1/sandboxes?repo=" + q(tmp), null, installToken);
        HttpResponse<String> fresh = call("GET", "/v1/sandboxes?repo=" + q(repo.dir()), null, installToken);

        assertThat(plain.statusCode()).isEqualTo(404);
        assertThat(json(plain).get("error").asText()).contains("is not inside a git repository");
        assertThat(fresh.statusCode()).isEqualTo(200);
        assertThat(ids(fresh)).isEmpty();
    }

    // --- helpers ---------------------------------------------------------------------------------------

    /** Sends the request, expects {@code status} and {@code message}, and checks git, disk and store are as before. */
    private void assertRefusedAndNothingChanged(ObjectNode body, int status, String message) throws Exception {
        String before = snapshot();
        int recordsBefore = host.wiring().sandboxService().list(null).size();

        HttpResponse<String> r = create(body);

        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        assertThat(json(r).get("error").asText()).isEqualTo(message);
        assertThat(snapshot()).isEqualTo(before);
        assertThat(host.wiring().sandboxService().list(null)).hasSize(recordsBefore);
        assertThat(ids(call("GET", "/v1/sandboxes?repo=" + q(repo.dir()), null, installToken)))
                .isEmpty();
    }

    /**
     * Whether the test's repository is registered, its branches, worktrees and every path under .worktrees/.
     */
    private String snapshot() throws Exception {
        StringBuilder b = new StringBuilder();
        HttpResponse<String> status = call("GET", "/v1/status?repo=" + q(repo.dir()), null, installToken);
        b.append("registered: ")
                .append(json(status).at("/repository/registered").asBoolean())
                .append('\n');
        b.append(repo.git("for-each-ref", "--format=%(refname) %(objectname)", "refs/heads"));
        b.append(repo.git("worktree", "list", "--porcelain"));
        Path root = repo.dir().resolve(".worktrees");
        if (Files.exists(root)) {
            try (Stream<Path> walk = Files.walk(root)) {
                walk.sorted().forEach(p -> b.append(root.relativize(p)).append('\n'));
            }
        }
        return b.toString();
    }

    private ObjectNode request(String task, String command) {
        ObjectNode n = Json.mapper().createObjectNode();
        n.put("repo", repo.dir().toString());
        n.put("task", task);
        n.put("command", command);
        return n;
    }

    private static String progress(String text) {
        return Json.mapper().createObjectNode().put("progress", text).toString();
    }

    private static HttpResponse<String> create(ObjectNode body) throws Exception {
        return call("POST", "/v1/sandboxes", body.toString(), installToken);
    }

    private static JsonNode detail(String id) throws Exception {
        HttpResponse<String> r = call("GET", "/v1/sandboxes/" + id, null, installToken);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return json(r);
    }

    /** Polls {@code GET /v1/sandboxes/{id}} until its state is {@code state}; returns that answer. */
    private static void awaitLog(String id, String line) throws Exception {
        long deadline = System.nanoTime() + AGENT_TIMEOUT.toNanos();
        while (!host.wiring().sandboxService().logTail(id).lines().anyMatch(line::equals)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(id + " did not print " + line + " within " + AGENT_TIMEOUT);
            }
            Thread.sleep(50);
        }
    }

    private static JsonNode awaitState(String id, String state) throws Exception {
        long deadline = System.nanoTime() + AGENT_TIMEOUT.toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            last = detail(id);
            if (last.at("/sandbox/state").asText().equals(state)) {
                return last;
            }
            Thread.sleep(50);
        }
        throw new AssertionError(id + " did not become " + state + " within " + AGENT_TIMEOUT + ": " + last);
    }

    /** Waits until the tree under {@code root} has a process whose command contains {@code name}; returns the tree. */
    private static List<ProcessHandle> awaitTreeWith(ProcessHandle root, String name) throws InterruptedException {
        Predicate<ProcessHandle> named = p -> p.info().commandLine().orElse("").contains(name);
        long deadline = System.nanoTime() + AGENT_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            List<ProcessHandle> tree = new ArrayList<>();
            tree.add(root);
            root.descendants().forEach(tree::add);
            if (tree.stream().anyMatch(named)) {
                return tree;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no " + name + " under pid " + root.pid());
    }

    private static List<String> ids(HttpResponse<String> list) {
        assertThat(list.statusCode()).as(list.body()).isEqualTo(200);
        List<String> out = new ArrayList<>();
        json(list).get("sandboxes").forEach(s -> out.add(s.get("id").asText()));
        return out;
    }

    @Test
    void theRepositorysContainerImageIsSetAndClearedThroughTheApi() throws Exception {
        String body = Json.mapper().writeValueAsString(Map.of("repo", repo.dir().toString(), "image", " node:22 "));
        HttpResponse<String> set = call("PUT", "/v1/repositories/container-image", body, installToken);

        assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
        assertThat(json(set).get("repo").asText()).isEqualTo(repo.dir().toString());
        assertThat(json(set).get("image").asText()).isEqualTo("node:22");
        long id = host.wiring().repoStore().findByPath(repo.dir()).orElseThrow().id();
        assertThat(host.wiring().repoStore().containerImage(id)).contains("node:22");

        HttpResponse<String> cleared = call(
                "PUT",
                "/v1/repositories/container-image",
                "{\"repo\": \"" + repo.dir() + "\", \"image\": null}",
                installToken);
        assertThat(cleared.statusCode()).as(cleared.body()).isEqualTo(200);
        assertThat(host.wiring().repoStore().containerImage(id)).isEmpty();

        HttpResponse<String> noRepo =
                call("PUT", "/v1/repositories/container-image", "{\"image\": \"x\"}", installToken);
        assertThat(noRepo.statusCode()).isEqualTo(400);
        assertThat(json(noRepo).get("error").asText()).startsWith("repo is missing");
        assertThat(call("GET", "/v1/repositories/container-image", null, installToken)
                        .statusCode())
                .isEqualTo(405);
    }

    private static HttpResponse<String> call(String method, String pathAndQuery, String body, String token)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + host.apiPort() + pathAndQuery))
                .timeout(Duration.ofSeconds(20))
                .method(
                        method,
                        body == null
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private static JsonNode json(HttpResponse<String> r) {
        assertThat(r.headers().firstValue("Content-Type")).contains("application/json; charset=utf-8");
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
