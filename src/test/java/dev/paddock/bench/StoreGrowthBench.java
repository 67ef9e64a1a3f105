package dev.paddock.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.common.Json;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Store growth under heartbeats (target: under 5 MB over the run): a real {@code paddock serve} with 100 running
 * sandboxes whose agents sleep, each sending a heartbeat a second with its own token through the API for 10
 * minutes ({@code -Dpaddock.bench.minutes=N} for a shorter run). Reports the store's size before, at the end and
 * after a clean stop, the server's CPU time and RSS, and what a heartbeat costs the store.
 */
class StoreGrowthBench {
    private static final int AGENTS = Integer.getInteger("paddock.bench.agents", 100);
    private static final Duration WAIT = Duration.ofSeconds(120);

    @TempDir
    Path temp;

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private URI base;
    private String installToken;

    @Test
    void heartbeatsDoNotGrowTheStore() throws Exception {
        double minutes = Double.parseDouble(System.getProperty("paddock.bench.minutes", "10"));
        TempRepo repo = TempRepo.init(temp.resolve("repo"));
        Path home = temp.resolve("home");
        Path store = home.resolve("paddock.mv.db");
        ProcessBuilder pb = new ProcessBuilder(
                        BenchSupport.launcher().toString(),
                        "--home",
                        home.toString(),
                        "serve",
                        "--repo",
                        repo.dir().toString())
                .redirectErrorStream(true)
                .redirectOutput(temp.resolve("serve.log").toFile());
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process serve = pb.start();
        List<String> ids = new ArrayList<>();
        try {
            awaitServer(home);
            for (int i = 1; i <= AGENTS; i++) {
                ids.add(create(repo.dir(), i));
            }
            List<String> tokens = new ArrayList<>();
            for (String id : ids) {
                tokens.add(awaitToken(repo.dir(), id));
            }
            Thread.sleep(5_000);
            long sizeBefore = Files.size(store);
            long cpuBefore = BenchSupport.cpuMillis(serve.pid());
            long sent = Math.round(minutes * 60 * AGENTS);
            int failures = run(ids, tokens, sent);
            long cpu = BenchSupport.cpuMillis(serve.pid()) - cpuBefore;
            long rss = BenchSupport.rssBytes(serve.pid());
            long sizeEnd = Files.size(store);
            String last = progressOf(ids.get(0));
            for (String id : ids) {
                send("POST", "/v1/sandboxes/" + id + "/stop", "{\"by\": \"the benchmark\"}", installToken);
            }
            serve.destroy(); // SIGTERM: a clean stop
            serve.waitFor(60, TimeUnit.SECONDS);
            long sizeStopped = Files.size(store);
            long grown = sizeEnd - sizeBefore;
            BenchSupport.report(String.format(
                    "store growth: %d agents x 1 heartbeat/s for %.1f min (%d heartbeats,"
                            + " %d not answered 200, last progress of agent 1: %s): store %s before, %s at the end"
                            + " (%+.1f MB, %.0f bytes a heartbeat; target < 5 MB: %s), %s after a clean stop; serve CPU"
                            + " %d ms (%.0f %% of one core), RSS %d MB",
                    AGENTS,
                    minutes,
                    sent,
                    failures,
                    last,
                    mb(sizeBefore),
                    mb(sizeEnd),
                    grown / 1e6,
                    (double) grown / sent,
                    grown < 5_000_000 ? "met" : "MISSED",
                    mb(sizeStopped),
                    cpu,
                    100.0 * cpu / (minutes * 60_000),
                    rss / (1024 * 1024)));
        } finally {
            if (serve.isAlive()) {
                for (String id : ids) {
                    send("POST", "/v1/sandboxes/" + id + "/stop", "{\"by\": \"the benchmark\"}", installToken);
                }
                serve.destroy();
                serve.waitFor(60, TimeUnit.SECONDS);
            }
            killAgents(repo.dir());
        }
    }

    private static String mb(long bytes) {
        return String.format("%.1f MB", bytes / 1e6);
    }

