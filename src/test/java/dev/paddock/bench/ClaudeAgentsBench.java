package dev.paddock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.Host;
import dev.paddock.approval.Approval;
import dev.paddock.sandbox.AgentCounts;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.Tier;
import dev.paddock.settings.PaddockHome;
import dev.paddock.testing.ClaudeCli;
import dev.paddock.testing.ScriptedAnthropic;
import dev.paddock.testing.ScriptedAnthropic.Reply;
import dev.paddock.testing.TempRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Benchmark: real Claude Code agents started by Paddock against a {@link ScriptedAnthropic} on loopback (the model is
 * scripted; the CLI, its hooks and Paddock's broker are real), in the worktree tier.
 *
 * <ul>
 *   <li>Ten sandboxes made at once (one fan-out, {@code claude:10}): the time from the request until each agent's
 *   first tool call reached Paddock's broker (its {@code PreToolUse} hook), and until all ten had; beside it, the same
 *   for one sandbox alone.</li>
 *   <li>The panel (a real process under X, started by {@code target/paddock}) while ten agents stream their
 *   transcripts, one tool call about every second each, and one agent's Transcript tab open: its CPU (its own
 *   process; the agents are not counted) and resident memory.</li>
 * </ul>
 * Figures are reported, not asserted.
 */
class ClaudeAgentsBench {
    private static final String POLICY =
            "{\"permissions\": {\"allow\": [\"Bash(git status)\", \"Bash(echo:*)\"," + " \"Bash(sleep:*)\"]}}";

    @TempDir
    Path temp;

    @Test
    void tenClaudeSandboxesToTheirFirstToolCall() throws Exception {
        Path bin = ClaudeCli.require();
        try (ScriptedAnthropic api = ScriptedAnthropic.start(
                ScriptedAnthropic.Script.steps(Reply.bash("git status"), Reply.text("The tree is clean.")))) {
            Map<String, String> env = environment(bin, api, Files.createDirectories(temp.resolve("agent-config")));
            for (int round = 0; round < 3; round++) {
                for (int n : List.of(1, 10)) {
                    Path dir = Files.createDirectories(temp.resolve("r" + round + "-" + n));
                    TempRepo repo = repository(dir);
                    Host host = Host.start(PaddockHome.resolve(dir.resolve("home"), Map.of()), "serve", env);
                    try {
                        List<Long> each = firstToolCalls(host, repo, n);
                        BenchSupport.report(String.format(
                                "Claude Code x%d (round %d): request to first tool call"
                                        + " at the broker, ms: %s; all %d: %d ms",
                                n,
                                round + 1,
                                BenchSupport.summary(each),
                                n,
                                each.stream().mapToLong(Long::longValue).max().orElseThrow()));
                        // The round's agents end before the next round starts: none of them runs on beside it.
                        awaitAllEnded(host, Duration.ofMinutes(2));
                    } finally {
                        host.close();
                    }
                }
            }
        }
    }

