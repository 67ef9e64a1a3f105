package dev.paddock.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.common.Json;
import dev.paddock.store.Database;
import dev.paddock.testing.TempRepo;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kill -9} of the real panel (under Xvfb) and of {@code paddock serve}, round after round on the store the
 * last kill left, at a random moment 0.5 to 60 s after each start, while records are committed through the API:
 * sandboxes created, settings changed (each change is an event), heartbeats of a sandbox whose agent runs all along.
 * After each kill a copy of the store is opened as the next Paddock would open it, and every record whose commit had
 * returned is looked for; the target is that none is missing. A heartbeat counts as committed once Paddock has had
 * the time to write it ({@link #HEARTBEAT_GRACE}): heartbeats are kept in memory and written every few seconds.
 *
 * <p>Rounds: {@code -Dpaddock.bench.kills=N} (default 200); {@code -Dpaddock.bench.seed=S} fixes the kill times;
 * {@code -Dpaddock.bench.maxKillMs=M} (default 60000) is the latest kill after a start (the earliest is 500 ms).
 */
class StoreKillLoopBench {
    private static final Duration START_WAIT = Duration.ofSeconds(90);
    /** How long after its 200 a heartbeat must be in the store (Paddock writes them every few seconds). */
    private static final Duration HEARTBEAT_GRACE = Duration.ofSeconds(7);

    private static final String RUNNER = "runner";

    @TempDir
    Path temp;

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** A record whose commit returned: its kind, its key and when the answer came. */
    private record Committed(String kind, String key, long at) {}

    @Test
    void noCommitThatReturnedIsLostAcrossKills() throws Exception {
        int kills = Integer.getInteger("paddock.bench.kills", 200);
        Random random = new Random(Long.getLong("paddock.bench.seed", System.nanoTime()));
        long maxKill = Math.max(1_000, Long.getLong("paddock.bench.maxKillMs", 60_000));
        TempRepo repo = TempRepo.init(temp.resolve("repo"));
        Path home = temp.resolve("home");
        String display = BenchSupport.display();
        int lostTotal = 0;
        int roundsWithLoss = 0;
        int panelKills = 0;
        int checked = 0;
        List<String> losses = new ArrayList<>();
        String runnerToken = null;
        for (int round = 1; round <= kills; round++) {
            boolean panel = round % 2 == 0;
            long killAfter = 500 + (long) (random.nextDouble() * (maxKill - 500));
            Files.deleteIfExists(home.resolve("instance.json"));
            Process p = start(home, repo.dir(), panel, display, round);
            long started = System.nanoTime();
            List<Committed> done = new ArrayList<>();
            long killedAt;
            AtomicBoolean stop = new AtomicBoolean();
            ExecutorService load = Executors.newFixedThreadPool(3);
            try {
                Api api = awaitApi(home, started, killAfter);
                if (api != null) {
                    if (runnerToken == null) {
                        runnerToken = startRunner(api, repo.dir());
                    }
                    String token = runnerToken;
                    int r = round;
                    List<Committed> sync = java.util.Collections.synchronizedList(done);
                    load.submit(() -> createSandboxes(api, repo.dir(), r, stop, sync));
                    load.submit(() -> changeSettings(api, r, stop, sync));
                    load.submit(() -> heartbeats(api, token, r, stop, sync));
                }
                long left = killAfter - (System.nanoTime() - started) / 1_000_000;
                if (left > 0) {
                    Thread.sleep(left);
                }
            } finally {
                killedAt = System.nanoTime();
                p.destroyForcibly();
                p.waitFor(30, TimeUnit.SECONDS);
                stop.set(true);
                load.shutdown();
                load.awaitTermination(30, TimeUnit.SECONDS);
            }
            panelKills += panel ? 1 : 0;
            List<Committed> snapshot;
            synchronized (done) {
                snapshot = new ArrayList<>(done);
            }
            List<String> missing = check(home, snapshot, killedAt);
            checked += snapshot.size();
            if (!missing.isEmpty()) {
                roundsWithLoss++;
                lostTotal += missing.size();
                Files.createDirectories(Path.of("target", "bench"));
                Files.copy(
                        home.resolve("paddock.mv.db"),
                        Path.of("target", "bench", "kill-loop-lost-" + round + ".mv.db"),
                        StandardCopyOption.REPLACE_EXISTING);
                losses.add("round " + round + " (" + (panel ? "panel" : "serve") + ", killed at " + killAfter + " ms): "
                        + missing.size() + " missing, e.g. " + missing.subList(0, Math.min(3, missing.size())));
            }
            String line = String.format(
                    "round %d %s killed at %d ms: %d commits returned, %d missing %s",
                    round,
                    panel ? "panel" : "serve",
                    killAfter,
                    snapshot.size(),
                    missing.size(),
                    missing.subList(0, Math.min(3, missing.size())));
            System.out.println(line);
            Files.createDirectories(Path.of("target", "bench"));
            Files.writeString(
                    Path.of("target", "bench", "kill-loop-rounds.txt"),
                    line + "\n",
                    java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.APPEND);
        }
        killAgents(repo.dir());
        for (String l : losses) {
            System.out.println("LOST " + l);
        }
        BenchSupport.report(String.format(
                "store kill loop: %d kills (%d panel, %d serve), %d commits that returned"
                        + " checked, %d missing in %d rounds (kills 0.5-%.1f s after each start; target 0: %s)",
                kills,
                panelKills,
                kills - panelKills,
                checked,
                lostTotal,
                roundsWithLoss,
                maxKill / 1000.0,
                lostTotal == 0 ? "met" : "MISSED"));
    }

    /** Starts the panel (under Xvfb) or {@code paddock serve} on the home. */
    private Process start(Path home, Path repo, boolean panel, String display, int round) throws IOException {
        List<String> cmd = BenchSupport.command(BenchSupport.launcher().toString(), "--home", home.toString());
        if (panel) {
            cmd.addAll(List.of("--repo", repo.toString()));
        } else {
            cmd.addAll(List.of("serve", "--repo", repo.toString()));
        }
        Files.createDirectories(temp.resolve("logs"));
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(
                        temp.resolve("logs").resolve("round-" + round + ".log").toFile());
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().put("DISPLAY", display);
        return pb.start();
    }

    /** The API of the Paddock started at {@code started}, or null when it is not up before the kill. */
    private Api awaitApi(Path home, long started, long killAfter) throws Exception {
        long deadline = started + Math.min(killAfter, START_WAIT.toMillis()) * 1_000_000;
        Path instance = home.resolve("instance.json");
        while (System.nanoTime() < deadline) {
            try {
                if (Files.exists(instance)) {
                    JsonNode node = Json.mapper().readTree(instance.toFile());
                    Api api = new Api(
                            URI.create("http://127.0.0.1:" + node.get("port").asInt()),
                            Files.readString(home.resolve("api-token")).strip());
                    if (api.send("GET", "/v1/health", null, api.token).statusCode() == 200) {
                        return api;
                    }
                }
            } catch (IOException notYet) {
                // not listening yet, or instance.json half written
            }
            Thread.sleep(50);
        }
        return null;
    }

    /** A sandbox whose agent runs all the time (it outlives each Paddock), sending the heartbeats; its token. */
    private String startRunner(Api api, Path repo) throws Exception {
        String body = Json.mapper()
                .createObjectNode()
                .put("repo", repo.toString())
                .put("task", "runs all along")
                .put("id", RUNNER)
                .put(
                        "command",
                        "printf %s \"$PADDOCK_TOKEN\" > \"$PADDOCK_HEARTBEAT_FILE.token\";" + " exec sleep 86400")
                .toString();
        HttpResponse<String> r = api.send("POST", "/v1/sandboxes", body, api.token);
        if (r.statusCode() != 201) {
            throw new AssertionError("cannot create the runner: " + r.body());
        }
        Path file = repo.resolve(".worktrees").resolve(RUNNER).resolve(".paddock/heartbeat.token");
        long deadline = System.nanoTime() + START_WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            if (Files.exists(file) && Files.size(file) > 0) {
                return Files.readString(file).strip();
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the runner never wrote its token");
    }

    private void createSandboxes(Api api, Path repo, int round, AtomicBoolean stop, List<Committed> done) {
        for (int n = 1; !stop.get(); n++) {
            String id = "r" + round + "-" + n;
            String body = Json.mapper()
                    .createObjectNode()
                    .put("repo", repo.toString())
                    .put("task", "round " + round)
                    .put("id", id)
                    .put("command", "exit 0")
                    .toString();
            try {
                if (api.send("POST", "/v1/sandboxes", body, api.token).statusCode() == 201) {
                    done.add(new Committed("sandbox", id, System.nanoTime()));
                }
                Thread.sleep(3000);
            } catch (Exception killed) {
                return;
            }
        }
    }

    /** Changes {@code sandbox.killGraceMs} to a new value each time: each change is an event naming the value. */
    private void changeSettings(Api api, int round, AtomicBoolean stop, List<Committed> done) {
        for (int n = 1; !stop.get(); n++) {
            String value = String.valueOf(round * 1000 + n);
            try {
                if (api.send("PUT", "/v1/settings/sandbox.killGraceMs", "{\"value\": \"" + value + "\"}", api.token)
                                .statusCode()
                        == 200) {
                    done.add(new Committed("event", value, System.nanoTime()));
                }
                Thread.sleep(100);
            } catch (Exception killed) {
                return;
            }
        }
    }

    private void heartbeats(Api api, String token, int round, AtomicBoolean stop, List<Committed> done) {
        for (int n = 1; !stop.get(); n++) {
            String progress = "round " + round + " beat " + n;
            try {
                if (api.send(
                                        "POST",
                                        "/v1/sandboxes/" + RUNNER + "/heartbeat",
                                        "{\"progress\": \"" + progress + "\"}",
                                        token)
                                .statusCode()
                        == 200) {
                    done.add(new Committed("heartbeat", progress, System.nanoTime()));
                }
                Thread.sleep(50);
            } catch (Exception killed) {
                return;
            }
        }
    }

    /**
     * Opens a copy of the store the kill left, as the next Paddock would, and lists what is missing: sandboxes and
     * setting events whose commit returned, and a heartbeat older than the store's: the runner's progress must be
     * the one of a heartbeat answered at most {@link #HEARTBEAT_GRACE} before the kill, or newer.
     */
    private List<String> check(Path home, List<Committed> done, long killedAt) throws Exception {
        Path copy = temp.resolve("check");
        Files.createDirectories(copy);
        Files.copy(home.resolve("paddock.mv.db"), copy.resolve("paddock.mv.db"), StandardCopyOption.REPLACE_EXISTING);
        List<String> missing = new ArrayList<>();
        try (Database db = Database.open(copy.resolve("paddock"))) {
            Set<String> sandboxes = new HashSet<>(db.jdbc().query("SELECT id FROM sandboxes", rs -> rs.getString(1)));
            Set<String> values = new HashSet<>();
            for (String details : db.jdbc()
                    .query("SELECT details FROM events WHERE kind = 'setting.changed'", rs -> rs.getString(1))) {
                values.add(Json.mapper().readTree(details).path("to").asText());
            }
            List<String> progresses =
                    db.jdbc().query("SELECT progress FROM sandboxes WHERE id = ?", rs -> rs.getString(1), RUNNER);
            String progress = progresses.isEmpty() ? null : progresses.get(0);
            Committed lastDue = null;
            for (Committed c : done) {
                if (c.kind().equals("sandbox") && !sandboxes.contains(c.key())) {
                    missing.add("sandbox " + c.key());
                } else if (c.kind().equals("event") && !values.contains(c.key())) {
                    missing.add("event setting.changed to " + c.key());
                } else if (c.kind().equals("heartbeat") && killedAt - c.at() > HEARTBEAT_GRACE.toNanos()) {
                    lastDue = c;
                }
            }
            if (lastDue != null
                    && (progress == null || !progress.startsWith("round ") || beat(progress) < beat(lastDue.key()))) {
                missing.add("heartbeat " + lastDue.key() + " (stored: " + progress + ")");
            }
        }
        return missing;
    }

    /** The agents (the runner sleeps a day) outlive each Paddock by design: end them with the benchmark. */
    private static void killAgents(Path repo) {
        String marker = repo.resolve(".worktrees").toString();
        ProcessHandle.allProcesses()
                .filter(h -> h.info().commandLine().map(c -> c.contains(marker)).orElse(false))
                .forEach(h -> {
                    h.descendants().forEach(ProcessHandle::destroyForcibly);
                    h.destroyForcibly();
                });
    }

    /** "round R beat N" as a number that orders heartbeats: R * 10^6 + N. */
    private static long beat(String progress) {
        String[] w = progress.split(" ");
        return Long.parseLong(w[1]) * 1_000_000 + Long.parseLong(w[3]);
    }

    private final class Api {
        private final URI base;
        private final String token;

        Api(URI base, String token) {
            this.base = base;
            this.token = token;
        }

        HttpResponse<String> send(String method, String path, String body, String bearer) throws Exception {
            return http.send(
                    HttpRequest.newBuilder(base.resolve(path))
                            .timeout(Duration.ofSeconds(20))
                            .header("Authorization", "Bearer " + bearer)
                            .method(
                                    method,
                                    body == null
                                            ? HttpRequest.BodyPublishers.noBody()
                                            : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
                            .build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        }
    }
}
