package dev.paddock.testing;

import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.sandbox.SandboxStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The environment a running agent was started with, read from {@code /proc/<pid>/environ} of its process
 * (Linux): how a test gets a sandbox's token the way its agent got it ({@code PADDOCK_TOKEN}), since the store
 * keeps only the token's hash.
 */
public final class AgentEnvironment {
    private AgentEnvironment() {}

    /** The variables of process {@code pid} at its start. */
    public static Map<String, String> of(long pid) {
        byte[] raw;
        try {
            raw = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "environ"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the environment of pid " + pid, e);
        }
        Map<String, String> env = new LinkedHashMap<>();
        for (String entry : new String(raw, StandardCharsets.UTF_8).split("\0")) {
            int eq = entry.indexOf('=');
            if (eq > 0) {
                env.put(entry.substring(0, eq), entry.substring(eq + 1));
            }
        }
        return env;
    }

    /**
     * Waits (up to 30 s) until the sandbox's agent runs, then returns its {@code PADDOCK_TOKEN}.
     *
     * @throws AssertionError when it does not run in time
     */
    public static String awaitToken(SandboxStore store, String sandboxId) throws Exception {
        long deadline = System.nanoTime() + java.time.Duration.ofSeconds(30).toNanos();
        while (true) {
            SandboxRecord s = store.find(sandboxId).orElseThrow();
            if (s.state() == SandboxState.RUNNING && s.runRef().pid() != null) {
                return token(s);
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        "sandbox " + sandboxId + " does not run (" + s.state().id() + ")");
            }
            Thread.sleep(20);
        }
    }

    /**
     * The {@code PADDOCK_TOKEN} of a running host or bubblewrap sandbox's agent.
     *
     * @throws AssertionError when the sandbox has no process or its environment has no token
     */
    public static String token(SandboxRecord s) {
        if (s.runRef().pid() == null) {
            throw new AssertionError("sandbox " + s.id() + " has no agent process (state "
                    + s.state().id() + ")");
        }
        // The wrapper may still be between its fork and the exec that gives it the agent's environment.
        long deadline = System.nanoTime() + java.time.Duration.ofSeconds(10).toNanos();
        while (true) {
            String token = of(s.runRef().pid()).get("PADDOCK_TOKEN");
            if (token != null) {
                return token;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        "the agent of " + s.id() + " (pid " + s.runRef().pid() + ") has no PADDOCK_TOKEN");
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(
                        "interrupted while reading the environment of pid "
                                + s.runRef().pid(),
                        e);
            }
        }
    }
}