    private static void awaitAllEnded(Host host, Duration limit) throws Exception {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!host.wiring().sandboxes().listLive().stream()
                .allMatch(s -> !s.state().mayHaveProcess())) {
            assertThat(System.nanoTime()).as("the round's agents end").isLessThan(deadline);
            Thread.sleep(100);
        }
    }

    /** Makes {@code n} Claude Code sandboxes in one request; the ms from it to each one's first tool call. */
    private static List<Long> firstToolCalls(Host host, TempRepo repo, int n) throws Exception {
        Instant asked = Instant.now();
        NewSandbox template = NewSandbox.custom(repo.dir(), "Look at the tree.", null)
                .tier(Tier.WORKTREE)
                .maxRetries(0)
                .build();
        List<SandboxRecord> made = n == 1
                ? List.of(host.wiring()
                        .sandboxService()
                        .create(template.toBuilder().agent("claude").build()))
                : host.wiring()
                        .sandboxService()
                        .createGroup(template, AgentCounts.parse("claude:" + n))
                        .sandboxes();
        List<Long> each = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        for (SandboxRecord s : made) {
            while (true) {
                List<Approval> calls = host.wiring().approvals().ofSandbox(s.id(), 10);
                if (!calls.isEmpty()) {
                    Instant first = calls.stream()
                            .map(Approval::requestedAt)
                            .min(Instant::compareTo)
                            .orElseThrow();
                    each.add(Duration.between(asked, first).toMillis());
                    break;
                }
                assertThat(System.nanoTime())
                        .as(s.id() + " made no tool call; log:\n"
                                + host.wiring().sandboxService().logTail(s.id()))
                        .isLessThan(deadline);
                Thread.sleep(20);
            }
        }
        return each;
    }

    @Test
    void thePanelWhileTenTranscriptsStream() throws Exception {
        Path bin = ClaudeCli.require();
        // Each agent: 45 calls of about one second each, then a last word.
        try (ScriptedAnthropic api = ScriptedAnthropic.start(t -> t.turnsSincePrompt() < 45
                ? Reply.bash("echo step " + t.turnsSincePrompt() + " && sleep 1")
                : Reply.text("Done."))) {
            Path dir = Files.createDirectories(temp.resolve("panel"));
            TempRepo repo = repository(dir);
            Path home = dir.resolve("home");
            Map<String, String> env = environment(bin, api, Files.createDirectories(dir.resolve("agent-config")));
            String display = BenchSupport.display();
            ProcessBuilder pb = new ProcessBuilder(
                            BenchSupport.launcher().toString(),
                            "--home",
                            home.toString(),
                            "--repo",
                            repo.dir().toString())
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("panel.log").toFile());
            pb.environment().clear();
            pb.environment().putAll(env);
            pb.environment().put("DISPLAY", display);
            Process panel = pb.start();
            try {
                waitForApi(home, panel);
                Thread.sleep(5_000); // the first dashboard, then quiet
                long idleFrom = BenchSupport.cpuMillis(panel.pid());
                Thread.sleep(10_000);
                long idleCpu = BenchSupport.cpuMillis(panel.pid()) - idleFrom;

                Process cli = new ProcessBuilder(
                                BenchSupport.launcher().toString(),
                                "--home",
                                home.toString(),
                                "sandbox",
                                "new",
                                "--repo",
                                repo.dir().toString(),
                                "--agents",
                                "claude:10",
                                "--task",
                                "Count to forty-five, slowly.")
                        .redirectErrorStream(true)
                        .start();
                String out = new String(cli.getInputStream().readAllBytes());
                assertThat(cli.waitFor(60, TimeUnit.SECONDS)).isTrue();
                assertThat(cli.exitValue()).as(out).isZero();
                // Measured once all ten stream: each has had a few turns.
                long streaming = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
                while (api.turns().size() < 40 && System.nanoTime() < streaming) {
                    Thread.sleep(200);
                }
                // Select the first sandbox so its Transcript tab shows (first table row at 1366x768 and larger).
                new ProcessBuilder("xdotool", "mousemove", "120", "262", "click", "1")
                        .inheritIO()
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .start()
                        .waitFor(10, TimeUnit.SECONDS);
                if (System.getenv("PADDOCK_BENCH_SHOT") != null) {
                    Thread.sleep(3_000);
                    new ProcessBuilder(
                                    "import",
                                    "-display",
                                    display,
                                    "-window",
                                    "root",
                                    System.getenv("PADDOCK_BENCH_SHOT"))
                            .inheritIO()
                            .start()
                            .waitFor(30, TimeUnit.SECONDS);
                }
                long from = BenchSupport.cpuMillis(panel.pid());
                long t0 = System.nanoTime();
                Thread.sleep(30_000);
                long cpu = BenchSupport.cpuMillis(panel.pid()) - from;
                double seconds = (System.nanoTime() - t0) / 1e9;
                long calls = api.turns().size();
                BenchSupport.report(
                        String.format("Panel idle before the agents: %.1f %% of one core", idleCpu / 100.0));
                BenchSupport.report(String.format(
                        "Panel while ten Claude Code transcripts stream (%d model turns in"
                                + " all so far): %.1f %% of one core over %.0f s; RSS %d MB",
                        calls, cpu / (seconds * 10.0), seconds, BenchSupport.rssBytes(panel.pid()) / (1024 * 1024)));
                assertThat(panel.isAlive()).isTrue();
            } finally {
                // Its agents first: they outlive a panel that stops, and would write on in the folder being removed.
                Process list = new ProcessBuilder(
                                BenchSupport.launcher().toString(),
                                "--home",
                                home.toString(),
                                "sandbox",
                                "list",
                                "--repo",
                                repo.dir().toString(),
                                "--json")
                        .start();
                String sandboxes = new String(list.getInputStream().readAllBytes());
                list.waitFor(60, TimeUnit.SECONDS);
                var listed = dev.paddock.common.Json.mapper().readTree(sandboxes.isBlank() ? "{}" : sandboxes);
                for (var s : listed.path("sandboxes")) {
                    new ProcessBuilder(
                                    BenchSupport.launcher().toString(),
                                    "--home",
                                    home.toString(),
                                    "sandbox",
                                    "stop",
                                    s.get("id").asText())
                            .redirectErrorStream(true)
                            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                            .start()
                            .waitFor(60, TimeUnit.SECONDS);
                }
                panel.destroy();
                panel.waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    private static void waitForApi(Path home, Process panel) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.exists(home.resolve("instance.json"))) {
            assertThat(panel.isAlive()).as("the panel runs").isTrue();
            assertThat(System.nanoTime()).as("the panel's API starts").isLessThan(deadline);
            Thread.sleep(100);
        }
    }

    private static TempRepo repository(Path dir) throws Exception {
        TempRepo repo = TempRepo.init(dir.resolve("repo")).excludeWorktreesDir();
        Files.createDirectories(repo.dir().resolve(".paddock"));
        Files.writeString(repo.dir().resolve(".paddock/policy.json"), POLICY);
        repo.git("add", ".paddock/policy.json");
        repo.git("commit", "-q", "-m", "Add the policy");
        return repo;
    }

    /** Paddock's environment: Claude Code on PATH, the scripted API, a private config, nothing phoning home. */
    private static Map<String, String> environment(Path bin, ScriptedAnthropic api, Path config) {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("PATH", bin.getParent() + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        env.put("ANTHROPIC_BASE_URL", api.baseUrl());
        env.put("ANTHROPIC_API_KEY", ScriptedAnthropic.API_KEY);
        env.remove("ANTHROPIC_AUTH_TOKEN");
        env.remove("CLAUDE_CODE_OAUTH_TOKEN");
        env.put("CLAUDE_CONFIG_DIR", config.toString());
        env.put("DISABLE_TELEMETRY", "1");
        env.put("DISABLE_ERROR_REPORTING", "1");
        env.put("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
        return env;
    }
}
