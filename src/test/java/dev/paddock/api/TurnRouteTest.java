package dev.paddock.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.Host;
import dev.paddock.agent.TurnHook;
import dev.paddock.common.Json;
import dev.paddock.events.Event;
import dev.paddock.events.EventBus;
import dev.paddock.events.EventKinds;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.RemoveMode;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.settings.PaddockHome;
import dev.paddock.testing.TempRepo;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /v1/hooks/claude/turn} over real HTTP against a real running Paddock ({@link Host}), with real agent
 * processes, the real turn hook script ({@link TurnHook}) and requests signed as it signs them ({@link HookAuth}).
 */
class TurnRouteTest {
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final String STOP = "{\"session_id\":\"s-1\",\"transcript_path\":\"/t.jsonl\",\"cwd\":\"/w\","
            + "\"hook_event_name\":\"Stop\",\"stop_hook_active\":false,\"last_assistant_message\":\"All done.\"}";

    @TempDir
    static Path shared;

    private static Host host;
    private static PaddockHome home;
    private static String installToken;

    @TempDir
    Path tmp;

    private TempRepo repo;
    private final List<Event> heard = new CopyOnWriteArrayList<>();
    private EventBus.Subscription subscription;

    @BeforeAll
    static void start() throws Exception {
        home = PaddockHome.resolve(shared.resolve("home"), Map.of());
        host = Host.start(home, "serve");
        installToken = ApiToken.read(home.tokenFile()).value();
    }

    @AfterAll
    static void stop() {
        host.close();
    }

    @BeforeEach
    void open() {
        repo = TempRepo.init(tmp.resolve("repo"));
        subscription = host.wiring().bus().subscribe(List.of("agent."), heard::add);
    }

    @AfterEach
    void stopAgents() throws Exception {
        subscription.close();
        for (SandboxRecord s : host.wiring().sandboxService().list(null)) {
            if (s.state() == SandboxState.RUNNING
                    || s.state() == SandboxState.PENDING
                    || s.state() == SandboxState.RETRYING) {
                host.wiring().sandboxService().stop(s.id(), "the test's clean-up");
            }
        }
    }

