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
 * For tests against the real Codex CLI: finds it ({@code PADDOCK_CODEX_BIN}, else {@code codex} on PATH), requires
 * it (a failure with {@code PADDOCK_REQUIRE_CODEX=1}, as in CI, which installs a pinned version; a skip otherwise),
 * and runs it against a {@link ScriptedOpenAI} with a private {@code CODEX_HOME} whose {@code config.toml} makes the
 * scripted server its model provider.
 */
public final class CodexCli {
    private static final RequiredCli CLI = new RequiredCli(AgentPreset.CODEX, "CODEX", "Codex CLI");

    /** Two minutes: a run takes 1-3 s here, more on a busy machine. */
    public static final Duration TIMEOUT = Duration.ofMinutes(2);

    private CodexCli() {}

    /** The binary, or a failed / skipped test. */
    public static Path require() {
        return CLI.require();
    }

    /**
     * Whether the namespace tier (Codex's default) can run here: bubblewrap is required like the binary; a machine
     * whose kernel refuses it its namespaces skips, as the namespace tier's tests do.
     */
    public static void requireNamespaceTier() {
        CLI.requireBubblewrap();
    }

    /** Writes {@code codexHome/config.toml} with {@code api} as the model provider; returns {@code codexHome}. */
    public static Path configure(Path codexHome, ScriptedOpenAI api) {
        try {
            Files.createDirectories(codexHome);
            Files.writeString(codexHome.resolve("config.toml"), api.providerConfig());
            return codexHome;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What a run printed and how it ended. */
    public record Run(int exitCode, String stdout, String stderr) {
        /** The stdout lines. */
        public List<String> lines() {
            return stdout.lines().toList();
        }
    }

    /** Runs {@code codex args...} in {@code dir}, stdin closed, with a configured {@code codexHome} ({@link #configure}). */
    public static Run run(Path bin, Path dir, Path codexHome, List<String> args, Duration timeout) {
        List<String> cmd = new ArrayList<>();
        cmd.add(bin.toString());
        cmd.addAll(args);
        try {
            Path out = Files.createTempFile("codex-out", ".jsonl");
            Path err = Files.createTempFile("codex-err", ".txt");
            ProcessBuilder pb = new ProcessBuilder(cmd)
                    .directory(dir.toFile())
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            Map<String, String> env = pb.environment();
            env.clear();
            env.put("PATH", "/usr/local/bin:/usr/bin:/bin");
            env.put("HOME", codexHome.getParent().toString());
            env.put("CODEX_HOME", codexHome.toString());
            env.put("LANG", "C.UTF-8");
            env.put("OPENAI_API_KEY", ScriptedOpenAI.API_KEY);
            Process p = pb.start();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
                throw new AssertionError("codex took longer than " + timeout + "; stdout: "
                        + Files.readString(out, StandardCharsets.UTF_8) + "\nstderr: "
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
}
