package dev.paddock.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.Host;
import dev.paddock.common.Json;
import dev.paddock.events.Event;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.settings.PaddockHome;
import dev.paddock.settings.SettingsStore;
import dev.paddock.testing.AgentEnvironment;
import dev.paddock.testing.TempRepo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The settings routes over real HTTP against a real running Paddock ({@link Host}) and a real H2 file. */
class SettingsApiTest {
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final String KNOWN = "Known settings: agents.aider.executable, agents.claude.executable,"
            + " agents.codex.executable, agents.gemini.executable, approval.timeoutMs, checkpoints.everySeconds, checkpoints.keep, checkpoints.retentionDays,"
            + " events.retentionDays, layers.capMb,"
            + " reconcile.intervalMs, sandbox.killGraceMs, sandbox.leaseMs, sandbox.maxRetries, ui.notifications.desktop.";

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

    /** Each test starts from the defaults; agents outlive a closed Paddock, so stop any still running. */
    @AfterEach
    void cleanUp() throws Exception {
        for (var s : SettingsStore.KNOWN) {
            host.wiring().settings().reset(s.name(), "the test's clean-up");
        }
        for (SandboxRecord s : host.wiring().sandboxService().list(null)) {
            if (s.state() == SandboxState.RUNNING
                    || s.state() == SandboxState.PENDING
                    || s.state() == SandboxState.RETRYING) {
                host.wiring().sandboxService().stop(s.id(), "the test's clean-up");
            }
        }
    }

    @Test
    void listSetAndResetRoundTripAndEachChangeShowsInTheFeed() throws Exception {
        HttpResponse<String> list = call("GET", "/v1/settings", null, installToken);

        assertThat(list.statusCode()).as(list.body()).isEqualTo(200);
        assertThat(json(list).get("settings").findValuesAsText("name"))
                .containsExactly(
                        "agents.aider.executable",
                        "agents.claude.executable",
                        "agents.codex.executable",
                        "agents.gemini.executable",
                        "approval.timeoutMs",
                        "checkpoints.everySeconds",
                        "checkpoints.keep",
                        "checkpoints.retentionDays",
                        "events.retentionDays",
                        "layers.capMb",
                        "reconcile.intervalMs",
                        "sandbox.killGraceMs",
                        "sandbox.leaseMs",
                        "sandbox.maxRetries",
                        "ui.notifications.desktop");
        JsonNode retries = json(list).get("settings").get(13);
        assertThat(retries.get("value").asText()).isEqualTo("2");
        assertThat(retries.get("defaultValue").asText()).isEqualTo("2");
        assertThat(retries.get("unit").asText()).isEqualTo("retries");
        assertThat(retries.get("type").asText()).isEqualTo("integer");
        assertThat(retries.get("allowed").asText()).isEqualTo("a whole number from 0 to 100 (retries)");
        assertThat(retries.get("isDefault").asBoolean()).isTrue();

        HttpResponse<String> put =
                call("PUT", "/v1/settings/sandbox.maxRetries", "{\"value\": \"5\", \"by\": \"ann\"}", installToken);

        assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
        assertThat(json(put).get("value").asText()).isEqualTo("5");
        assertThat(json(put).get("isDefault").asBoolean()).isFalse();
        assertThat(json(call("GET", "/v1/settings/sandbox.maxRetries", null, installToken))
                        .get("value")
                        .asText())
                .isEqualTo("5");

        HttpResponse<String> number = call("PUT", "/v1/settings/sandbox.leaseMs", "{\"value\": 60000}", installToken);

        assertThat(number.statusCode()).as(number.body()).isEqualTo(200);
        assertThat(json(number).get("value").asText()).isEqualTo("60000");

        HttpResponse<String> reset = call("DELETE", "/v1/settings/sandbox.maxRetries?by=bob", null, installToken);

        assertThat(reset.statusCode()).as(reset.body()).isEqualTo(200);
        assertThat(json(reset).get("value").asText()).isEqualTo("2");
        assertThat(json(reset).get("isDefault").asBoolean()).isTrue();
        assertThat(host.wiring().events().recent(-1, 3))
                .extracting(Event::message)
                .containsExactly(
                        "Setting sandbox.maxRetries reset 5 → 2 (the default) by bob",
                        "Setting sandbox.leaseMs changed 900000 → 60000 by the API",
                        "Setting sandbox.maxRetries changed 2 → 5 by ann");
    }

    @Test
    void aBadValueIs400WithTheMessageAndChangesNothing() throws Exception {
        long eventsBefore = newestEventId();

        HttpResponse<String> tooMany =
                call("PUT", "/v1/settings/sandbox.maxRetries", "{\"value\": \"500\"}", installToken);
        HttpResponse<String> text =
                call("PUT", "/v1/settings/sandbox.killGraceMs", "{\"value\": \"soon\"}", installToken);
        HttpResponse<String> noValue = call("PUT", "/v1/settings/sandbox.killGraceMs", "{}", installToken);
        HttpResponse<String> notJson = call("PUT", "/v1/settings/sandbox.killGraceMs", "5", installToken);

        assertThat(tooMany.statusCode()).isEqualTo(400);
        assertThat(json(tooMany).get("error").asText())
                .isEqualTo("Setting sandbox.maxRetries cannot be \"500\": it"
                        + " takes a whole number from 0 to 100 (retries).");
        assertThat(text.statusCode()).isEqualTo(400);
        assertThat(json(text).get("error").asText()).startsWith("Setting sandbox.killGraceMs cannot be \"soon\"");
        assertThat(noValue.statusCode()).isEqualTo(400);
        assertThat(json(noValue).get("error").asText())
                .isEqualTo("send the new value of sandbox.killGraceMs as" + " {\"value\": \"...\"}");
        assertThat(notJson.statusCode()).isEqualTo(400);
        assertThat(host.wiring().settings().all())
                .allSatisfy(e -> assertThat(e.isDefault()).isTrue());
        assertThat(newestEventId()).isEqualTo(eventsBefore);
    }

