package dev.paddock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.paddock.api.HookAuth;
import dev.paddock.api.HookClient;
import dev.paddock.common.Json;
import dev.paddock.common.PaddockException;
import dev.paddock.testing.TempRepo;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Phaser;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Paddock under many agents (targets on a 2-core machine: Paddock at most 10 % of one core on average, the hook's
 * p99 at most 50 ms): a real {@code paddock serve} with 100 running sandboxes whose agents sleep, each sending a
 * heartbeat a second with its own token through the API, and 20 signed hook calls a second ({@link HookClient},
 * each with its sandbox's own hook key, as the hook program signs them) spread over the sandboxes, for 10 minutes
 * ({@code -Dpaddock.bench.minutes=N}) after a warm-up of 30 s ({@code -Dpaddock.bench.warmupSeconds=N}). The calls
 * are commands the repository's policy decides at once ({@code git status} and {@code ls} allowed, {@code rm -rf}
 * and {@code git push} denied; nothing waits for a person), each timed here from its connect to its verified
 * answer. Both streams are open loop: a slow answer delays no later request.
 *
 * <p>Reports over the measured window: the server JVM's CPU (user + system from {@code /proc}) as a share of one
 * core and its busiest threads, its RSS at the end, the store's growth, heartbeats and hook calls sent and failed,
 * the hook's p50/p90/p99/max, the slowest calls and when they came, and the machine's load average meanwhile.
 * Asserts that every hook call was answered as the policy says and no heartbeat failed; the targets are reported
 * only.
 */
class LoadBench {
    private static final int AGENTS = Integer.getInteger("paddock.bench.agents", 100);
    private static final int HOOKS_PER_SECOND = Integer.getInteger("paddock.bench.hooksPerSecond", 20);
    /** The repository's policy: every command the benchmark sends is decided at once. */
    static final String POLICY = "{\"permissions\": {\"allow\": [\"Bash(git status)\", \"Bash(ls)\"],"
            + " \"deny\": [\"Bash(rm -rf:*)\", \"Bash(git push:*)\"]}, \"unmatched\": \"deny\"}";
    /** The commands sent, in turn, and whether the policy allows each. */
    private static final List<String> COMMANDS =
            List.of("git status", "ls", "git status", "rm -rf build", "ls", "git status", "git push origin main");

    private static final List<Boolean> ALLOWED = List.of(true, true, true, false, true, true, false);

    @TempDir
    Path temp;

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** What one stream of requests met: counts and, for the hook, each measured call's time. */
    private static final class Tally {
        final AtomicLong sent = new AtomicLong();
        final AtomicLong failed = new AtomicLong();
        final AtomicLong measuredSent = new AtomicLong();
        final AtomicLong measuredFailed = new AtomicLong();
        final AtomicLong allowed = new AtomicLong();
        final AtomicLong denied = new AtomicLong();
        final AtomicLong unexpected = new AtomicLong();
        /** Measured calls: {start ms since the window opened, µs taken}. */
        final ConcurrentLinkedQueue<long[]> times = new ConcurrentLinkedQueue<>();

        final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();

        void failure(boolean measured, String why) {
            failed.incrementAndGet();
            if (measured) {
                measuredFailed.incrementAndGet();
            }
            if (failures.size() < 10) {
                failures.add(why);
            }
        }
    }

    /** One agent as the benchmark sees it: its sandbox, worktree, token and hook client. */
    private record Agent(String id, Path worktree, String token, HookClient hook) {}

