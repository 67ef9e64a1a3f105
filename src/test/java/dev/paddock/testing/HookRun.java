package dev.paddock.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.paddock.common.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs Paddock's hook script as Claude Code does: a new process fed a PreToolUse payload on stdin, its exit code,
 * stdout, stderr and wall time kept. {@link Shell#BASH} runs the script ({@code paddock-hook-claude.sh} beside the
 * hook) by its shebang (bash and {@code /dev/tcp}), {@link Shell#SH} under {@code sh} ({@code dash} on Debian), where
 * it uses curl, and {@link Shell#NATIVE} the native program Paddock writes as the hook itself (it fails when this
 * build has none: Maven builds it where {@code /usr/bin/cc} exists).
 */
public final class HookRun {
    /** How the script is run. */
    public enum Shell {
        BASH("run directly (bash, /dev/tcp)"),
        SH("under sh (curl)"),
        NATIVE("native program");

        private final String label;

        Shell(String label) {
            this.label = label;
        }

        @Override
        public String toString() {
            return label;
        }
    }

    /** What one run did. */
    public record Result(int exit, String out, String err, Duration took) {
        /** {@code hookSpecificOutput} of the stdout JSON. */
        public JsonNode output() {
            try {
                return Json.mapper().readTree(out).get("hookSpecificOutput");
            } catch (IOException e) {
                throw new AssertionError("stdout is not JSON: " + describe(), e);
            }
        }

        /** {@code permissionDecision}. */
        public String decision() {
            return output().get("permissionDecision").asText();
        }

        public String describe() {
            return "exit " + exit + " after " + took.toMillis() + " ms\n--- stdout ---\n" + out + "\n--- stderr ---\n"
                    + err;
        }
    }

    private HookRun() {}

    /** An environment with only {@code PATH}, as a start. */
    public static Map<String, String> baseEnv() {
        Map<String, String> env = new HashMap<>();
        env.put("PATH", System.getenv("PATH"));
        return env;
    }

    /** The environment Paddock gives a sandbox's agent. */
    public static Map<String, String> agentEnv(int port, String sandboxId, String token, String hookKey) {
        Map<String, String> env = baseEnv();
        env.put("PADDOCK_API", "http://127.0.0.1:" + port);
        env.put("PADDOCK_SANDBOX_ID", sandboxId);
        env.put("PADDOCK_TOKEN", token);
        env.put("PADDOCK_HOOK_KEY", hookKey);
        return env;
    }

    /** A PreToolUse payload for a Bash command in {@code cwd}. */
    public static String payload(Path cwd, String command) {
        ObjectNode n = Json.mapper().createObjectNode();
        n.put("session_id", "hook-test");
        n.put("transcript_path", "/tmp/t.jsonl");
        n.put("cwd", cwd.toString());
        n.put("permission_mode", "default");
        n.put("hook_event_name", "PreToolUse");
        n.put("tool_name", "Bash");
        n.putObject("tool_input").put("command", command).put("description", "test");
        n.put("tool_use_id", "toolu_01");
        return n.toString();
    }

    /**
     * Runs the script once.
     *
     * @param args the script's arguments (e.g. {@code --timeout 660})
     * @param limit how long it may run before the test gives up on it (it is then killed and this fails)
     */
    public static Result run(
            Path script, Shell shell, Map<String, String> env, String stdin, List<String> args, Duration limit) {
        List<String> cmd = new ArrayList<>();
        if (shell == Shell.SH) {
            cmd.add("sh");
        }
        cmd.add(target(script, shell).toString());
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().clear();
        pb.environment().putAll(env);
        long t0 = System.nanoTime();
        try {
            Process p = pb.start();
            CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> readAll(p.getInputStream()));
            CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> readAll(p.getErrorStream()));
            try (var in = p.getOutputStream()) {
                in.write(stdin.getBytes(StandardCharsets.UTF_8));
            } catch (IOException brokenPipe) {
                // the script may answer without reading its input
            }
            if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new AssertionError("the hook still runs after " + limit.toMillis() + " ms");
            }
            Duration took = Duration.ofNanos(System.nanoTime() - t0);
            return new Result(
                    p.exitValue(),
                    new String(out.get(10, TimeUnit.SECONDS), StandardCharsets.UTF_8),
                    new String(err.get(10, TimeUnit.SECONDS), StandardCharsets.UTF_8),
                    took);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new AssertionError("the hook's output was not closed", e);
        }
    }

    /**
     * What runs for {@code shell}: the hook {@code path} itself for {@link Shell#NATIVE} (which must be the program),
     * else the script beside it ({@code path.sh}) where there is one, else {@code path}.
     */
    public static Path target(Path path, Shell shell) {
        if (shell == Shell.NATIVE) {
            try {
                byte[] head = java.nio.file.Files.readAllBytes(path);
                if (head.length < 4 || head[0] != 0x7f || head[1] != 'E' || head[2] != 'L' || head[3] != 'F') {
                    throw new AssertionError(path + " is not the native hook program: this build has none (Maven"
                            + " builds it from src/main/c where /usr/bin/cc exists)");
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return path;
        }
        Path script = path.resolveSibling(path.getFileName() + ".sh");
        return java.nio.file.Files.isRegularFile(script) ? script : path;
    }

    private static byte[] readAll(InputStream in) {
        try {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
