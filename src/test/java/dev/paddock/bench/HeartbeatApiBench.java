package dev.paddock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.common.Json;
import dev.paddock.testing.TempRepo;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Heartbeat API latency (target: p99 ≤ 20 ms under 200 heartbeats per second): a real {@code paddock
 * serve} (the packaged launcher) with 20 running sandboxes whose agents sleep, each heartbeat sent with the
 * sandbox's own token at a fixed rate (open loop: latency counts from the moment a request was due, so a
 * slow answer delays nothing and hides nothing).
 */
class HeartbeatApiBench {
    private static final int SANDBOXES = 20;
    private static final int RATE_PER_SECOND = 200;
    private static final Duration WARM_UP = Duration.ofSeconds(5);
    private static final Duration MEASURED = Duration.ofSeconds(30);
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** Time the server is watched doing nothing but its supervisor and monitors, for its baseline CPU. */
    private static final Duration IDLE = Duration.ofSeconds(10);

    @TempDir
    Path temp;

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private LocalApi api;

    @Test
    void heartbeatLatencyUnder200PerSecond() throws Exception {
        TempRepo repo = TempRepo.init(temp.resolve("repo"));
        Path home = temp.resolve("home");
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
            api = LocalApi.await(home, serve, WAIT, Duration.ofSeconds(20));
            for (int i = 1; i <= SANDBOXES; i++) {
                ids.add(create(repo.dir(), i));
            }
            List<String> tokens = new ArrayList<>();
            for (String id : ids) {
                tokens.add(awaitToken(repo.dir(), id));
            }

            long idleBefore = BenchSupport.cpuMillis(serve.pid());
            Thread.sleep(IDLE.toMillis());
            long idle = BenchSupport.cpuMillis(serve.pid()) - idleBefore;
            run(ids, tokens, WARM_UP);
            String loadBefore = loadAverage();
            long cpuBefore = BenchSupport.cpuMillis(serve.pid());
            Result r = run(ids, tokens, MEASURED);
            long cpu = BenchSupport.cpuMillis(serve.pid()) - cpuBefore;

            assertThat(r.failures()).as("heartbeats not answered 200").isZero();
            assertThat(progressOf(ids.get(0))).startsWith("beat ");
            long[] ms = r.latenciesMicros();
            BenchSupport.report(String.format(
                    "heartbeat API, %d/s for %d s, %d running sandboxes, own tokens:"
                            + " p50 %.2f ms, p99 %.2f ms, max %.2f ms (n=%d, target p99 <= 20 ms: %s; from the send"
                            + " itself p50 %.2f ms, p99 %.2f ms); serve CPU %d ms"
                            + " (%.0f %% of one core; idle with its sandboxes %.0f %%); load average before/after %s / %s",
                    RATE_PER_SECOND,
                    MEASURED.toSeconds(),
                    SANDBOXES,
                    pct(ms, 50) / 1000.0,
                    pct(ms, 99) / 1000.0,
                    ms[ms.length - 1] / 1000.0,
                    ms.length,
                    pct(ms, 99) <= 20_000 ? "met" : "MISSED",
                    pct(r.fromSendMicros(), 50) / 1000.0,
                    pct(r.fromSendMicros(), 99) / 1000.0,
                    cpu,
                    100.0 * cpu / MEASURED.toMillis(),
                    100.0 * idle / IDLE.toMillis(),
                    loadBefore,
                    loadAverage()));
        } finally {
            for (String id : ids) {
                api.send("POST", "/v1/sandboxes/" + id + "/stop", "{\"by\": \"the benchmark\"}");
            }
            serve.destroy();
            serve.waitFor(20, TimeUnit.SECONDS);
        }
    }

    /**
     * Latencies in µs, sorted: from when each heartbeat was due, and from when the client got round to
     * sending it (the difference is this JVM's own scheduling delay); and how many were not answered 200.
     */
    private record Result(long[] latenciesMicros, long[] fromSendMicros, int failures) {}

    /** Sends heartbeats round-robin over the sandboxes at {@link #RATE_PER_SECOND} for {@code length}. */
    private Result run(List<String> ids, List<String> tokens, Duration length) throws Exception {
        int n = (int) (length.toSeconds() * RATE_PER_SECOND);
        long periodNanos = TimeUnit.SECONDS.toNanos(1) / RATE_PER_SECOND;
        long[] latencies = new long[n];
        long[] fromSend = new long[n];
        AtomicInteger failures = new AtomicInteger();
        List<CompletableFuture<Void>> pending = new ArrayList<>(n);
        long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(10);
        for (int i = 0; i < n; i++) {
            long due = start + i * periodNanos;
            long wait;
            while ((wait = due - System.nanoTime()) > 0) {
                LockSupport.parkNanos(wait);
            }
            int k = i % ids.size();
            int slot = i;
            long sent = System.nanoTime();
            HttpRequest req = HttpRequest.newBuilder(api.base().resolve("/v1/sandboxes/" + ids.get(k) + "/heartbeat"))
                    .timeout(Duration.ofSeconds(10))
                    .header("Authorization", "Bearer " + tokens.get(k))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"progress\": \"beat " + i + "\"}"))
                    .build();
            pending.add(
                    http.sendAsync(req, HttpResponse.BodyHandlers.discarding()).handle((r, e) -> {
                        long done = System.nanoTime();
                        latencies[slot] = (done - due) / 1000;
                        fromSend[slot] = (done - sent) / 1000;
                        if (e != null || r.statusCode() != 200) {
                            failures.incrementAndGet();
                        }
                        return null;
                    }));
        }
        CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        Arrays.sort(latencies);
        Arrays.sort(fromSend);
        return new Result(latencies, fromSend, failures.get());
    }

    /** The 1-minute load average (Linux): the machine may be shared, and the figures mean little when it is busy. */
    private static String loadAverage() throws java.io.IOException {
        return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    }

    private static long pct(long[] sorted, int percentile) {
        int index = (int) Math.ceil(percentile / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    /** Creates a sandbox whose agent leaves its own token beside its heartbeat file, then sleeps. */
    private String create(Path repo, int n) throws Exception {
        String body = Json.mapper()
                .createObjectNode()
                .put("repo", repo.toString())
                .put("task", "Bench agent " + n)
                .put("id", "bench-" + n)
                .put("command", "printf %s \"$PADDOCK_TOKEN\" > \"$PADDOCK_HEARTBEAT_FILE.token\";" + " exec sleep 600")
                .toString();
        HttpResponse<String> r = api.send("POST", "/v1/sandboxes", body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
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
                .readTree(api.send("GET", "/v1/sandboxes/" + id, null).body())
                .at("/sandbox/progress")
                .asText();
    }
}
