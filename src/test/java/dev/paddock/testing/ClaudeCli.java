package dev.paddock.testing;

import dev.paddock.agent.AgentPreset;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * For tests against the real Claude Code CLI: finds it ({@code PADDOCK_CLAUDE_BIN}, else {@code claude} on PATH),
 * requires it (a failure with {@code PADDOCK_REQUIRE_CLAUDE=1}, as in CI, which installs a pinned version; a skip
 * otherwise), and runs it against a {@link ScriptedAnthropic} with a private {@code HOME} and nothing that phones
 * home: telemetry, error reports, the auto-updater and all other non-essential traffic are switched off.
 */
public final class ClaudeCli {
    private static final RequiredCli CLI = new RequiredCli(AgentPreset.CLAUDE, "CLAUDE", "Claude Code CLI");

    private ClaudeCli() {}

    /** The binary, or a failed / skipped test. */
    public static Path require() {
        return CLI.require();
    }

    /**
     * Whether Claude Code's own Bash sandbox can run here: bubblewrap and socat are required like the binary; a
     * machine whose kernel refuses bubblewrap its namespaces skips, as the namespace tier's tests do.
     */
    public static void requireSandboxTools() {
        CLI.need(
                onPath("bwrap") && onPath("socat"),
                "Claude Code's sandbox needs bubblewrap and socat (.ci/run" + " installs both)");
        CLI.requireBubblewrap();
    }

    /** What a run printed and how it ended. */
    public record Run(int exitCode, String stdout, String stderr) {
        /** The stdout lines. */
        public List<String> lines() {
            return stdout.lines().toList();
        }
    }

    /**
     * Runs {@code claude args...} in {@code dir} with {@code home} as its HOME, talking to {@code api}.
     *
     * @param extraEnv more variables (Paddock's, a hook's); may be empty
     */
    public static Run run(
            Path bin,
            Path dir,
            Path home,
            ScriptedAnthropic api,
            Map<String, String> extraEnv,
            List<String> args,
            Duration timeout) {
        List<String> cmd = new ArrayList<>();
        cmd.add(bin.toString());
        cmd.addAll(args);
        return exec(cmd, dir, home, api, extraEnv, timeout);
    }

    /** Runs a whole command line (from a preset) the same way. */
    public static Run exec(
            List<String> cmd,
            Path dir,
            Path home,
            ScriptedAnthropic api,
            Map<String, String> extraEnv,
            Duration timeout) {
        try {
            Files.createDirectories(home);
            Path out = Files.createTempFile("claude-out", ".jsonl");
            Path err = Files.createTempFile("claude-err", ".txt");
            ProcessBuilder pb = new ProcessBuilder(cmd)
                    .directory(dir.toFile())
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            Map<String, String> env = pb.environment();
            env.clear();
            env.put("PATH", "/usr/local/bin:/usr/bin:/bin");
            env.put("HOME", home.toString());
            env.put("LANG", "C.UTF-8");
            env.put("ANTHROPIC_BASE_URL", api.baseUrl());
            env.put("ANTHROPIC_API_KEY", ScriptedAnthropic.API_KEY);
            env.put("DISABLE_TELEMETRY", "1");
            env.put("DISABLE_ERROR_REPORTING", "1");
            env.put("DISABLE_AUTOUPDATER", "1");
            env.put("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
            env.putAll(extraEnv);
            Process p = pb.start();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
                throw new AssertionError("claude took longer than " + timeout + "; stderr: "
                        + Files.readString(err, StandardCharsets.UTF_8));
            }
            Run r = new Run(
                    p.exitValue(),
                    Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
            return r;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    private static boolean onPath(String name) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, name))) {
                return true;
            }
        }
        return false;
    }

    /** Five minutes: a run takes 2-5 s here, more on a busy machine. */
    public static final Duration TIMEOUT = Duration.ofMinutes(5);

    /**
     * What a {@code paddock serve} that runs Claude Code against {@code api} has in its environment: the CLI's folder
     * ({@code bin}'s) on PATH, the scripted API and its key, its own HOME, nothing phoning home.
     */
    public static Map<String, String> serveEnvironment(Path bin, Path agentHome, ScriptedAnthropic api) {
        Map<String, String> env = new java.util.LinkedHashMap<>();
        env.put("PATH", bin.getParent() + ":/usr/local/bin:/usr/bin:/bin");
        env.put("HOME", agentHome.toString());
        env.put("ANTHROPIC_BASE_URL", api.baseUrl());
        env.put("ANTHROPIC_API_KEY", ScriptedAnthropic.API_KEY);
        env.put("ANTHROPIC_AUTH_TOKEN", null);
        env.put("CLAUDE_CODE_OAUTH_TOKEN", null);
        env.put("DISABLE_TELEMETRY", "1");
        env.put("DISABLE_ERROR_REPORTING", "1");
        env.put("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
        return env;
    }
}
