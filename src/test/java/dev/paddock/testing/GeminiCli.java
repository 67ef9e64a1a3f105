package dev.paddock.testing;

import dev.paddock.agent.AgentPreset;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * For tests against the real Gemini CLI: finds it ({@code PADDOCK_GEMINI_BIN}, else {@code gemini} on PATH), requires
 * it (a failure with {@code PADDOCK_REQUIRE_GEMINI=1}, as in CI, which installs a pinned version; a skip otherwise),
 * and runs it against a {@link ScriptedGemini} with a private {@code HOME} whose settings choose the API key as the
 * auth type.
 */
public final class GeminiCli {
    private static final RequiredCli CLI = new RequiredCli(AgentPreset.GEMINI, "GEMINI", "Gemini CLI");

    /** Two minutes: a run takes 2-4 s here, more on a busy machine. */
    public static final Duration TIMEOUT = Duration.ofMinutes(2);

    private GeminiCli() {}

    /** The binary, or a failed / skipped test. */
    public static Path require() {
        return CLI.require();
    }

    /**
     * Whether the namespace tier (Gemini CLI's default) can run here: bubblewrap is required like the binary; a
     * machine whose kernel refuses it its namespaces skips, as the namespace tier's tests do.
     */
    public static void requireNamespaceTier() {
        CLI.requireBubblewrap();
    }

    /** Writes {@code home/.gemini/settings.json} choosing the API key as the auth type; returns {@code home}. */
    public static Path configure(Path home) {
        try {
            Path dir = Files.createDirectories(home.resolve(".gemini"));
            Files.writeString(
                    dir.resolve("settings.json"), "{\"security\":{\"auth\":{\"selectedType\":\"gemini-api-key\"}}}");
            return home;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What a run printed and how it ended. */
    public record Run(int exitCode, String stdout, String stderr) {}

    /** Runs a whole command line (from the preset) in {@code dir}, stdin closed, with {@code home} as HOME. */
    public static Run exec(List<String> cmd, Path dir, Path home, ScriptedGemini api, Map<String, String> extraEnv) {
        try {
            Path out = Files.createTempFile("gemini-out", ".jsonl");
            Path err = Files.createTempFile("gemini-err", ".txt");
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
            env.put("GEMINI_API_KEY", ScriptedGemini.API_KEY);
            env.put("GOOGLE_GEMINI_BASE_URL", api.baseUrl());
            env.putAll(extraEnv);
            Process p = pb.start();
            if (!p.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
                throw new AssertionError("gemini took longer than " + TIMEOUT + "; stdout: "
                        + Files.readString(out, StandardCharsets.UTF_8));
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
