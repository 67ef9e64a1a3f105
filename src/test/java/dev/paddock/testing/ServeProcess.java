package dev.paddock.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.paddock.Paddock;
import dev.paddock.api.HookAuth;
import dev.paddock.common.Json;
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
import java.util.List;
import java.util.Map;

/**
 * A real {@code paddock serve} in a child JVM ({@link ChildJvm}) on a home of its own, watching a repository with
 * {@link BrokerRig#POLICY}: for tests that must stop it ({@code kill -STOP}) or kill it ({@code kill -9}) while
 * hooks talk to it. Requests go through its HTTP API with the install token.
 */
public final class ServeProcess implements AutoCloseable {
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    private final ChildJvm child;
    private final Path home;
    private final TempRepo repo;
    private final int port;
    private final String token;
    private boolean stopped;

    private ServeProcess(ChildJvm child, Path home, TempRepo repo) {
        this.child = child;
        this.home = home;
        this.repo = repo;
        child.awaitStdout("Paddock serving on", PATIENCE);
        try {
            JsonNode instance =
                    Json.mapper().readTree(home.resolve("instance.json").toFile());
            this.port = instance.get("port").asInt();
            this.token = Files.readString(home.resolve("api-token")).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Starts {@code paddock serve} on {@code dir/home} watching a new repository {@code dir/repo}. */
    public static ServeProcess start(Path dir) {
        return start(dir, Map.of());
    }

    /**
     * Starts {@code paddock serve} as {@link #start(Path)} does, with {@code env} added to (null values: removed
     * from) its environment: what its agents take from Paddock's environment.
     */
    public static ServeProcess start(Path dir, Map<String, String> env) {
        return start(dir, BrokerRig.repoWithPolicy(dir.resolve("repo")), env);
    }

    /**
     * Starts {@code paddock serve} on {@code dir/home} watching {@code repo} (several may watch one, each with a
     * home of its own), with {@code env} added to its environment.
     */
    public static ServeProcess start(Path dir, TempRepo repo, Map<String, String> env) {
        Path home = dir.resolve("home");
        ChildJvm child = ChildJvm.start(
                dir.resolve("child"),
                env,
                Paddock.class.getName(),
                List.of("--home", home.toString(), "serve", "--repo", repo.dir().toString()));
        return new ServeProcess(child, home, repo);
    }

    public Path home() {
        return home;
    }

    public TempRepo repo() {
        return repo;
    }

    public int port() {
        return port;
    }

    public String installToken() {
        return token;
    }

    public long pid() {
        return child.pid();
    }

    /** The server's output so far, for a failed assertion's message. */
    public String report() {
        return child.report();
    }

    /** The hook script the server wrote into its home. */
    public Path script() {
        return home.resolve("bin").resolve("paddock-hook-claude");
    }

    /** A sandbox's hook key, as the server gives it to the agent. */
    public String hookKeyOf(String sandboxId) {
        return HookAuth.sandboxKey(token, sandboxId);
    }

    /** Creates a sandbox running {@code sleep 300} and waits until it runs; returns its id. */
    public String runningSandbox(String task) throws Exception {
        return runningSandbox(task, "sleep 300");
    }

    /** Creates a sandbox running {@code command} and waits until it runs; returns its id. */
    public String runningSandbox(String task, String command) throws Exception {
        ObjectNode n = Json.mapper()
                .createObjectNode()
                .put("repo", repo.dir().toString())
                .put("task", task)
                .put("command", command);
        HttpResponse<String> r = call("POST", "/v1/sandboxes", n.toString());
        if (r.statusCode() != 201) {
            throw new AssertionError("sandbox not created: " + r.statusCode() + " " + r.body());
        }
        String id = Json.mapper().readTree(r.body()).get("id").asText();
        child.await("sandbox " + id + " running", () -> "running".equals(state(id)), PATIENCE);
        return id;
    }

    /** The worktree of a sandbox. */
    public Path worktree(String id) throws Exception {
        return Path.of(Json.mapper()
                .readTree(call("GET", "/v1/sandboxes/" + id, null).body())
                .at("/sandbox/worktreePath")
                .asText());
    }

    /** The id of the pending approval of {@code sandboxId}, once there is one. */
    public long awaitPending(String sandboxId) {
        long[] id = {0};
        child.await(
                "a pending approval of " + sandboxId,
                () -> {
                    try {
                        for (JsonNode a : Json.mapper()
                                .readTree(call("GET", "/v1/approvals?state=pending", null)
                                        .body())
                                .get("approvals")) {
                            if (a.get("sandboxId").asText().equals(sandboxId)) {
                                id[0] = a.get("id").asLong();
                            }
                        }
                        return id[0] != 0;
                    } catch (Exception e) {
                        return false;
                    }
                },
                PATIENCE);
        return id[0];
    }

    /** Approves a pending approval as {@code by}. */
    public void approve(long approvalId, String by) throws Exception {
        HttpResponse<String> r = call("POST", "/v1/approvals/" + approvalId + "/approve", "{\"by\": \"" + by + "\"}");
        if (r.statusCode() != 200) {
            throw new AssertionError("not approved: " + r.statusCode() + " " + r.body());
        }
    }

    /** {@code kill -STOP}: the process keeps its port and its connections, and answers nothing. */
    public void stop() {
        signal("STOP");
        stopped = true;
    }

    /** {@code kill -CONT}. */
    public void resume() {
        signal("CONT");
        stopped = false;
    }

    /**
     * {@code kill -9}: leaves {@code instance.json} behind, frees the port. Its agents would outlive it (as they
     * are meant to); the test has no Paddock left to stop them, so they are killed here, by the pids their
     * wrappers wrote.
     */
    public void kill9() throws InterruptedException {
        child.process().destroyForcibly();
        child.process().waitFor();
        try (var dirs = Files.list(repo.dir().resolve(".worktrees"))) {
            for (Path d : dirs.toList()) {
                Path pidFile = d.resolve(".paddock").resolve("agent-pid");
                if (Files.exists(pidFile)) {
                    ProcessHandle.of(Long.parseLong(Files.readString(pidFile).strip()))
                            .ifPresent(h -> {
                                h.descendants().forEach(ProcessHandle::destroyForcibly);
                                h.destroyForcibly();
                            });
                }
            }
        } catch (IOException | NumberFormatException e) {
            throw new AssertionError("cannot stop the agents of the killed Paddock", e);
        }
    }

    private void signal(String name) {
        try {
            Process p = new ProcessBuilder("kill", "-" + name, Long.toString(child.pid()))
                    .inheritIO()
                    .start();
            if (p.waitFor() != 0) {
                throw new AssertionError("kill -" + name + " " + child.pid() + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** {@code kill -9} of this Paddock alone: its agents outlive it, as they would. */
    public void kill9LeavingAgents() throws InterruptedException {
        child.process().destroyForcibly();
        child.process().waitFor();
    }

    /** A sandbox's state as this Paddock's API tells it (null when it cannot). */
    public String stateOf(String id) {
        return state(id);
    }

    private String state(String id) {
        try {
            HttpResponse<String> r = call("GET", "/v1/sandboxes/" + id, null);
            return r.statusCode() == 200
                    ? Json.mapper().readTree(r.body()).at("/sandbox/state").asText()
                    : null;
        } catch (Exception e) {
            return null;
        }
    }

    /** A request with the install token. */
    public HttpResponse<String> call(String method, String pathAndQuery, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token)
                .method(
                        method,
                        body == null
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    /** Resumes it if stopped, stops its agents, then ends it. */
    @Override
    public void close() {
        if (stopped) {
            resume();
        }
        try {
            if (child.isAlive()) {
                JsonNode list = Json.mapper()
                        .readTree(call("GET", "/v1/sandboxes", null).body());
                for (JsonNode s : list.path("sandboxes")) {
                    if ("running".equals(s.path("state").asText())) {
                        call("POST", "/v1/sandboxes/" + s.get("id").asText() + "/stop", null);
                    }
                }
            }
        } catch (Exception e) {
            // best effort: the child is ended below all the same
        } finally {
            child.close();
        }
    }
}