    @Test
    void manyAgentsHeartbeatingAndAskingTheHook() throws Exception {
        double minutes = Double.parseDouble(System.getProperty("paddock.bench.minutes", "10"));
        long warmupMs = TimeUnit.SECONDS.toMillis(Long.getLong("paddock.bench.warmupSeconds", 30));
        long measuredMs = Math.round(minutes * 60_000);
        TempRepo repo = TempRepo.init(temp.resolve("repo"));
        repo.write(".paddock/policy.json", POLICY);
        try (ServedPaddock paddock = ServedPaddock.start(temp, repo.dir())) {
            List<Agent> agents = agents(paddock);
            Thread.sleep(5_000);
            Tally beats = new Tally();
            Tally hooks = new Tally();
            long start = System.nanoTime();
            long windowStart = start + TimeUnit.MILLISECONDS.toNanos(warmupMs);
            ScheduledExecutorService clock = Executors.newScheduledThreadPool(2);
            ExecutorService callers = Executors.newFixedThreadPool(64);
            Phaser inFlight = new Phaser(1);
            AtomicLong beatNo = new AtomicLong();
            AtomicLong callNo = new AtomicLong();
            clock.scheduleAtFixedRate(
                    () -> beat(paddock, agents, beatNo.getAndIncrement(), windowStart, beats, inFlight),
                    0,
                    TimeUnit.SECONDS.toMicros(1) / AGENTS,
                    TimeUnit.MICROSECONDS);
            clock.scheduleAtFixedRate(
                    () -> {
                        long n = callNo.getAndIncrement();
                        inFlight.register();
                        callers.execute(() -> {
                            try {
                                call(agents, n, windowStart, hooks);
                            } finally {
                                inFlight.arriveAndDeregister();
                            }
                        });
                    },
                    0,
                    TimeUnit.SECONDS.toMicros(1) / HOOKS_PER_SECOND,
                    TimeUnit.MICROSECONDS);
            sleepUntil(windowStart);
            long cpuBefore = BenchSupport.cpuMillis(paddock.pid());
            long childrenBefore = paddock.childCpuMillis();
            Map<String, Long> threadsBefore = paddock.threadCpuMillis();
            long sizeBefore = Files.size(paddock.store());
            long windowEnd = windowStart + TimeUnit.MILLISECONDS.toNanos(measuredMs);
            List<Double> load = new ArrayList<>();
            try (AutoCloseable recording = BenchSupport.recording(paddock.pid())) {
                while (System.nanoTime() < windowEnd) {
                    load.add(loadAverage());
                    sleepUntil(Math.min(windowEnd, System.nanoTime() + TimeUnit.SECONDS.toNanos(10)));
                }
            }
            long cpu = BenchSupport.cpuMillis(paddock.pid()) - cpuBefore;
            long children = paddock.childCpuMillis() - childrenBefore;
            long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - windowStart);
            Map<String, Long> threadsAfter = paddock.threadCpuMillis();
            clock.shutdownNow();
            clock.awaitTermination(10, TimeUnit.SECONDS);
            inFlight.awaitAdvanceInterruptibly(inFlight.arrive(), 90, TimeUnit.SECONDS);
            callers.shutdown();
            long rss = BenchSupport.rssBytes(paddock.pid());
            long sizeEnd = Files.size(paddock.store());
            report(
                    minutes,
                    warmupMs,
                    load,
                    new long[] {cpu, children},
                    elapsedMs,
                    rss,
                    sizeBefore,
                    sizeEnd,
                    beats,
                    hooks);
            BenchSupport.report("load: busiest threads of the server over the window (ms of CPU): "
                    + ServedPaddock.busiest(threadsBefore, threadsAfter, 12));
            slowest(hooks);
            assertThat(hooks.failures)
                    .as("hook calls not answered allow or deny")
                    .isEmpty();
            assertThat(hooks.failed.get()).isZero();
            assertThat(hooks.unexpected.get())
                    .as("hook calls answered otherwise than the policy says")
                    .isZero();
            assertThat(beats.failures).as("heartbeats not answered 200").isEmpty();
            assertThat(beats.failed.get()).isZero();
            assertThat(hooks.sent.get()).isPositive();
        }
    }

    /** Creates the sandboxes; each agent leaves its token and hook key beside its heartbeat file, then sleeps. */
    private static List<Agent> agents(ServedPaddock paddock) throws Exception {
        List<String> ids = new ArrayList<>();
        for (int i = 1; i <= AGENTS; i++) {
            ids.add(paddock.create(
                    "load-" + i,
                    "Load agent " + i + ": a task described in a sentence or two, as people write them",
                    "printf %s \"$PADDOCK_HOOK_KEY\" > \"$PADDOCK_HEARTBEAT_FILE.key\";"
                            + " printf %s \"$PADDOCK_TOKEN\" > \"$PADDOCK_HEARTBEAT_FILE.token\"; exec sleep 3600"));
        }
        List<Agent> agents = new ArrayList<>();
        for (String id : ids) {
            Path dir = paddock.sandboxDir(id);
            String token = ServedPaddock.awaitFile(dir.resolve(".paddock/heartbeat.token"));
            String key = ServedPaddock.awaitFile(dir.resolve(".paddock/heartbeat.key"));
            HookClient hook = new HookClient(
                    paddock.base().toString(),
                    HookAuth.SANDBOX_PREFIX + id,
                    key,
                    Duration.ofSeconds(10),
                    Duration.ofSeconds(5));
            agents.add(new Agent(id, paddock.worktree(id), token, hook));
        }
        return agents;
    }

    /** Heartbeat {@code n}: agent {@code n % AGENTS}, so each beats once a second. */
    private void beat(ServedPaddock paddock, List<Agent> agents, long n, long windowStart, Tally t, Phaser inFlight) {
        Agent a = agents.get((int) (n % agents.size()));
        boolean measured = System.nanoTime() >= windowStart;
        t.sent.incrementAndGet();
        if (measured) {
            t.measuredSent.incrementAndGet();
        }
        HttpRequest req = HttpRequest.newBuilder(paddock.base().resolve("/v1/sandboxes/" + a.id() + "/heartbeat"))
                .timeout(Duration.ofSeconds(10))
                .header("Authorization", "Bearer " + a.token())
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"progress\": \"beat " + n / agents.size() + ": working on step " + n + "\"}"))
                .build();
        inFlight.register();
        http.sendAsync(req, HttpResponse.BodyHandlers.ofString()).whenComplete((r, e) -> {
            if (e != null) {
                t.failure(measured, a.id() + ": " + e);
            } else if (r.statusCode() != 200) {
                t.failure(measured, a.id() + ": HTTP " + r.statusCode() + " " + r.body());
            }
            inFlight.arriveAndDeregister();
        });
    }

    /** Hook call {@code n}: agent {@code (n * 37) % AGENTS} asks about the command {@code n % COMMANDS}. */
    private static void call(List<Agent> agents, long n, long windowStart, Tally t) {
        Agent a = agents.get((int) ((n * 37) % agents.size()));
        int k = (int) (n % COMMANDS.size());
        ObjectNode p = Json.mapper().createObjectNode();
        p.put("session_id", "load-session-" + a.id());
        p.put("cwd", a.worktree().toString());
        p.put("hook_event_name", "PreToolUse");
        p.put("tool_name", "Bash");
        p.putObject("tool_input").put("command", COMMANDS.get(k));
        p.put("tool_use_id", String.format("toolu_%024d", n));
        byte[] body = p.toString().getBytes(StandardCharsets.UTF_8);
        long t0 = System.nanoTime();
        boolean measured = t0 >= windowStart;
        t.sent.incrementAndGet();
        if (measured) {
            t.measuredSent.incrementAndGet();
        }
        try {
            HookClient.Decision d = a.hook().ask(body, a.id(), Duration.ofSeconds(30));
            long us = (System.nanoTime() - t0) / 1000;
            (d.allow() ? t.allowed : t.denied).incrementAndGet();
            if (d.allow() != ALLOWED.get(k) && t.unexpected.incrementAndGet() <= 3) {
                System.out.println("BENCH load: `" + COMMANDS.get(k) + "` was " + (d.allow() ? "allowed" : "denied")
                        + ": " + d.reason());
            }
            if (measured) {
                t.times.add(new long[] {TimeUnit.NANOSECONDS.toMillis(t0 - windowStart), us});
            }
        } catch (PaddockException | RuntimeException e) {
            t.failure(measured, a.id() + " `" + COMMANDS.get(k) + "`: " + e);
        }
    }

    private static void report(
            double minutes,
            long warmupMs,
            List<Double> load,
            long[] cpuAndChildren,
            long elapsedMs,
            long rss,
            long sizeBefore,
            long sizeEnd,
            Tally beats,
            Tally hooks)
            throws Exception {
        long[] us = hooks.times.stream().mapToLong(x -> x[1]).sorted().toArray();
        long cpu = cpuAndChildren[0];
        double share = 100.0 * cpu / elapsedMs;
        double p99 = pct(us, 0.99);
        BenchSupport.report(String.format(
                "load: %d agents x 1 heartbeat/s + %d hook calls/s for %.1f min after a %d s warm-up (load average"
                        + " %s): Paddock CPU %d ms in %.0f s = %.1f %% of one core (target <= 10: %s; its child processes"
                        + " %.1f %% more), RSS %d MB, store %.1f MB -> %.1f MB (%+.2f MB)",
                AGENTS,
                HOOKS_PER_SECOND,
                minutes,
                warmupMs / 1000,
                loadSummary(load),
                cpu,
                elapsedMs / 1000.0,
                share,
                share <= 10 ? "met" : "MISSED",
                100.0 * cpuAndChildren[1] / elapsedMs,
                rss / (1024 * 1024),
                sizeBefore / 1e6,
                sizeEnd / 1e6,
                (sizeEnd - sizeBefore) / 1e6));
        BenchSupport.report(String.format(
                "load: heartbeats %d sent (%d in the window), %d failed; hook calls %d sent (%d in the window), %d"
                        + " failed, %d allowed, %d denied, %d not as the policy says; hook p50 %.1f ms, p90 %.1f ms,"
                        + " p99 %.1f ms (target <= 50: %s), max %.1f ms (n=%d)",
                beats.sent.get(),
                beats.measuredSent.get(),
                beats.failed.get(),
                hooks.sent.get(),
                hooks.measuredSent.get(),
                hooks.failed.get(),
                hooks.allowed.get(),
                hooks.denied.get(),
                hooks.unexpected.get(),
                pct(us, 0.50),
                pct(us, 0.90),
                p99,
                us.length > 0 && p99 <= 50 ? "met" : "MISSED",
                us.length == 0 ? 0.0 : us[us.length - 1] / 1000.0,
                us.length));
        for (String f : beats.failures) {
            System.out.println("BENCH load: heartbeat failed: " + f);
        }
        for (String f : hooks.failures) {
            System.out.println("BENCH load: hook call failed: " + f);
        }
    }

    /** The slowest measured calls and when they started (s into the window): where the tail comes from. */
    private static void slowest(Tally hooks) {
        List<long[]> slow = hooks.times.stream()
                .sorted((x, y) -> Long.compare(y[1], x[1]))
                .limit(25)
                .toList();
        long over = hooks.times.stream().filter(x -> x[1] > 50_000).count();
        System.out.println("BENCH load: " + over + " hook call(s) over 50 ms; slowest (s into the window: ms): "
                + slow.stream()
                        .map(x -> String.format("%.1f: %.0f", x[0] / 1000.0, x[1] / 1000.0))
                        .collect(Collectors.joining(", ")));
    }

    /** The value at quantile {@code q} of sorted µs, in ms. */
    private static double pct(long[] sortedUs, double q) {
        if (sortedUs.length == 0) {
            return 0;
        }
        return sortedUs[Math.max(0, (int) Math.ceil(sortedUs.length * q) - 1)] / 1000.0;
    }

    private static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (Exception e) {
            return Double.NaN;
        }
    }

    private static String loadSummary(List<Double> load) {
        var s = load.stream().mapToDouble(Double::doubleValue).summaryStatistics();
        return String.format("1-min mean %.2f, %.2f to %.2f", s.getAverage(), s.getMin(), s.getMax());
    }

    private static void sleepUntil(long nanos) throws InterruptedException {
        long wait;
        while ((wait = nanos - System.nanoTime()) > 0) {
            TimeUnit.NANOSECONDS.sleep(wait);
        }
    }
}
