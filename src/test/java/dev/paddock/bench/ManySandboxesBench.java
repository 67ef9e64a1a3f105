package dev.paddock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.common.Json;
import dev.paddock.testing.DockerTests;
import dev.paddock.testing.TempRepo;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The panel with many sandboxes (targets: ≤ 5 % of one core and ≤ 300 MB RSS): the real panel ({@code target/paddock},
 * the launcher, under X) on a repository with {@value #SANDBOXES} running sandboxes, {@value #CONTAINERS} of them in
 * containers (the image {@code PADDOCK_TEST_IMAGE}, else {@link DockerTests#GIT_IMAGE}) and the rest host processes,
 * every agent calling {@code paddock heartbeat "step N"} every {@value #BEAT_S} s. The panel shows its Sandboxes tab
 * (where it opens). After a warm-up of {@value #WARM_UP_S} s the panel's CPU (percent of one core, /proc/PID/stat)
 * is measured over {@value #MEASURE_S} s, with its RSS at the end, its busiest threads (/proc/PID/task) and the load
 * average. {@code -Dpaddock.bench.shot=FILE.png} takes a screenshot of the display ({@code import}) at the end;
 * {@code -Dpaddock.bench.launcher=PATH} measures another build's launcher.
 */
class ManySandboxesBench {
    static final int SANDBOXES = Integer.getInteger("paddock.bench.sandboxes", 100);
    static final int CONTAINERS = SANDBOXES / 2;
    static final int BEAT_S = 2;
    static final int WARM_UP_S = 30;
    static final int MEASURE_S = 60;
    private static final Duration WAIT = Duration.ofSeconds(300);

    @TempDir
    Path temp;

    private LocalApi api;

    @Test
    void panelWithManySandboxesAndContainersHeartbeating() throws Exception {
        DockerTests.requireEngineWithGitImage();
        String image = System.getenv().getOrDefault("PADDOCK_TEST_IMAGE", DockerTests.GIT_IMAGE);
        String run = "mb" + UUID.randomUUID().toString().substring(0, 6);
        TempRepo repo = TempRepo.init(temp.resolve("repo"));
        Path home = temp.resolve("home");
        ProcessBuilder pb = new ProcessBuilder(
                        BenchSupport.launcher().toString(),
                        "--home",
                        home.toString(),
                        "--repo",
                        repo.dir().toString())
                .redirectErrorStream(true)
                .redirectOutput(temp.resolve("panel.log").toFile());
        pb.environment().put("DISPLAY", BenchSupport.display());
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process panel = pb.start();
        List<String> ids = new ArrayList<>();
        try {
            api = LocalApi.await(home, panel, Duration.ofSeconds(90), Duration.ofSeconds(60));
            for (int i = 0; i < SANDBOXES; i++) {
                String id = String.format(Locale.ROOT, "%s-%03d", run, i);
                create(repo.dir(), id, i < CONTAINERS ? image : null);
                ids.add(id);
            }
            awaitAllBeating(repo.dir());
            Thread.sleep(WARM_UP_S * 1000L);

            long pid = panel.pid();
            String loadBefore = loadAverage();
            Map<String, Long> threads0 = BenchSupport.threadTicks(pid);
            long cpu0 = BenchSupport.cpuMillis(pid);
            long t0 = System.nanoTime();
            try (AutoCloseable recording = BenchSupport.recording(pid)) {
                Thread.sleep(MEASURE_S * 1000L);
            }
            double cpu = (BenchSupport.cpuMillis(pid) - cpu0) * 100.0 / ((System.nanoTime() - t0) / 1e6);
            long rssMb = BenchSupport.rssBytes(pid) / (1024 * 1024);
            String busiest = BenchSupport.busiestThreads(pid, threads0, 8);
            String loadAfter = loadAverage();
            assertThat(panel.isAlive()).isTrue();
            BenchSupport.report(String.format(
                    Locale.ROOT,
                    "many sandboxes: panel on the Sandboxes tab, %d running sandboxes (%d containers), a heartbeat"
                            + " each every %d s: CPU %.1f %% of one core over %d s (target <= 5: %s), RSS %d MB"
                            + " (target <= 300: %s); load average before/after %s / %s; busiest threads (ms): %s",
                    SANDBOXES,
                    CONTAINERS,
                    BEAT_S,
                    cpu,
                    MEASURE_S,
                    cpu <= 5 ? "met" : "MISSED",
                    rssMb,
                    rssMb <= 300 ? "met" : "MISSED",
                    loadBefore,
                    loadAfter,
                    busiest));
            String shot = System.getProperty("paddock.bench.shot");
            if (shot != null) {
                new ProcessBuilder("import", "-window", "root", shot)
                        .inheritIO()
                        .start()
                        .waitFor(30, TimeUnit.SECONDS);
            }
        } finally {
            for (String id : ids) {
                try {
                    if (api != null) {
                        send("POST", "/v1/sandboxes/" + id + "/stop", "{\"by\": \"the benchmark\"}");
                    }
                } catch (java.io.IOException ignored) {
                    // the panel is gone: its containers are removed below
                }
            }
            panel.destroy();
            if (!panel.waitFor(30, TimeUnit.SECONDS)) {
                panel.destroyForcibly();
            }
            removeContainersNamed("paddock-" + run + "-");
        }
    }

    /** Creates a running sandbox whose agent beats every {@link #BEAT_S} s; in a container when {@code image} is set. */
    private void create(Path repo, String id, String image) throws Exception {
        var body = Json.mapper()
                .createObjectNode()
                .put("repo", repo.toString())
                .put("task", "Bench agent " + id + (image == null ? " on the host" : " in a container"))
                .put("id", id)
                .put(
                        "command",
                        "i=0; while :; do i=$((i+1)); paddock heartbeat \"step $i\"; sleep " + BEAT_S + "; done");
        if (image != null) {
            body.put("tier", "container")
                    .put("image", image)
                    .put("memoryMiB", 64L)
                    .put("cpus", 0.5);
        }
        HttpResponse<String> r = send("POST", "/v1/sandboxes", body.toString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    }

    /** Waits until every sandbox of {@code repo} runs and has sent a heartbeat. */
    private void awaitAllBeating(Path repo) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            JsonNode list = Json.mapper()
                    .readTree(send(
                                    "GET",
                                    "/v1/sandboxes?repo="
                                            + java.net.URLEncoder.encode(repo.toString(), StandardCharsets.UTF_8),
                                    null)
                            .body())
                    .path("sandboxes");
            int beating = 0;
            for (JsonNode s : list) {
                if ("running".equals(s.path("state").asText())
                        && s.path("progress").asText("").startsWith("step ")) {
                    beating++;
                }
            }
            if (beating == SANDBOXES) {
                return;
            }
            last = beating + " of " + list.size() + " beating";
            Thread.sleep(1000);
        }
        throw new AssertionError("not every sandbox runs and beats: " + last);
    }

    private static void removeContainersNamed(String prefix) {
        DockerTests.Result r = DockerTests.docker("ps", "-aq", "--filter", "name=" + prefix);
        for (String id : r.out().strip().split("\\s+")) {
            if (!id.isBlank()) {
                DockerTests.docker("rm", "-f", id);
            }
        }
    }

    private static String loadAverage() throws java.io.IOException {
        return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        return api.send(method, path, body);
    }
}
