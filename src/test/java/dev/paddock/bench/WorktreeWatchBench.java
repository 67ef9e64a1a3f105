package dev.paddock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.common.Json;
import dev.paddock.testing.TempRepo;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How soon a worktree added from a terminal shows in what Paddock serves (target: within 2 s),
 * and how long {@code paddock status --json} takes as a whole process, with and without a running
 * Paddock to ask. Uses a real {@code paddock serve} process and the real git CLI.
 */
class WorktreeWatchBench {
    private static final int ROUNDS = 10;

    @TempDir
    Path temp;

    @Test
    void worktreeChangeLatencyAndStatusCommandTime() throws Exception {
        Path repo = BenchSupport.repositoryWithWorktrees(temp, 19);
        Path home = temp.resolve("home");
        Path jar = BenchSupport.jar();

        List<Long> direct = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            direct.add(timeStatus(jar, home, repo));
        }
        BenchSupport.report(
                "paddock status --json, no Paddock running, 20 worktrees, ms: " + BenchSupport.summary(direct));

        Process serve = new ProcessBuilder(
                        BenchSupport.java(),
                        "-jar",
                        jar.toString(),
                        "--home",
                        home.toString(),
                        "serve",
                        "--repo",
                        repo.toString())
                .redirectErrorStream(true)
                .redirectOutput(temp.resolve("serve.log").toFile())
                .start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!Files.exists(home.resolve("instance.json")) && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            JsonNode instance =
                    Json.mapper().readTree(home.resolve("instance.json").toFile());
            String token = Files.readString(home.resolve("api-token")).strip();
            URI status = URI.create("http://127.0.0.1:" + instance.get("port").asInt() + "/v1/status?repo="
                    + java.net.URLEncoder.encode(repo.toString(), java.nio.charset.StandardCharsets.UTF_8));
            HttpClient http = HttpClient.newHttpClient();
            waitForWorktrees(http, status, token, 20);

            List<Long> addLatency = new ArrayList<>();
            List<Long> removeLatency = new ArrayList<>();
            for (int i = 0; i < ROUNDS; i++) {
                Path wt = temp.resolve("bench-wt-" + i);
                long t0 = System.nanoTime();
                TempRepo.git(repo, "worktree", "add", "-q", "-b", "bench/" + i, wt.toString());
                waitForWorktrees(http, status, token, 21);
                addLatency.add((System.nanoTime() - t0) / 1_000_000);
                t0 = System.nanoTime();
                TempRepo.git(repo, "worktree", "remove", wt.toString());
                waitForWorktrees(http, status, token, 20);
                removeLatency.add((System.nanoTime() - t0) / 1_000_000);
            }
            BenchSupport.report(
                    "worktree added from a terminal -> served by Paddock, ms: " + BenchSupport.summary(addLatency));
            BenchSupport.report("worktree removed from a terminal -> gone from Paddock, ms: "
                    + BenchSupport.summary(removeLatency));

            List<Long> viaApi = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                viaApi.add(timeStatus(jar, home, repo));
            }
            BenchSupport.report("paddock status --json through a running Paddock, ms: " + BenchSupport.summary(viaApi));
            BenchSupport.report(String.format(
                    "paddock serve CPU over the run: %d ms; RSS %d MB",
                    BenchSupport.cpuMillis(serve.pid()), BenchSupport.rssBytes(serve.pid()) / (1024 * 1024)));
        } finally {
            serve.destroy();
            serve.waitFor(20, TimeUnit.SECONDS);
        }
    }

    private static long timeStatus(Path jar, Path home, Path repo) throws Exception {
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(
                        BenchSupport.java(),
                        "-jar",
                        jar.toString(),
                        "--home",
                        home.toString(),
                        "status",
                        "--json",
                        "--repo",
                        repo.toString())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return (System.nanoTime() - t0) / 1_000_000;
    }

    private static void waitForWorktrees(HttpClient http, URI status, String token, int count) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(status)
                            .header("Authorization", "Bearer " + token)
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() == 200
                    && Json.mapper().readTree(r.body()).get("worktrees").size() == count) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("Paddock did not show " + count + " worktrees within 30 s");
    }
}