    @Test
    void theTurnHookMakesARunningSandboxWaitForYouWithinASecondAndTheSameSignalCountsOnce() throws Exception {
        String id = running("sleep 60");
        Path script = TurnHook.write(home.dir());

        // The hook's environment as a sandbox's agent has it, without a turn file: the API is the only channel.
        ProcessBuilder pb = new ProcessBuilder(script.toString());
        pb.environment().clear();
        pb.environment()
                .putAll(Map.of(
                        "PATH",
                        "/usr/bin:/bin",
                        "PADDOCK_API",
                        "http://127.0.0.1:" + host.apiPort(),
                        "PADDOCK_SANDBOX_ID",
                        id,
                        HookAuth.KEY_VARIABLE,
                        HookAuth.sandboxKey(installToken, id)));
        Process p = pb.start();
        p.getOutputStream().write(STOP.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        long exited = System.nanoTime();

        awaitHeard(EventKinds.AGENT_TURN_ENDED, id, Duration.ofSeconds(1));
        assertThat(System.nanoTime() - exited).isLessThan(Duration.ofSeconds(1).toNanos());
        JsonNode waiting = detail(id).get("waiting");
        assertThat(waiting.get("kind").asText()).isEqualTo("turn_ended");
        assertThat(waiting.get("detail").asText()).isEqualTo("All done.");
        assertThat(waiting.get("sessionId").asText()).isEqualTo("s-1");

        // The same input once more (the turn file's copy, say): answered 204, not counted again.
        HttpResponse<String> again = signed(
                "sandbox/" + id, HookAuth.sandboxKey(installToken, id), TurnHook.ROUTE + "?sandbox=" + id, STOP + "\n");
        assertThat(again.statusCode()).as(again.body()).isEqualTo(204);
        assertThat(again.headers().firstValue(HookAuth.PROOF_HEADER)).isPresent();
        Thread.sleep(300);
        assertThat(heard)
                .filteredOn(e -> e.kind().equals(EventKinds.AGENT_TURN_ENDED))
                .hasSize(1);
        assertThat(host.wiring().sandboxService().history(id))
                .filteredOn(e -> e.kind().startsWith("agent."))
                .singleElement()
                .satisfies(e -> assertThat(e.sandboxId()).isEqualTo(id));

        // A notification is a second, different signal.
        String note = "{\"session_id\":\"s-1\",\"hook_event_name\":\"Notification\",\"message\":\"Claude needs your"
                + " permission to use Bash\",\"notification_type\":\"permission_prompt\"}";
        HttpResponse<String> n = signed("sandbox/" + id, HookAuth.sandboxKey(installToken, id), TurnHook.ROUTE, note);
        assertThat(n.statusCode()).as(n.body()).isEqualTo(204);
        awaitHeard(EventKinds.AGENT_WAITING, id, Duration.ofSeconds(1));
        assertThat(detail(id).at("/waiting/notificationType").asText()).isEqualTo("permission_prompt");
    }

    @Test
    void unsignedWronglySignedOrMalformedRequestsAreRefusedClearlyAndChangeNothing() throws Exception {
        String id = running("sleep 60");
        String key = HookAuth.sandboxKey(installToken, id);
        String target = TurnHook.ROUTE + "?sandbox=" + id;

        HttpResponse<String> unsigned = post(target, STOP, Map.of());
        HttpResponse<String> otherKey =
                signed("sandbox/" + id, HookAuth.sandboxKey(installToken, "someone-else"), target, STOP);
        HttpResponse<String> otherSandbox =
                signed("sandbox/" + id, key, TurnHook.ROUTE + "?sandbox=someone-else", STOP);
        HttpResponse<String> notJson = signed("sandbox/" + id, key, target, "not json");
        HttpResponse<String> preToolUse =
                signed("sandbox/" + id, key, target, "{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\"}");
        HttpResponse<String> installUnnamed =
                post(TurnHook.ROUTE, STOP, Map.of("Authorization", "Bearer " + installToken));
        HttpResponse<String> badHeader =
                post(target, STOP, Map.of(HookAuth.AUTH_HEADER, "v1 sandbox/" + id + " x y z"));

        assertThat(unsigned.statusCode()).as(unsigned.body()).isEqualTo(401);
        assertThat(error(unsigned)).isEqualTo("missing bearer token");
        assertThat(otherKey.statusCode()).as(otherKey.body()).isEqualTo(401);
        assertThat(error(otherKey)).startsWith("the hook's MAC does not match");
        assertThat(otherKey.headers().firstValue(HookAuth.PROOF_HEADER)).isEmpty();
        assertThat(otherSandbox.statusCode()).as(otherSandbox.body()).isEqualTo(403);
        assertThat(error(otherSandbox)).contains("belongs to sandbox " + id);
        assertThat(notJson.statusCode()).as(notJson.body()).isEqualTo(400);
        assertThat(error(notJson)).contains("Stop or Notification hook input");
        assertThat(preToolUse.statusCode()).as(preToolUse.body()).isEqualTo(400);
        assertThat(installUnnamed.statusCode()).as(installUnnamed.body()).isEqualTo(400);
        assertThat(error(installUnnamed)).contains("?sandbox=ID");
        assertThat(badHeader.statusCode()).as(badHeader.body()).isEqualTo(401);

        Thread.sleep(300);
        assertThat(heard).isEmpty();
        assertThat(detail(id).get("waiting").isNull()).isTrue();
        assertThat(host.wiring().sandboxService().history(id))
                .noneMatch(e -> e.kind().startsWith("agent."));
    }

    @Test
    void aSignalForARemovedSandboxIsRefusedWith409() throws Exception {
        String id = create("exit 0");
        awaitState(id, SandboxState.DONE);
        host.wiring().sandboxService().remove(id, RemoveMode.FORCE, true, "the test");

        HttpResponse<String> r =
                signed("sandbox/" + id, HookAuth.sandboxKey(installToken, id), TurnHook.ROUTE + "?sandbox=" + id, STOP);

        assertThat(r.statusCode()).as(r.body()).isEqualTo(409);
        assertThat(error(r)).contains(id + " is closed");
        assertThat(heard).isEmpty();
    }

    @Test
    void aFollowUpIsRefusedOverTheApiWhileTheAgentRunsAndForACustomCommand() throws Exception {
        String id = running("sleep 60");
        Map<String, String> install = Map.of("Authorization", "Bearer " + installToken);

        HttpResponse<String> busy = post("/v1/sandboxes/" + id + "/say", "{\"text\": \"go on\"}", install);
        host.wiring().sandboxService().stop(id, "the test");
        HttpResponse<String> custom = post("/v1/sandboxes/" + id + "/say", "{\"text\": \"go on\"}", install);
        HttpResponse<String> empty = post("/v1/sandboxes/" + id + "/say", "{\"text\": \" \"}", install);
        HttpResponse<String> unknown = post("/v1/sandboxes/no-such-001/say", "{\"text\": \"go on\"}", install);

        assertThat(busy.statusCode()).as(busy.body()).isEqualTo(409);
        assertThat(error(busy))
                .isEqualTo(id + " is running: its agent is still at work. Send the follow-up once its"
                        + " turn ended (it shows \"waiting for you\"), or stop it first.");
        assertThat(custom.statusCode()).as(custom.body()).isEqualTo(400);
        assertThat(error(custom))
                .startsWith(id + " cannot take a follow-up: a custom command has no session to resume");
        assertThat(empty.statusCode()).as(empty.body()).isEqualTo(400);
        assertThat(unknown.statusCode()).as(unknown.body()).isEqualTo(404);
        assertThat(host.wiring().sandboxService().find(id).state()).isEqualTo(SandboxState.AWAITING_HUMAN);
        assertThat(host.wiring().sandboxService().followUp(id)).isEmpty();
    }

    private String create(String command) throws Exception {
        return host.wiring()
                .sandboxService()
                .create(NewSandbox.custom(repo.dir(), "wait for a person", command)
                        .maxRetries(0)
                        .build())
                .id();
    }

    private String running(String command) throws Exception {
        String id = create(command);
        awaitState(id, SandboxState.RUNNING);
        return id;
    }

    private static void awaitState(String id, SandboxState state) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (host.wiring().sandboxService().find(id).state() != state) {
            assertThat(System.nanoTime())
                    .as(
                            "%s is %s, not %s",
                            id, host.wiring().sandboxService().find(id).state(), state)
                    .isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    private void awaitHeard(String kind, String id, Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (heard.stream().noneMatch(e -> e.kind().equals(kind) && id.equals(e.sandboxId()))) {
            assertThat(System.nanoTime())
                    .as("no %s event for %s within %s: %s", kind, id, within, heard)
                    .isLessThan(deadline);
            Thread.sleep(10);
        }
    }

    private static JsonNode detail(String id) throws Exception {
        HttpResponse<String> r = post("/v1/sandboxes/" + id, null, Map.of("Authorization", "Bearer " + installToken));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return Json.mapper().readTree(r.body());
    }

    private static String error(HttpResponse<String> r) throws Exception {
        return Json.mapper().readTree(r.body()).get("error").asText();
    }

    /** A request signed with {@code key} as the turn hook signs it. */
    private static HttpResponse<String> signed(String keyId, String key, String target, String body) throws Exception {
        long ts = System.currentTimeMillis() / 1000;
        byte[] n = new byte[16];
        new SecureRandom().nextBytes(n);
        String nonce = HexFormat.of().formatHex(n);
        String mac = HookAuth.requestMac(
                key,
                keyId,
                ts,
                nonce,
                "127.0.0.1:" + host.apiPort(),
                "POST",
                target,
                body.getBytes(StandardCharsets.UTF_8));
        return post(target, body, Map.of(HookAuth.AUTH_HEADER, "v1 " + keyId + " " + ts + " " + nonce + " " + mac));
    }

    /** POST with a body, or GET without one. */
    private static HttpResponse<String> post(String target, String body, Map<String, String> headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + host.apiPort() + target))
                .timeout(Duration.ofSeconds(20));
        b = body == null ? b.GET() : b.POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        headers.forEach(b::header);
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }
}
