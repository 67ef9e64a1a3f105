package dev.paddock.approval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.isolation.ApiRelay;
import dev.paddock.isolation.SandboxApi;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.sandbox.Tier;
import dev.paddock.testing.BrokerRig;
import dev.paddock.testing.DockerTests;
import dev.paddock.testing.HookRun;
import dev.paddock.testing.TempRepo;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Claude Code hook inside a real namespace (bubblewrap, no network) and a real container sandbox: a process in
 * the sandbox runs the very hook program Paddock shows it at {@value SandboxApi#BIN} against the running Paddock's
 * broker through the sandbox's API socket ({@value SandboxApi#SOCKET}), and gets the policy's allow and deny, and
 * a person's approval of what is asked (given through the API). Neither tier has a route to Paddock's loopback.
 * See docs/decisions/0019-hook-channel-per-sandbox-socket.md.
 */
class HookThroughSandboxSocketTest {
    @TempDir
    static Path shared;

    private static BrokerRig rig;
    private static TempRepo repo;

    @BeforeAll
    static void start() throws Exception {
        rig = BrokerRig.start(shared.resolve("home"));
        repo = BrokerRig.repoWithPolicy(shared.resolve("repo"));
        repo.commitFile("README.md", "hello\n", "Start");
    }

    @AfterAll
    static void stop() {
        if (rig != null) {
            rig.close();
        }
        if (repo != null) {
            DockerTests.removeAll("paddock.repo=" + repo.dir());
        }
    }

    /**
     * The agent's command: for each hook, a call the policy allows, one it denies and one it asks about (which
     * waits for a person), each hook's exit code, stdout and stderr written to {@code .hook/<name>-<case>.*} in the
     * worktree; then whether the host's Paddock home and {@code others} (another sandbox's socket, by its host path)
     * can be seen, and whether the socket can be replaced.
     */
    private static String agent(List<String> hooks, Path other) {
        // First a pause: the broker queues a question only once the sandbox is recorded as running, which a container
        // started in a few hundred milliseconds may not be yet.
        StringBuilder c = new StringBuilder("sleep 3; o=\"$PADDOCK_WORKTREE/.hook\"; mkdir -p \"$o\"; p() { printf"
                + " '{\"session_id\":\"s\",\"cwd\":\"%s\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\","
                + "\"tool_input\":{\"command\":\"%s\"}}' \"$PADDOCK_WORKTREE\" \"$1\"; };");
        c.append(" if [ -e '")
                .append(other)
                .append("' ]; then echo seen > \"$o/other\"; else echo unseen > \"$o/other\"; fi;");
        c.append(" if rm -f ")
                .append(SandboxApi.SOCKET)
                .append(" 2>/dev/null && [ ! -e ")
                .append(SandboxApi.SOCKET)
                .append(" ]; then echo replaced > \"$o/replace\"; else echo kept > \"$o/replace\"; fi;");
        for (int i = 0; i < hooks.size(); i++) {
            String h = hooks.get(i);
            for (String[] k : new String[][] {{"allow", "git status"}, {"deny", "rm -rf build"}, {"ask", "git push"}}) {
                String f = "\"$o/h" + i + "-" + k[0];
                c.append(" p '")
                        .append(k[1])
                        .append("' | ")
                        .append(h)
                        .append(" --timeout 660 > ")
                        .append(f)
                        .append(".out\" 2> ")
                        .append(f)
                        .append(".err\"; echo $? > ")
                        .append(f)
                        .append(".tmp\"; mv ")
                        .append(f)
                        .append(".tmp\" ")
                        .append(f)
                        .append(".rc\";");
            }
        }
        c.append(" sleep 300");
        return c.toString();
    }

    private static SandboxRecord sandbox(Tier tier, String task, String command) throws Exception {
        SandboxRecord s = rig.host()
                .wiring()
                .sandboxService()
                .create(NewSandbox.custom(repo.dir(), task, command)
                        .tier(tier)
                        .leaseMs(600_000L)
                        .maxRetries(0)
                        .build());
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (state(s.id()) != SandboxState.RUNNING) {
            SandboxRecord now = rig.host().wiring().sandboxes().find(s.id()).orElseThrow();
            assertThat(System.nanoTime())
                    .as(
                            "%s runs; it is %s (%s), log:%n%s",
                            s.id(),
                            now.state(),
                            now.run().lastError(),
                            rig.host().wiring().sandboxService().logTail(s.id()))
                    .isLessThan(deadline);
            Thread.sleep(50);
        }
        return rig.host().wiring().sandboxes().find(s.id()).orElseThrow();
    }

    private static SandboxState state(String id) {
        try {
            return rig.host()
                    .wiring()
                    .sandboxes()
                    .find(id)
                    .map(SandboxRecord::state)
                    .orElse(null);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Runs the three calls of every hook in {@code s} and checks each answer; the asked one is approved. */
    private static void decides(SandboxRecord s, int hooks) throws Exception {
        Path o = s.workspace().worktree().resolve(".hook");
        for (int i = 0; i < hooks; i++) {
            String h = "h" + i;
            awaitFile(s, o.resolve(h + "-allow.rc"));
            assertThat(read(o, h + "-allow.rc")).as(describe(o, h, "allow")).isEqualTo("0");
            assertThat(read(o, h + "-allow.out")).contains("\"permissionDecision\":\"allow\"");
            awaitFile(s, o.resolve(h + "-deny.rc"));
            assertThat(read(o, h + "-deny.rc")).as(describe(o, h, "deny")).isEqualTo("2");
            assertThat(read(o, h + "-deny.out")).contains("\"permissionDecision\":\"deny\"");
            assertThat(read(o, h + "-deny.err")).doesNotContain("cannot be reached");

            long id = awaitPending(s.id(), () -> describe(o, h, "ask"));
            assertThat(Files.exists(o.resolve(h + "-ask.rc")))
                    .as("the asked call waits for a person")
                    .isFalse();
            HttpResponse<String> approved =
                    rig.call("POST", "/v1/approvals/" + id + "/approve", "{\"by\":\"ann\"}", rig.installToken());
            assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);
            awaitFile(s, o.resolve(h + "-ask.rc"));
            assertThat(read(o, h + "-ask.rc")).as(describe(o, h, "ask")).isEqualTo("0");
            assertThat(read(o, h + "-ask.out"))
                    .contains("\"permissionDecision\":\"allow\"")
                    .contains("approved by ann");
        }
    }

    private static String describe(Path o, String h, String k) throws Exception {
        return h + " " + k + ": " + read(o, h + "-" + k + ".out") + " / " + read(o, h + "-" + k + ".err");
    }

    private static String read(Path dir, String name) throws Exception {
        Path p = dir.resolve(name);
        return Files.exists(p) ? Files.readString(p, StandardCharsets.UTF_8).strip() : "(none)";
    }

    private static void awaitFile(SandboxRecord s, Path f) throws Exception {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!Files.exists(f)) {
            assertThat(System.nanoTime())
                    .as(
                            "%s appears; %s is %s, log:%n%s",
                            f,
                            s.id(),
                            state(s.id()),
                            rig.host().wiring().sandboxService().logTail(s.id()))
                    .isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    private static long awaitPending(String sandboxId, java.util.concurrent.Callable<String> ask) throws Exception {
        long[] id = {0};
        long deadline = System.nanoTime() + 30_000_000_000L;
        BrokerRig.await("a pending approval of " + sandboxId, () -> {
            if (System.nanoTime() > deadline) {
                try {
                    throw new AssertionError("no pending approval of " + sandboxId + "; the asked call: " + ask.call());
                } catch (AssertionError e) {
                    throw e;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
            try {
                rig.host().wiring().approvals().list(ApprovalState.PENDING, 50).stream()
                        .filter(a -> a.sandboxId().equals(sandboxId))
                        .findFirst()
                        .ifPresent(a -> id[0] = a.id());
                return id[0] != 0;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        return id[0];
    }

    @Test
    void inANamespaceSandboxBothHooksGetAllowDenyAndAnApprovalThroughTheSocket() throws Exception {
        SandboxRecord other = sandbox(Tier.NAMESPACE, "Another namespace agent", "sleep 300");
        Path othersSocket = rig.host().wiring().apiRelays().dirOf(other.id()).resolve(ApiRelay.SOCKET_NAME);
        assertThat(othersSocket).exists();

        SandboxRecord s = sandbox(
                Tier.NAMESPACE,
                "Hooks in a namespace",
                agent(
                        List.of(
                                SandboxApi.BIN + "/paddock-hook-claude",
                                "/bin/bash " + SandboxApi.BIN + "/paddock-hook-claude.sh"),
                        othersSocket));

        decides(s, 2);
        Path o = s.workspace().worktree().resolve(".hook");
        assertThat(read(o, "other"))
                .as("another sandbox's socket, by its host path")
                .isEqualTo("unseen");
        assertThat(read(o, "replace")).as("the sandbox's own socket").isEqualTo("kept");
        Path dir = rig.host().wiring().apiRelays().dirOf(s.id());
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS)))
                .isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(
                        Files.getPosixFilePermissions(dir.resolve(ApiRelay.SOCKET_NAME), LinkOption.NOFOLLOW_LINKS)))
                .isEqualTo("rw-------");
    }

    @Test
    void inAContainerTheStaticHookGetsAllowDenyAndAnApprovalThroughTheSocket() throws Exception {
        DockerTests.requireEngineWithGitImage();
        String image = System.getenv().getOrDefault("PADDOCK_TEST_IMAGE", "paddock-test:busybox");
        rig.host().wiring().repoService().setContainerImage(repo.dir(), image);
        SandboxRecord s = sandbox(
                Tier.CONTAINER,
                "Hooks in a container",
                agent(
                        List.of(SandboxApi.BIN + "/paddock-hook-claude"),
                        rig.home().dir().resolve("run")));

        decides(s, 1);
        Path o = s.workspace().worktree().resolve(".hook");
        assertThat(read(o, "other")).as("Paddock's home").isEqualTo("unseen");
        assertThat(read(o, "replace")).as("the sandbox's own socket").isEqualTo("kept");
    }

    @Test
    void aRestartedPaddockListensAgainOnTheSocketOfAnAgentThatOutlivedIt() throws Exception {
        String hook = SandboxApi.BIN + "/paddock-hook-claude --timeout 660";
        SandboxRecord s = sandbox(
                Tier.NAMESPACE,
                "Outlives a restart",
                "while [ ! -e \"$PADDOCK_WORKTREE/go\" ]; do"
                        + " sleep 0.2; done; printf '{\"session_id\":\"s\",\"cwd\":\"%s\",\"hook_event_name\":\"PreToolUse\","
                        + "\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"git status\"}}' \"$PADDOCK_WORKTREE\" | "
                        + hook + " > \"$PADDOCK_WORKTREE/after.out\" 2>&1; echo $? > \"$PADDOCK_WORKTREE/after.tmp\";"
                        + " mv \"$PADDOCK_WORKTREE/after.tmp\" \"$PADDOCK_WORKTREE/after.rc\"; sleep 300");
        Path socket = rig.host().wiring().apiRelays().dirOf(s.id()).resolve(ApiRelay.SOCKET_NAME);

        rig.restart();
        BrokerRig.await("the socket again", () -> Files.exists(socket, LinkOption.NOFOLLOW_LINKS));
        Files.writeString(s.workspace().worktree().resolve("go"), "go\n");

        awaitFile(s, s.workspace().worktree().resolve("after.rc"));
        assertThat(Files.readString(s.workspace().worktree().resolve("after.rc"))
                        .strip())
                .as(Files.readString(s.workspace().worktree().resolve("after.out")))
                .isEqualTo("0");
        assertThat(Files.readString(s.workspace().worktree().resolve("after.out")))
                .contains("\"permissionDecision\":\"allow\"");
    }

    @Test
    void theSocketIsRemovedWhenTheAgentEnds() throws Exception {
        SandboxRecord s = sandbox(Tier.NAMESPACE, "A short namespace agent", "sleep 2");
        Path socket = rig.host().wiring().apiRelays().dirOf(s.id()).resolve(ApiRelay.SOCKET_NAME);
        assertThat(socket).exists();

        BrokerRig.await("the agent's end", () -> state(s.id()) == SandboxState.DONE);
        BrokerRig.await("the socket's removal", () -> !Files.exists(socket, LinkOption.NOFOLLOW_LINKS));
        assertThat(rig.host().wiring().apiRelays().open()).doesNotContain(s.id());
    }

    @Test
    void aHookWithAnotherSandboxsKeyOnThisSandboxsSocketIsDenied() throws Exception {
        SandboxRecord a = sandbox(Tier.NAMESPACE, "Agent A", "sleep 300");
        SandboxRecord b = sandbox(Tier.NAMESPACE, "Agent B", "sleep 300");
        Path bSocket = rig.host().wiring().apiRelays().dirOf(b.id()).resolve(ApiRelay.SOCKET_NAME);
        var env = HookRun.baseEnv();
        env.put(SandboxApi.SOCKET_VARIABLE, bSocket.toString());
        env.put("PADDOCK_SANDBOX_ID", a.id());
        env.put("PADDOCK_HOOK_KEY", rig.hookKeyOf(a.id()));

        for (HookRun.Shell shell : new HookRun.Shell[] {HookRun.Shell.NATIVE, HookRun.Shell.BASH}) {
            HookRun.Result r = HookRun.run(
                    HookScript.path(rig.home().dir()),
                    shell,
                    env,
                    HookRun.payload(a.workspace().worktree(), "git status"),
                    List.of("--timeout", "660"),
                    java.time.Duration.ofSeconds(20));

            assertThat(r.exit()).as(shell + ": " + r.describe()).isEqualTo(2);
            assertThat(r.decision()).isEqualTo("deny");
        }
        assertThat(rig.host().wiring().approvals().list(ApprovalState.PENDING, 50))
                .noneMatch(x -> x.sandboxId().equals(a.id()));
    }
}
