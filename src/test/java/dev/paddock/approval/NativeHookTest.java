package dev.paddock.approval;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.paddock.common.Json;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.testing.BrokerRig;
import dev.paddock.testing.HookRun;
import dev.paddock.testing.HookRun.Shell;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The native hook program ({@link NativeHook}, {@code src/main/c}) against a real running Paddock: its SHA-256
 * agrees with the broker's on inputs of every length around SHA-256's block boundaries and on one far larger than
 * a socket buffer (the broker allows only a request whose MAC checks out), and it carries its own configuration.
 * The behaviours it shares with the script (deadlines, foreign servers, relays) run in {@link HookPeerTest},
 * {@link HookDeadlineTest} and {@code HookClaudeTest} with {@link Shell#NATIVE}.
 */
class NativeHookTest {
    @TempDir
    static Path shared;

    private static BrokerRig rig;
    private static SandboxRecord sandbox;
    private static Path hook;

    @BeforeAll
    static void start() throws Exception {
        rig = BrokerRig.start(shared.resolve("home"));
        sandbox = rig.runningSandbox(BrokerRig.repoWithPolicy(shared.resolve("repo")), "Native hook agent");
        hook = HookRun.target(HookScript.path(rig.home().dir()), Shell.NATIVE);
    }

    @AfterAll
    static void stop() {
        rig.close();
    }

    /** Payload lengths that put the MAC's message just below, at and above 55, 56 and 64 bytes modulo 64. */
    @ParameterizedTest(name = "padding {0}")
    @ValueSource(ints = {0, 1, 7, 8, 9, 54, 55, 56, 57, 63, 64, 65, 119, 120, 121, 127, 128, 129})
    void theBrokerAcceptsItsMacForEveryBlockBoundary(int pad) throws Exception {
        for (int shift = 0; shift < 64; shift += 16) {
            HookRun.Result r = run(payload("x".repeat(pad + shift)));

            assertThat(r.exit()).as(r.describe()).isZero();
            assertThat(r.decision()).isEqualTo("allow");
        }
    }

    @Test
    void aPayloadLargerThanTheSocketBuffersAndNotAsciiIsSentWhole() throws Exception {
        String big = payload("é€😀 ".repeat(40_000)); // ~440 KB, multi-byte UTF-8

        HookRun.Result r = run(big);

        assertThat(big.getBytes(StandardCharsets.UTF_8).length).isGreaterThan(256 * 1024);
        assertThat(r.exit()).as(r.describe()).isZero();
        assertThat(r.decision()).isEqualTo("allow");
    }

    @Test
    void theProgramAsBuiltHasNoConfigurationAndDenies() throws Exception {
        Path raw = Files.createDirectories(shared.resolve("raw")).resolve("paddock-hook-claude");
        try (InputStream in = NativeHook.class.getResourceAsStream(NativeHook.resource())) {
            assertThat(in).as("the jar's native hook " + NativeHook.resource()).isNotNull();
            Files.write(raw, in.readAllBytes());
        }
        raw.toFile().setExecutable(true, true);

        HookRun.Result r = HookRun.run(
                raw,
                Shell.NATIVE,
                HookRun.agentEnv(rig.port(), sandbox.id(), rig.tokenOf(sandbox.id()), rig.hookKeyOf(sandbox.id())),
                payload(""),
                List.of(),
                Duration.ofSeconds(30));

        assertThat(r.exit()).as(r.describe()).isEqualTo(2);
        assertThat(r.decision()).isEqualTo("deny");
        assertThat(r.err()).contains("not written by Paddock");
    }

    @Test
    void theConfigurationBlockHoldsTheHomeAndTheTimes() throws Exception {
        byte[] program =
                NativeHook.program(Path.of("/home/ann/.paddock"), 600, 10, 5).orElseThrow();
        String text = new String(program, StandardCharsets.ISO_8859_1);
        int at = text.indexOf(NativeHook.MARKER);

        assertThat(text.substring(at, text.indexOf('\0', at)))
                .isEqualTo(NativeHook.MARKER + "home=/home/ann/.paddock\napproval_s=600\nanswer_s=10\nquiet_s=5\n");
        assertThat(text.indexOf(NativeHook.MARKER, at + 1)).isNegative();
    }

    @Test
    void aHomeTooLongForTheBlockGetsTheScript() throws Exception {
        Path longHome = Path.of("/" + "h".repeat(NativeHook.BLOCK));

        assertThat(NativeHook.program(longHome, 600, 10, 5)).isEmpty();
    }

    @Test
    void aRewriteWithTheSameContentLeavesTheProgramAlone() throws Exception {
        Path path = HookScript.path(rig.home().dir());
        var before = Files.getLastModifiedTime(path);
        byte[] bytes = Files.readAllBytes(path);

        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        int at = text.indexOf("approval_s=", text.indexOf(NativeHook.MARKER)) + "approval_s=".length();
        long approvalS = Long.parseLong(text.substring(at, text.indexOf('\n', at)));

        HookScript.write(rig.home().dir(), approvalS * 1000);

        assertThat(Files.readAllBytes(path)).isEqualTo(bytes);
        assertThat(Files.getLastModifiedTime(path)).isEqualTo(before);
    }

    /** A hook stopped by a signal while it waits for its input still denies with exit 2, never ends by the signal. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"INT", "HUP", "QUIT", "USR1", "SEGV"})
    void aSignalWhileItWaitsEndsInADeny(String signal) throws Exception {
        for (Shell shell : new Shell[] {Shell.NATIVE, Shell.BASH}) {
            Path target = HookRun.target(HookScript.path(rig.home().dir()), shell);
            ProcessBuilder pb = new ProcessBuilder(target.toString(), "--timeout", "660");
            pb.environment().clear();
            pb.environment()
                    .putAll(HookRun.agentEnv(
                            rig.port(), sandbox.id(), rig.tokenOf(sandbox.id()), rig.hookKeyOf(sandbox.id())));
            Process p = pb.start(); // stdin stays open: it waits for its input
            Thread.sleep(500);
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).start();
            assertThat(kill.waitFor()).isZero();
            assertThat(p.waitFor(15, java.util.concurrent.TimeUnit.SECONDS))
                    .as(shell + " ended")
                    .isTrue();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

            assertThat(p.exitValue())
                    .as(shell + " on SIG" + signal + ": " + out)
                    .isEqualTo(2);
            assertThat(out).contains("\"permissionDecision\":\"deny\"");
            p.getOutputStream().close();
        }
    }

    private static HookRun.Result run(String stdin) throws Exception {
        Map<String, String> env =
                HookRun.agentEnv(rig.port(), sandbox.id(), rig.tokenOf(sandbox.id()), rig.hookKeyOf(sandbox.id()));
        return HookRun.run(hook, Shell.NATIVE, env, stdin, List.of("--timeout", "660"), Duration.ofSeconds(30));
    }

    /** A PreToolUse payload for {@code git status} (which the policy allows) with a description of any length. */
    private static String payload(String description) {
        ObjectNode n = Json.mapper().createObjectNode();
        n.put("session_id", "native");
        n.put("cwd", sandbox.workspace().worktree().toString());
        n.put("hook_event_name", "PreToolUse");
        n.put("tool_name", "Bash");
        n.putObject("tool_input").put("command", "git status").put("description", description);
        return n.toString();
    }
}