    /** Sends {@code total} heartbeats, each agent once a second (spread over the second), open loop. */
    private int run(List<String> ids, List<String> tokens, long total) throws Exception {
        long periodNanos = TimeUnit.SECONDS.toNanos(1) / ids.size();
        AtomicInteger failures = new AtomicInteger();
        List<CompletableFuture<Void>> pending = new ArrayList<>();
        long start = System.nanoTime();
        for (long i = 0; i < total; i++) {
            long due = start + i * periodNanos;
            long wait;
            while ((wait = due - System.nanoTime()) > 0) {
                LockSupport.parkNanos(wait);
            }
            int k = (int) (i % ids.size());
            HttpRequest req = HttpRequest.newBuilder(base.resolve("/v1/sandboxes/" + ids.get(k) + "/heartbeat"))
                    .timeout(Duration.ofSeconds(10))
                    .header("Authorization", "Bearer " + tokens.get(k))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"progress\": \"beat " + i / ids.size() + " of agent "
                            + (k + 1) + ": working on step " + i + "\"}"))
                    .build();
            pending.add(
                    http.sendAsync(req, HttpResponse.BodyHandlers.discarding()).handle((r, e) -> {
                        if (e != null || r.statusCode() != 200) {
                            failures.incrementAndGet();
                        }
                        return null;
                    }));
            if (pending.size() >= 1000) {
                CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new))
                        .get(60, TimeUnit.SECONDS);
                pending.clear();
            }
        }
        CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        return failures.get();
    }

    private void awaitServer(Path home) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            if (Files.exists(home.resolve("instance.json")) && Files.exists(home.resolve("api-token"))) {
                JsonNode instance =
                        Json.mapper().readTree(home.resolve("instance.json").toFile());
                base = URI.create("http://127.0.0.1:" + instance.get("port").asInt());
                installToken = Files.readString(home.resolve("api-token")).strip();
                try {
                    if (send("GET", "/v1/health", null, installToken).statusCode() == 200) {
                        return;
                    }
                } catch (java.io.IOException notYet) {
                    // the API is not listening yet
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("paddock serve did not start within " + WAIT);
    }

    /** Creates a sandbox whose agent leaves its own token beside its heartbeat file, then sleeps. */
    private String create(Path repo, int n) throws Exception {
        String body = Json.mapper()
                .createObjectNode()
                .put("repo", repo.toString())
                .put("task", "Growth agent " + n + ": a task described in a sentence or two, as people write them")
                .put("id", "grow-" + n)
                .put(
                        "command",
                        "printf %s \"$PADDOCK_TOKEN\" > \"$PADDOCK_HEARTBEAT_FILE.token\";" + " exec sleep 3600")
                .toString();
        HttpResponse<String> r = send("POST", "/v1/sandboxes", body, installToken);
        if (r.statusCode() != 201) {
            throw new AssertionError(r.body());
        }
        return Json.mapper().readTree(r.body()).get("id").asText();
    }

    private String awaitToken(Path repo, String id) throws Exception {
        Path file = repo.resolve(".worktrees").resolve(id).resolve(".paddock/heartbeat.token");
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            if (Files.exists(file) && Files.size(file) > 0) {
                return Files.readString(file).strip();
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the agent of " + id + " never wrote its token");
    }

    private String progressOf(String id) throws Exception {
        return Json.mapper()
                .readTree(send("GET", "/v1/sandboxes/" + id, null, installToken).body())
                .at("/sandbox/progress")
                .asText();
    }

    /** The agents sleep for an hour: end them (they outlive a stopped Paddock by design). */
    private static void killAgents(Path repo) {
        String marker = repo.resolve(".worktrees").toString();
        ProcessHandle.allProcesses()
                .filter(h -> h.info().commandLine().map(c -> c.contains(marker)).orElse(false))
                .forEach(h -> {
                    h.descendants().forEach(ProcessHandle::destroyForcibly);
                    h.destroyForcibly();
                });
    }

    private HttpResponse<String> send(String method, String path, String body, String token) throws Exception {
        return http.send(
                HttpRequest.newBuilder(base.resolve(path))
                        .timeout(Duration.ofSeconds(20))
                        .header("Authorization", "Bearer " + token)
                        .method(
                                method,
                                body == null
                                        ? HttpRequest.BodyPublishers.noBody()
                                        : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
                        .build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }
}
