package dev.paddock.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.paddock.Host;
import dev.paddock.api.ApiToken;
import dev.paddock.api.HookAuth;
import dev.paddock.approval.ApprovalState;
import dev.paddock.common.Json;
import dev.paddock.common.PaddockException;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.settings.PaddockHome;
import dev.paddock.settings.SettingsStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * A real running Paddock ({@link Host}: store, supervisor, broker, API) on a home, for approval tests:
 * repositories with a policy file, running sandboxes ({@code sleep 300} agents), HTTP calls.
 *
 * <p>The policy written by {@link #repoWithPolicy}: allow {@code Bash(git status)}, deny
 * {@code Bash(rm -rf:*)}, ask {@code Bash(git push:*)}; anything else is asked (unmatched).
 */
public final class BrokerRig implements AutoCloseable {
    public static final String POLICY = "{\"permissions\": {\"allow\": [\"Bash(git status)\"],"
            + " \"deny\": [\"Bash(rm -rf:*)\"], \"ask\": [\"Bash(git push:*)\"]}, \"note\": \"keep me\"}";
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final Duration WAIT = Duration.ofSeconds(30);

    private final PaddockHome home;
    private Host host;
    private final String installToken;

    private BrokerRig(PaddockHome home) throws PaddockException {
        this.home = home;
        this.host = Host.start(home, "serve");
        this.installToken = ApiToken.read(home.tokenFile()).value();
    }

    /** Starts a Paddock on {@code homeDir}. */
    public static BrokerRig start(Path homeDir) throws PaddockException {
        return new BrokerRig(PaddockHome.resolve(homeDir, Map.of()));
    }

    public Host host() {
        return host;
    }

    public PaddockHome home() {
        return home;
    }

    public String installToken() {
        return installToken;
    }

    public int port() {
        return host.apiPort();
    }

    /** Stops this Paddock and starts another on the same home (the agents keep running). */
    public void restart() throws PaddockException {
        host.close();
        host = Host.start(home, "serve");
    }

    /** Starts another Paddock on the same home after {@code host().close()}. */
    public void restartStopped() throws PaddockException {
        host = Host.start(home, "serve");
    }

    /** Sets the approval timeout, in ms. */
    public void approvalTimeout(long ms) throws PaddockException {
        host.wiring().settings().put(SettingsStore.APPROVAL_TIMEOUT_MS, ms);
    }

    /** A new repository at {@code dir} with {@link #POLICY} in {@code .paddock/policy.json}. */
    public static TempRepo repoWithPolicy(Path dir) {
        return repoWithPolicy(dir, POLICY);
    }

    /** A new repository at {@code dir} with {@code policy} (JSON text) in {@code .paddock/policy.json}. */
    public static TempRepo repoWithPolicy(Path dir, String policy) {
        TempRepo repo = TempRepo.init(dir);
        try {
            Files.createDirectories(dir.resolve(".paddock"));
            Files.writeString(dir.resolve(".paddock/policy.json"), policy);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return repo;
    }

    /** Creates a sandbox running {@code sleep 300} in {@code repo} and waits until it runs; returns it. */
    public SandboxRecord runningSandbox(TempRepo repo, String task) throws Exception {
        return runningSandbox(repo, task, "sleep 300");
    }

    /** Creates a sandbox running {@code command} in {@code repo} and waits until it runs; returns it. */
    public SandboxRecord runningSandbox(TempRepo repo, String task, String command) throws Exception {
        ObjectNode n = Json.mapper()
                .createObjectNode()
                .put("repo", repo.dir().toString())
                .put("task", task)
                .put("command", command);
        HttpResponse<String> r = call("POST", "/v1/sandboxes", n.toString(), installToken);
        if (r.statusCode() != 201) {
            throw new AssertionError("sandbox not created: " + r.statusCode() + " " + r.body());
        }
        String id = Json.mapper().readTree(r.body()).get("id").asText();
        await("sandbox " + id + " running", () -> state(id) == SandboxState.RUNNING);
        return host.wiring().sandboxes().find(id).orElseThrow();
    }

    /** The sandbox's own token, as its running agent got it ({@code PADDOCK_TOKEN} in its environment). */
    public String tokenOf(String sandboxId) throws PaddockException {
        return AgentEnvironment.token(host.wiring().sandboxes().find(sandboxId).orElseThrow());
    }

    /** The sandbox's hook key (its agent's PADDOCK_HOOK_KEY). */
    public String hookKeyOf(String sandboxId) {
        return HookAuth.sandboxKey(installToken, sandboxId);
    }

    /** Stops every agent still running (they outlive a closed Paddock), then closes it. */
    @Override
    public void close() {
        try {
            for (SandboxRecord s : host.wiring().sandboxService().list(null)) {
                if (s.state() == SandboxState.RUNNING
                        || s.state() == SandboxState.PENDING
                        || s.state() == SandboxState.RETRYING) {
                    host.wiring().sandboxService().stop(s.id(), "the test's clean-up");
                }
            }
        } catch (PaddockException e) {
            throw new IllegalStateException(e);
        } finally {
            host.close();
        }
    }

    private SandboxState state(String id) {
        try {
            return host.wiring().sandboxes().find(id).map(SandboxRecord::state).orElse(null);
        } catch (PaddockException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A request to this Paddock's API; {@code token} null sends none. */
    public HttpResponse<String> call(String method, String pathAndQuery, String body, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port() + pathAndQuery))
                .timeout(Duration.ofSeconds(60))
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

    /** The body of an answer as JSON (leading keep-alive spaces allowed). */
    public static JsonNode json(HttpResponse<String> r) {
        try {
            return Json.mapper().readTree(r.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The id of a pending approval of {@code sandboxId}, waited for up to 30 s. */
    public long awaitPending(String sandboxId) throws InterruptedException {
        long[] id = {0};
        await("a pending approval of " + sandboxId, () -> {
            try {
                host.wiring().approvals().list(ApprovalState.PENDING, 50).stream()
                        .filter(a -> a.sandboxId().equals(sandboxId))
                        .findFirst()
                        .ifPresent(a -> id[0] = a.id());
                return id[0] != 0;
            } catch (PaddockException e) {
                throw new IllegalStateException(e);
            }
        });
        return id[0];
    }

    /** A person ("ann") decides approval {@code id} through the API: {@code verb} is approve or deny. */
    public void decide(long id, String verb) throws Exception {
        HttpResponse<String> r = call("POST", "/v1/approvals/" + id + "/" + verb, "{\"by\":\"ann\"}", installToken());
        if (r.statusCode() != 200) {
            throw new AssertionError("cannot " + verb + " approval " + id + ": " + r.statusCode() + " " + r.body());
        }
    }

    /** Polls {@code condition} every 20 ms for up to 30 s. */
    public static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(20);
        }
    }
}
