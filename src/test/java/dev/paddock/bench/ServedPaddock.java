package dev.paddock.bench;

import dev.paddock.common.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A real {@code paddock serve} started through the launcher {@code mvn package} writes ({@link
 * BenchSupport#launcher()}), for the benchmarks that load it from outside: its API with the install token, the
 * sandboxes made through it, and what {@code /proc} tells of its process. {@code PADDOCK_JAVA_OPTS} in the
 * benchmark's environment reaches the server's JVM (a flight recording, say).
 */
final class ServedPaddock implements AutoCloseable {
    static final Duration WAIT = Duration.ofSeconds(120);

    private final Process serve;
    private final Path home;
    private final Path repo;
    private final List<String> sandboxes = new ArrayList<>();
    private final java.util.Map<String, Path> worktrees = new java.util.concurrent.ConcurrentHashMap<>();
    private LocalApi api;

    private ServedPaddock(Process serve, Path home, Path repo) {
        this.serve = serve;
        this.home = home;
        this.repo = repo;
    }

    /** Starts {@code paddock serve --home <dir>/home --repo repo}, its output in {@code <dir>/serve.log}. */
    static ServedPaddock start(Path dir, Path repo) throws Exception {
        Path home = dir.resolve("home");
        ProcessBuilder pb = new ProcessBuilder(
                        BenchSupport.launcher().toString(),
                        "--home",
                        home.toString(),
                        "serve",
                        "--repo",
                        repo.toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("serve.log").toFile());
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        ServedPaddock p = new ServedPaddock(pb.start(), home, repo);
        try {
            p.awaitServer();
        } catch (Exception | AssertionError e) {
            p.close();
            throw e;
        }
        return p;
    }

    /** The server's JVM (the launcher execs it). */
    long pid() {
        return serve.pid();
    }

    Process process() {
        return serve;
    }

    URI base() {
        return api.base();
    }

    /** The store's file. */
    Path store() {
        return home.resolve("paddock.mv.db");
    }

    private void awaitServer() throws Exception {
        api = LocalApi.await(home, serve, WAIT, Duration.ofSeconds(20));
    }

    /**
     * Creates a sandbox (worktree tier) whose agent runs {@code command} through the API with the install token.
     *
     * @return its id
     */
    String create(String id, String task, String command) throws Exception {
        String body = Json.mapper()
                .createObjectNode()
                .put("repo", repo.toString())
                .put("task", task)
                .put("id", id)
                .put("command", command)
                .toString();
        HttpResponse<String> r = send("POST", "/v1/sandboxes", body);
        if (r.statusCode() != 201) {
            throw new AssertionError(r.body());
        }
        com.fasterxml.jackson.databind.JsonNode made = Json.mapper().readTree(r.body());
        String madeId = made.get("id").asText();
        sandboxes.add(madeId);
        worktrees.put(madeId, Path.of(made.get("worktreePath").asText()));
        return madeId;
    }

    /** The directory of sandbox {@code id}, {@code <repo>/.worktrees/<id>}: its worktree and its control directory. */
    Path sandboxDir(String id) {
        return repo.resolve(".worktrees").resolve(id);
    }

    /** The worktree of sandbox {@code id} (made by {@link #create}), where its agent works: a hook call's cwd. */
    Path worktree(String id) {
        return worktrees.get(id);
    }

    /** The text of {@code file} once it exists and is not empty (an agent writes it when it starts). */
    static String awaitFile(Path file) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            if (Files.exists(file) && Files.size(file) > 0) {
                return Files.readString(file).strip();
            }
            Thread.sleep(50);
        }
        throw new AssertionError(file + " was never written");
    }

    /** A request with the install token. */
    HttpResponse<String> send(String method, String path, String body) throws Exception {
        return api.send(method, path, body);
    }

    HttpResponse<String> send(String method, String path, String body, String token) throws Exception {
        return api.send(method, path, body, token);
    }

    /**
     * CPU time (user + system) the server's finished child processes used so far (git, say), in ms: what {@link
     * BenchSupport#cpuMillis} leaves out.
     */
    long childCpuMillis() throws IOException {
        String stat = Files.readString(Path.of("/proc/" + serve.pid() + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(f[13]) + Long.parseLong(f[14])) * 10;
    }

    /**
     * CPU time (user + system) of each of the server's threads so far, in ms, by thread name with its numbers
     * replaced by N ({@code api-N}, {@code GC Thread#N}), so that pools add up; Linux keeps 15 characters of a name.
     */
    Map<String, Long> threadCpuMillis() throws IOException {
        Map<String, Long> out = new TreeMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/" + serve.pid() + "/task"))) {
            for (Path t : tasks.toList()) {
                try {
                    String name = Files.readString(t.resolve("comm")).strip().replaceAll("[0-9]+", "N");
                    String stat = Files.readString(t.resolve("stat"));
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    long ms = (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10;
                    out.merge(name, ms, Long::sum);
                } catch (IOException | RuntimeException ended) {
                    // the thread ended meanwhile
                }
            }
        }
        return out;
    }

    /** The busiest threads between two {@link #threadCpuMillis} readings: {@code name=ms}, most first. */
    static String busiest(Map<String, Long> before, Map<String, Long> after, int top) {
        Map<String, Long> used = new LinkedHashMap<>();
        after.forEach((k, v) -> used.put(k, v - before.getOrDefault(k, 0L)));
        return used.entrySet().stream()
                .filter(e -> e.getValue() > 0)
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .limit(top)
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(", "));
    }

    /** Stops the sandboxes made here, then the server (SIGTERM: a clean stop), and ends the agents left. */
    @Override
    public void close() throws Exception {
        try {
            if (serve.isAlive() && api != null) {
                for (String id : sandboxes) {
                    try {
                        send("POST", "/v1/sandboxes/" + id + "/stop", "{\"by\": \"the benchmark\"}");
                    } catch (IOException | RuntimeException e) {
                        // stopping anyway
                    }
                }
            }
        } finally {
            serve.destroy();
            if (!serve.waitFor(60, TimeUnit.SECONDS)) {
                serve.destroyForcibly();
            }
            killAgents();
        }
    }

    private static String cwdOf(ProcessHandle h) {
        try {
            return Files.readSymbolicLink(Path.of("/proc/" + h.pid() + "/cwd")).toString();
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    /** The agents of the benchmarks sleep for an hour: end them (they outlive a stopped Paddock by design). */
    private void killAgents() {
        String marker = repo.resolve(".worktrees").toString();
        ProcessHandle.allProcesses()
                .filter(h -> h.info().commandLine().map(c -> c.contains(marker)).orElse(false)
                        || cwdOf(h).startsWith(marker))
                .forEach(h -> {
                    h.descendants().forEach(ProcessHandle::destroyForcibly);
                    h.destroyForcibly();
                });
    }
}
