package dev.paddock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.paddock.Paddock;
import dev.paddock.api.InstanceFile;
import dev.paddock.approval.HookScript;
import dev.paddock.common.Json;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.testing.BrokerRig;
import dev.paddock.testing.HookRun;
import dev.paddock.testing.TempRepo;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Claude Code hook, both paths, fed real PreToolUse payloads against a real running Paddock and a
 * running agent: {@code paddock hook claude} (in this JVM through {@link Paddock#run}, stdin swapped) and
 * the light script {@code <home>/bin/paddock-hook-claude} run by the real {@code sh} with the real
 * {@code curl}. Exit codes, stdout JSON and stderr asserted.
 */
class HookClaudeTest {
    @TempDir
    static Path shared;

    private static BrokerRig rig;
    private static SandboxRecord sandbox;
    private static Path script;

    @BeforeAll
    static void start() throws Exception {
        rig = BrokerRig.start(shared.resolve("home"));
        TempRepo repo = BrokerRig.repoWithPolicy(shared.resolve("repo"));
        sandbox = rig.runningSandbox(repo, "Hook agent");
        script = HookScript.path(rig.home().dir());
    }

    @AfterAll
    static void stop() {
        rig.close();
    }

    record Run(int exit, String out, String err) {
        JsonNode output() throws Exception {
            return Json.mapper().readTree(out).get("hookSpecificOutput");
        }

        String describe() {
            return "exit " + exit + "\n--- stdout ---\n" + out + "\n--- stderr ---\n" + err;
        }
    }

    // ---- paddock hook claude (JVM) ----

    @Test
    void theJvmHookAllowsWhatThePolicyAllows() throws Exception {
        Run r = jvmHook(rig.home().dir(), payload("Bash", "git status"));

        assertThat(r.exit()).as(r.describe()).isZero();
        assertThat(r.output().get("hookEventName").asText()).isEqualTo("PreToolUse");
        assertThat(r.output().get("permissionDecision").asText()).isEqualTo("allow");
        assertThat(r.output().get("permissionDecisionReason").asText()).contains("Bash(git status)");
    }

    @Test
    void theJvmHookDeniesWithExit2AndTheReasonOnStderr() throws Exception {
        Run r = jvmHook(rig.home().dir(), payload("Bash", "rm -rf /"));

        assertThat(r.exit()).as(r.describe()).isEqualTo(2);
        assertThat(r.output().get("permissionDecision").asText()).isEqualTo("deny");
        assertThat(r.err()).contains("Bash(rm -rf:*)");
    }

    @Test
    void theJvmHookDeniesMalformedInput() throws Exception {
        Run r = jvmHook(rig.home().dir(), "{\"tool_name\": \"Bash\", \"tool_input\": ");

        assertThat(r.exit()).as(r.describe()).isEqualTo(2);
        assertThat(r.output().get("permissionDecision").asText()).isEqualTo("deny");
        assertThat(r.err()).contains("not JSON");
    }

    @Test
    void theJvmHookDeniesWhenTheBrokerIsDown() throws Exception {
        Path home = shared.resolve("down-home");
        Files.createDirectories(home);
        new InstanceFile(ProcessHandle.current().pid(), closedPort(), "serve", Instant.now())
                .write(home.resolve("instance.json"));
        Files.writeString(home.resolve("api-token"), "x".repeat(43));
        Files.setPosixFilePermissions(home.resolve("api-token"), PosixFilePermissions.fromString("rw-------"));

        Run r = jvmHook(home, payload("Bash", "git status"));
        Run none = jvmHook(shared.resolve("empty-home"), payload("Bash", "git status"));

        assertThat(r.exit()).as(r.describe()).isEqualTo(2);
        assertThat(r.output().get("permissionDecision").asText()).isEqualTo("deny");
        assertThat(r.err()).contains("cannot be reached");
        assertThat(none.exit()).as(none.describe()).isEqualTo(2);
        assertThat(none.err()).contains("no running Paddock");
    }

    // ---- the script: run directly (bash, /dev/tcp) and under plain sh (curl) ----

    static final String DIRECT = "run directly";
    static final String UNDER_SH = "under sh (curl)";
    static final String NATIVE = "native program";

    @Test
    void theScriptIsWrittenAtStartForItsOwnerAlone() throws Exception {
        Path sh = HookScript.scriptPath(rig.home().dir());
        assertThat(Files.getPosixFilePermissions(script)).isEqualTo(PosixFilePermissions.fromString("rwx------"));
        assertThat(Files.getPosixFilePermissions(sh)).isEqualTo(PosixFilePermissions.fromString("rwx------"));
        assertThat(HookRun.target(script, HookRun.Shell.NATIVE)).isEqualTo(script);
        assertThat(Files.readString(sh))
                .startsWith(Files.isExecutable(Path.of("/bin/bash")) ? "#!/bin/bash\n" : "#!/bin/sh\n")
                .doesNotContain("jq");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {DIRECT, UNDER_SH, NATIVE})
    void theScriptAllowsWhatThePolicyAllows(String how) throws Exception {
        Run r = hook(how, sandboxEnv(), payload("Bash", "git status"));

        assertThat(r.exit()).as(r.describe()).isZero();
        assertThat(r.output().get("permissionDecision").asText()).isEqualTo("allow");
        assertThat(r.err()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {DIRECT, UNDER_SH, NATIVE})
    void theScriptDeniesWithExit2AndTheReasonOnStderr(String how) throws Exception {
        Run r = hook(how, sandboxEnv(), payload("Bash", "rm -rf /"));

        assertThat(r.exit()).as(r.describe()).isEqualTo(2);
        assertThat(r.output().get("permissionDecision").asText()).isEqualTo("deny");
        assertThat(r.output().get("permissionDecisionReason").asText()).contains("Bash(rm -rf:*)");
        assertThat(r.err()).contains("Bash(rm -rf:*)");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {DIRECT, UNDER_SH, NATIVE})
    void theScriptDeniesMalformedInput(String how) throws Exception {
        Run r = hook(how, sandboxEnv(), "this is not json");

        assertThat(r.exit()).as(r.describe()).isEqualTo(2);
        assertThat(r.output().get("permissionDecision").asText()).isEqualTo("deny");
        assertThat(r.err()).contains("not JSON");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {DIRECT, UNDER_SH, NATIVE})
    void theScriptDeniesWhenTheBrokerIsDownOrTheKeyMissingOrWrong(String how) throws Exception {
        Map<String, String> down = sandboxEnv();
        down.put("PADDOCK_API", "http://127.0.0.1:" + closedPort());
        Map<String, String> noKey = sandboxEnv();
        noKey.remove("PADDOCK_HOOK_KEY");
        Map<String, String> wrong = sandboxEnv();
        wrong.put("PADDOCK_HOOK_KEY", "0".repeat(64));

        Run r;
        // With no live Paddock to fall back on (instance.json gone), a PADDOCK_API that does not answer denies.
        Path instance = rig.home().instanceFile();
        Path aside = instance.resolveSibling("instance.json.aside");
        java.nio.file.Files.move(instance, aside);
        try {
            r = hook(how, down, payload("Bash", "git status"));
        } finally {
            java.nio.file.Files.move(aside, instance);
        }
        Run t = hook(how, noKey, payload("Bash", "git status"));
        Run w = hook(how, wrong, payload("Bash", "git status"));

        assertThat(r.exit()).as(r.describe()).isEqualTo(2);
        assertThat(r.output().get("permissionDecision").asText()).isEqualTo("deny");
        assertThat(r.err()).contains("cannot be reached");
        assertThat(t.exit()).as(t.describe()).isEqualTo(2);
        assertThat(t.output().get("permissionDecision").asText()).isEqualTo("deny");
        assertThat(t.err()).contains("PADDOCK_HOOK_KEY is not set");
        assertThat(w.exit()).as(w.describe()).isEqualTo(2);
        assertThat(w.err()).contains("HTTP 401");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {DIRECT, UNDER_SH, NATIVE})
    void theScriptOfAnAgentWhosePaddockMovedToAnotherPortFindsItThroughInstanceJson(String how) throws Exception {
        Map<String, String> stale = sandboxEnv();
        stale.put("PADDOCK_API", "http://127.0.0.1:" + closedPort()); // the port of a Paddock that was restarted

        Run r = hook(how, stale, payload("Bash", "git status"));

        assertThat(r.exit()).as(r.describe()).isZero();
        assertThat(r.output().get("permissionDecision").asText()).isEqualTo("allow");
    }

    @Test
    void theJvmHookOfAnAgentWhosePaddockMovedToAnotherPortFindsItThroughInstanceJson() throws Exception {
        Map<String, String> stale = sandboxEnv();
        stale.put("PADDOCK_API", "http://127.0.0.1:" + closedPort());
        stale.remove("PATH");
        try (dev.paddock.testing.ChildJvm jvm = dev.paddock.testing.ChildJvm.start(
                shared.resolve("jvm-hook"),
                stale,
                Paddock.class.getName(),
                List.of("--home", rig.home().dir().toString(), "hook", "claude"))) {
            jvm.send(payload("Bash", "git status"));
            jvm.closeStdin();
            int exit = jvm.waitFor(java.time.Duration.ofSeconds(60));

            assertThat(exit).as(jvm.report()).isZero();
            assertThat(Json.mapper()
                            .readTree(jvm.stdout())
                            .at("/hookSpecificOutput/permissionDecision")
                            .asText())
                    .isEqualTo("allow");
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {DIRECT, UNDER_SH, NATIVE})
    void theScriptOutsideASandboxFindsTheRunningPaddockOfItsHome(String how) throws Exception {
        Run r = hook(how, new HashMap<>(Map.of("PATH", System.getenv("PATH"))), payload("Bash", "git status"));

        assertThat(r.exit()).as(r.describe()).isZero();
        assertThat(r.output().get("permissionDecision").asText()).isEqualTo("allow");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {DIRECT, UNDER_SH, NATIVE})
    void theScriptOutsideEverySandboxDeniesAndSaysWhy(String how) throws Exception {
        String outside = payload("Bash", "git status")
                .replace(sandbox.workspace().worktree().toString(), System.getProperty("java.io.tmpdir"));
        Run r = hook(how, new HashMap<>(Map.of("PATH", System.getenv("PATH"))), outside);

        assertThat(r.exit()).as(r.describe()).isEqualTo(2);
        assertThat(r.output().get("permissionDecision").asText()).isEqualTo("deny");
        assertThat(r.err()).contains("HTTP 400").contains("no live sandbox");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {DIRECT, UNDER_SH, NATIVE})
    void theScriptWaitsForAPersonOnAnAsk(String how) throws Exception {
        CompletableFuture<Run> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return hook(how, sandboxEnv(), payload("Bash", "git push origin main"));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        long[] id = {0};
        BrokerRig.await("a pending approval", () -> {
            try {
                List<dev.paddock.approval.Approval> p =
                        rig.host().wiring().approvals().list(dev.paddock.approval.ApprovalState.PENDING, 10);
                p.stream()
                        .filter(a -> a.sandboxId().equals(sandbox.id()))
                        .findFirst()
                        .ifPresent(a -> id[0] = a.id());
                return id[0] != 0;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        Thread.sleep(1500); // at least one keep-alive space goes out before the answer

        rig.host().wiring().approvals().approve(id[0], "ann");

        Run r = waiting.get(30, TimeUnit.SECONDS);
        assertThat(r.exit()).as(r.describe()).isZero();
        assertThat(r.output().get("permissionDecision").asText()).isEqualTo("allow");
        assertThat(r.output().get("permissionDecisionReason").asText()).contains("approved by ann");
    }

    // ---- helpers ----

    private static String payload(String tool, String command) {
        ObjectNode n = Json.mapper().createObjectNode();
        n.put("session_id", "abc123");
        n.put("transcript_path", "/tmp/t.jsonl");
        n.put("cwd", sandbox.workspace().worktree().toString());
        n.put("permission_mode", "default");
        n.put("hook_event_name", "PreToolUse");
        n.put("tool_name", tool);
        n.putObject("tool_input").put("command", command).put("description", "test");
        n.put("tool_use_id", "toolu_01");
        return n.toString();
    }

    private static Map<String, String> sandboxEnv() throws Exception {
        Map<String, String> env = new HashMap<>();
        env.put("PATH", System.getenv("PATH"));
        env.put("PADDOCK_API", "http://127.0.0.1:" + rig.port());
        env.put("PADDOCK_TOKEN", rig.tokenOf(sandbox.id()));
        env.put("PADDOCK_HOOK_KEY", rig.hookKeyOf(sandbox.id()));
        env.put("PADDOCK_SANDBOX_ID", sandbox.id());
        return env;
    }

    /**
     * Runs the hook as Claude Code does: the native program Paddock writes as the hook, or the script beside it by
     * its shebang (bash and /dev/tcp), or the script under plain sh (curl).
     */
    private static Run hook(String how, Map<String, String> env, String stdin) throws Exception {
        Path sh = HookScript.scriptPath(rig.home().dir());
        ProcessBuilder pb = switch (how) {
            case UNDER_SH -> new ProcessBuilder("sh", sh.toString());
            case NATIVE ->
                new ProcessBuilder(HookRun.target(script, HookRun.Shell.NATIVE).toString());
            default -> new ProcessBuilder(sh.toString());
        };
        pb.environment().clear();
        pb.environment().putAll(env);
        Process p = pb.start();
        try (var in = p.getOutputStream()) {
            in.write(stdin.getBytes(StandardCharsets.UTF_8));
        } catch (java.io.IOException brokenPipe) {
            // The script may answer (deny) without reading its input, e.g. when the token is missing.
        }
        CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> readAll(p.getErrorStream()));
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Run(
                p.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err.get(), StandardCharsets.UTF_8));
    }

    private static byte[] readAll(InputStream in) {
        try {
            return in.readAllBytes();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static synchronized Run jvmHook(Path home, String stdin) {
        InputStream savedIn = System.in;
        PrintStream savedOut = System.out;
        PrintStream savedErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit;
        try {
            System.setIn(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            exit = Paddock.run(new String[] {"--home", home.toString(), "hook", "claude"});
        } finally {
            System.setIn(savedIn);
            System.setOut(savedOut);
            System.setErr(savedErr);
        }
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static int closedPort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
