package dev.paddock.bench;

import dev.paddock.common.Json;
import dev.paddock.testing.TempRepo;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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

    @TempDir
    Path temp;

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @Test
    void heartbeatsDoNotGrowTheStore() throws Exception {
        double minutes = Double.parseDouble(System.getProperty("paddock.bench.minutes", "10"));
        TempRepo repo = TempRepo.init(temp.resolve("repo"));
        try (ServedPaddock paddock = ServedPaddock.start(temp, repo.dir())) {
            Path store = paddock.store();
            List<String> ids = new ArrayList<>();
            for (int i = 1; i <= AGENTS; i++) {
                // The agent leaves its own token beside its heartbeat file, then sleeps.
                ids.add(paddock.create(
                        "grow-" + i,
                        "Growth agent " + i + ": a task described in a sentence or two, as people write them",
                        "printf %s \"$PADDOCK_TOKEN\" > \"$PADDOCK_HEARTBEAT_FILE.token\"; exec sleep 3600"));
            }
            List<String> tokens = new ArrayList<>();
            for (String id : ids) {
                tokens.add(ServedPaddock.awaitFile(paddock.sandboxDir(id).resolve(".paddock/heartbeat.token")));
            }
            Thread.sleep(5_000);
            long sizeBefore = Files.size(store);
            long cpuBefore = BenchSupport.cpuMillis(paddock.pid());
            long sent = Math.round(minutes * 60 * AGENTS);
            int failures = run(paddock, ids, tokens, sent);
            long cpu = BenchSupport.cpuMillis(paddock.pid()) - cpuBefore;
            long rss = BenchSupport.rssBytes(paddock.pid());
            long sizeEnd = Files.size(store);
            String last = Json.mapper()
                    .readTree(paddock.send("GET", "/v1/sandboxes/" + ids.get(0), null)
                            .body())
                    .at("/sandbox/progress")
                    .asText();
            paddock.close(); // stops the sandboxes, then SIGTERM: a clean stop
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
        }
    }

    private static String mb(long bytes) {
        return String.format("%.1f MB", bytes / 1e6);
    }

    /** Sends {@code total} heartbeats, each agent once a second (spread over the second), open loop. */
    private int run(ServedPaddock paddock, List<String> ids, List<String> tokens, long total) throws Exception {
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
            HttpRequest req = HttpRequest.newBuilder(
                            paddock.base().resolve("/v1/sandboxes/" + ids.get(k) + "/heartbeat"))
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
}
