package dev.paddock.approval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.isolation.ApiRelay;
import dev.paddock.isolation.SandboxApi;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.sandbox.Tier;
import dev.paddock.testing.BrokerRig;
import dev.paddock.testing.HookRun;
import dev.paddock.testing.HookRun.Shell;
import dev.paddock.testing.TempRepo;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sandbox's API socket ({@link ApiRelay}) against a running Paddock, as an attacker would try it: a request
 * through one sandbox's socket speaks for that sandbox alone (not the install, not another sandbox), a flood holds
 * no more than {@link ApiRelay#MAX_CONNECTIONS} connections, and a hook whose socket is gone, dead or silent denies
 * within its deadline.
 */
class SandboxSocketAttackTest {
    @TempDir
    static Path shared;

    private static BrokerRig rig;
    private static SandboxRecord a;
    private static SandboxRecord b;

    @BeforeAll
    static void start() throws Exception {
        rig = BrokerRig.start(shared.resolve("home"));
        TempRepo repo = BrokerRig.repoWithPolicy(shared.resolve("repo"));
        repo.commitFile("README.md", "hello\n", "Start");
        a = running(repo, "Agent A");
        b = running(repo, "Agent B");
    }

    @AfterAll
    static void stop() {
        if (rig != null) {
            rig.close();
        }
    }

    private static SandboxRecord running(TempRepo repo, String task) throws Exception {
        SandboxRecord s = rig.host()
                .wiring()
                .sandboxService()
                .create(NewSandbox.custom(repo.dir(), task, "sleep 300")
                        .tier(Tier.NAMESPACE)
                        .leaseMs(600_000L)
                        .maxRetries(0)
                        .build());
        BrokerRig.await(s.id() + " running", () -> {
            try {
                return rig.host()
                                .wiring()
                                .sandboxes()
                                .find(s.id())
                                .orElseThrow()
                                .state()
                        == SandboxState.RUNNING;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        return rig.host().wiring().sandboxes().find(s.id()).orElseThrow();
    }

    private static Path socketOf(SandboxRecord s) {
        return rig.host().wiring().apiRelays().dirOf(s.id()).resolve(ApiRelay.SOCKET_NAME);
    }

    /** One raw HTTP/1.0 request through a Unix socket; the status line of the answer (or "closed"). */
    private static String raw(Path socket, String request) throws IOException {
        try (SocketChannel c = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
            c.write(ByteBuffer.wrap(request.getBytes(StandardCharsets.UTF_8)));
            ByteBuffer in = ByteBuffer.allocate(64 * 1024);
            while (c.read(in) >= 0 && in.hasRemaining()) {
                // until the API closes the connection
            }
            String answer = new String(in.array(), 0, in.position(), StandardCharsets.UTF_8);
            return answer.isEmpty() ? "closed" : answer;
        }
    }

    private static String get(String path, String token) {
        return "GET " + path + " HTTP/1.0\r\nHost: localhost\r\nAuthorization: Bearer " + token + "\r\n\r\n";
    }

    @Test
    void theInstallTokenThroughASandboxSocketIsRefused() throws Exception {
        String answer = raw(socketOf(a), get("/v1/sandboxes", rig.installToken()));

        assertThat(answer).startsWith("HTTP/1.1 403").contains("may only speak for that sandbox");
        assertThat(rig.call("GET", "/v1/sandboxes", null, rig.installToken()).statusCode())
                .as("the same token on the loopback")
                .isEqualTo(200);
    }

    @Test
    void aSandboxTokenWorksThroughItsOwnSocketOnlyAndOnlyForWhatAnAgentMay() throws Exception {
        String heartbeat =
                "POST /v1/sandboxes/" + a.id() + "/heartbeat HTTP/1.0\r\nHost: localhost\r\nAuthorization:" + " Bearer "
                        + rig.tokenOf(a.id()) + "\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}";

        assertThat(raw(socketOf(a), heartbeat)).startsWith("HTTP/1.1 2");
        assertThat(raw(socketOf(b), heartbeat)).as("A's token on B's socket").startsWith("HTTP/1.1 403");
        assertThat(raw(socketOf(a), get("/v1/sandboxes", rig.tokenOf(a.id()))))
                .as("a route agents may not use")
                .startsWith("HTTP/1.1 403");
    }

    /** A setup command runs on the host: an agent must not set one nor start a refresh, by socket or loopback. */
    @Test
    void aSandboxTokenCanNeitherReadNorSetNorRefreshSharedLayers() throws Exception {
        String token = rig.tokenOf(a.id());
        String repo = rig.host()
                .wiring()
                .sandboxService()
                .layout(a.id())
                .mainWorktree()
                .toString();
        String put =
                "{\"repo\": \"" + repo + "\", \"folders\": [\"node_modules\"], \"setupCommand\": \"touch /tmp/x\"}";
        List<String> answers = new ArrayList<>();
        for (String[] r : new String[][] {
            {"PUT", "/v1/layers", put}, {"POST", "/v1/layers/refresh", "{\"repo\": \"" + repo + "\"}"},
            {"GET", "/v1/layers?repo=" + repo, null}, {"GET", "/v1/layers/changes?sandbox=" + a.id(), null}
        }) {
            String body = r[2] == null ? "" : r[2];
            answers.add(raw(
                    socketOf(a),
                    r[0] + " " + r[1] + " HTTP/1.0\r\nHost: localhost\r\nAuthorization: Bearer " + token
                            + "\r\nContent-Type: application/json\r\nContent-Length: "
                            + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body));
            answers.add("HTTP/1.1 " + rig.call(r[0], r[1], r[2], token).statusCode());
        }

        assertThat(answers).allSatisfy(x -> assertThat(x).startsWith("HTTP/1.1 403"));
        assertThat(rig.host().wiring().layers().status(Path.of(repo)).folders()).isEmpty();
    }

    @Test
    void aHookSigningForTheLoopbackIsRefusedOnTheSocketAndTheOtherWayRound() throws Exception {
        // The hook signs "unix" on the socket; the same key signing the loopback's address through the socket, or
        // "unix" on the loopback, does not pass.
        Map<String, String> env = HookRun.agentEnv(rig.port(), a.id(), rig.tokenOf(a.id()), rig.hookKeyOf(a.id()));
        HookRun.Result direct = HookRun.run(
                HookScript.path(rig.home().dir()),
                Shell.NATIVE,
                env,
                HookRun.payload(a.workspace().worktree(), "git status"),
                List.of("--timeout", "660"),
                Duration.ofSeconds(20));
        env.put(SandboxApi.SOCKET_VARIABLE, socketOf(a).toString());
        HookRun.Result viaSocket = HookRun.run(
                HookScript.path(rig.home().dir()),
                Shell.NATIVE,
                env,
                HookRun.payload(a.workspace().worktree(), "git status"),
                List.of("--timeout", "660"),
                Duration.ofSeconds(20));

        assertThat(direct.exit()).as(direct.describe()).isZero();
        assertThat(viaSocket.exit()).as(viaSocket.describe()).isZero();
        long ts = System.currentTimeMillis() / 1000;
        String nonce = "0123456789abcdef0123456789abcdef";
        byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
        String path = "/v1/hooks/claude?sandbox=" + a.id();
        String keyId = "sandbox/" + a.id();
        String loopbackMac = dev.paddock.api.HookAuth.requestMac(
                rig.hookKeyOf(a.id()), keyId, ts, nonce, "127.0.0.1:" + rig.port(), "POST", path, body);
        String request = "POST " + path + " HTTP/1.0\r\nHost: localhost\r\nPaddock-Auth: v1 " + keyId + " " + ts + " "
                + nonce + " " + loopbackMac + "\r\nContent-Length: 2\r\n\r\n{}";
        assertThat(raw(socketOf(a), request)).startsWith("HTTP/1.1 401").doesNotContain("Paddock-Proof");
    }

    @Test
    void aFloodHoldsAtMostTheRelaysConnectionsAndTheHookWorksAfterwards() throws Exception {
        List<SocketChannel> held = new ArrayList<>();
        try {
            for (int i = 0; i < ApiRelay.MAX_CONNECTIONS; i++) {
                SocketChannel c = SocketChannel.open(UnixDomainSocketAddress.of(socketOf(b)));
                c.write(ByteBuffer.wrap("POST /v1/hooks/claude HTTP/1.0\r\n".getBytes(StandardCharsets.US_ASCII)));
                held.add(c);
            }
            Thread.sleep(300); // the relay takes them
            try (SocketChannel extra = SocketChannel.open(UnixDomainSocketAddress.of(socketOf(b)));
                    java.nio.channels.Selector sel = java.nio.channels.Selector.open()) {
                extra.configureBlocking(false);
                extra.register(sel, java.nio.channels.SelectionKey.OP_READ);
                assertThat(sel.select(5000))
                        .as("the relay ends a connection over the limit at once")
                        .isEqualTo(1);
                assertThat(extra.read(ByteBuffer.allocate(16))).isEqualTo(-1);
            }
        } finally {
            for (SocketChannel c : held) {
                c.close();
            }
        }
        Map<String, String> env = HookRun.baseEnv();
        env.put(SandboxApi.SOCKET_VARIABLE, socketOf(b).toString());
        env.put("PADDOCK_SANDBOX_ID", b.id());
        env.put("PADDOCK_HOOK_KEY", rig.hookKeyOf(b.id()));
        BrokerRig.await(
                "the hook works again",
                () -> HookRun.run(
                                        HookScript.path(rig.home().dir()),
                                        Shell.NATIVE,
                                        env,
                                        HookRun.payload(b.workspace().worktree(), "git status"),
                                        List.of("--timeout", "660"),
                                        Duration.ofSeconds(20))
                                .exit()
                        == 0);
    }

    @Test
    void aMissingADeadAndASilentSocketEndInADenyWithinTheDeadline() throws Exception {
        Path dir = Files.createDirectories(shared.resolve("s"));
        Path missing = dir.resolve("missing.sock");
        Path dead = dir.resolve("dead.sock");
        try (ServerSocketChannel s = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            s.bind(UnixDomainSocketAddress.of(dead)); // closed below without removing the file: nobody listens
        }
        Path silent = dir.resolve("silent.sock");
        try (ServerSocketChannel s = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            s.bind(UnixDomainSocketAddress.of(silent), 64); // listens, never accepts, never answers
            for (Shell shell : new Shell[] {Shell.NATIVE, Shell.BASH, Shell.SH}) {
                for (Path socket : List.of(missing, dead, silent)) {
                    Map<String, String> env = HookRun.baseEnv();
                    env.put(SandboxApi.SOCKET_VARIABLE, socket.toString());
                    env.put("PADDOCK_SANDBOX_ID", a.id());
                    env.put("PADDOCK_HOOK_KEY", rig.hookKeyOf(a.id()));

                    HookRun.Result r = HookRun.run(
                            HookScript.path(rig.home().dir()),
                            shell,
                            env,
                            HookRun.payload(a.workspace().worktree(), "git status"),
                            List.of("--timeout", "660"),
                            Duration.ofSeconds(30));

                    String what = shell + " on " + socket.getFileName() + ": " + r.describe();
                    assertThat(r.exit()).as(what).isEqualTo(2);
                    assertThat(r.decision()).as(what).isEqualTo("deny");
                    assertThat(r.took()).as(what).isLessThan(Duration.ofSeconds(HookScript.ANSWER_S + 5));
                }
            }
        }
    }
}