    @Test
    void anUnknownSettingIs404ListingTheKnownOnesOnEveryRoute() throws Exception {
        List<HttpResponse<String>> answers = List.of(
                call("GET", "/v1/settings/sandbox.retries", null, installToken),
                call("PUT", "/v1/settings/sandbox.retries", "{\"value\": \"5\"}", installToken),
                call("PUT", "/v1/settings/sandbox.retries", "{}", installToken),
                call("DELETE", "/v1/settings/sandbox.retries", null, installToken));

        assertThat(answers).allSatisfy(r -> {
            assertThat(r.statusCode()).as(r.body()).isEqualTo(404);
            assertThat(json(r).get("error").asText()).isEqualTo("There is no setting \"sandbox.retries\". " + KNOWN);
        });
        assertThat(call("POST", "/v1/settings/sandbox.maxRetries", "{}", installToken)
                        .statusCode())
                .isEqualTo(405);
        assertThat(call("PUT", "/v1/settings", "{}", installToken).statusCode()).isEqualTo(405);
        assertThat(call("GET", "/v1/settings/sandbox.maxRetries/x", null, installToken)
                        .statusCode())
                .isEqualTo(404);
    }

    @Test
    void aSandboxTokenIsRefused403AndNoTokenIs401OnEverySettingsRoute() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("repo"));
        String id = json(create(repo, null)).get("id").asText();
        String sandboxToken = AgentEnvironment.awaitToken(host.wiring().sandboxes(), id);

        for (String token : new String[] {sandboxToken, null}) {
            List<HttpResponse<String>> answers = List.of(
                    call("GET", "/v1/settings", null, token),
                    call("GET", "/v1/settings/sandbox.maxRetries", null, token),
                    call("PUT", "/v1/settings/sandbox.maxRetries", "{\"value\": \"50\"}", token),
                    call("DELETE", "/v1/settings/sandbox.maxRetries", null, token));
            int expected = token == null ? 401 : 403;
            assertThat(answers)
                    .allSatisfy(r -> assertThat(r.statusCode()).as(r.body()).isEqualTo(expected));
        }
        assertThat(host.wiring().settings().get(SettingsStore.SANDBOX_MAX_RETRIES))
                .isEqualTo(2);
    }

    @Test
    void aChangedMaxRetriesIsUsedByTheNextSandboxCreatedWithoutARestart() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("repo"));
        String before = json(create(repo, "Before the change")).get("id").asText();

        assertThat(call("PUT", "/v1/settings/sandbox.maxRetries", "{\"value\": \"7\"}", installToken)
                        .statusCode())
                .isEqualTo(200);
        assertThat(call("PUT", "/v1/settings/sandbox.leaseMs", "{\"value\": \"120000\"}", installToken)
                        .statusCode())
                .isEqualTo(200);
        JsonNode after = json(create(repo, "After the change"));

        assertThat(after.get("maxRetries").asInt()).isEqualTo(7);
        assertThat(after.get("leaseMs").asLong()).isEqualTo(120_000L);
        assertThat(host.wiring().sandboxService().find(before).run().maxRetries())
                .as("a sandbox keeps its own value")
                .isEqualTo(2);
    }

    private static HttpResponse<String> create(TempRepo repo, String task) throws Exception {
        String body = Json.mapper()
                .createObjectNode()
                .put("repo", repo.dir().toString())
                .put("task", task == null ? "Sleep a while" : task)
                .put("command", "sleep 300")
                .toString();
        HttpResponse<String> r = call("POST", "/v1/sandboxes", body, installToken);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        return r;
    }

    private static long newestEventId() throws Exception {
        return host.wiring().events().recent(-1, 1).stream()
                .mapToLong(Event::id)
                .findFirst()
                .orElse(0);
    }

    @Test
    void everyAnswerClosesItsConnectionSoNoClientSendsARequestOnOneTheServerClosed() throws Exception {
        ApiClient cli = ApiClient.of("http://127.0.0.1:" + host.apiPort(), installToken);
        HttpResponse<String> read = call("GET", "/v1/settings", null, installToken);
        assertThat(read.headers().firstValue("Connection")).hasValue("close");

        // The CLI's client keeps connections alive where the server allows it: a refusal followed at once by a
        // change must each get their own answer, never "Unexpected end of file from server".
        for (int i = 0; i < 20; i++) {
            String bad = "{\"value\": \"5\", \"by\": \"test\"}";
            org.assertj.core.api.Assertions.assertThatThrownBy(
                            () -> cli.send("PUT", "/v1/settings/reconcile.intervalMs", bad))
                    .isInstanceOf(ApiAnswerException.class)
                    .hasMessageContaining("cannot be \"5\"");
            assertThat(cli.send(
                            "PUT",
                            "/v1/settings/reconcile.intervalMs",
                            "{\"value\": \"" + (60000 + i) + "\", \"by\": \"test\"}"))
                    .contains("\"value\":\"" + (60000 + i));
        }
    }

    private static HttpResponse<String> call(String method, String path, String body, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + host.apiPort() + path))
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
        try {
            return Json.mapper().readTree(r.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
