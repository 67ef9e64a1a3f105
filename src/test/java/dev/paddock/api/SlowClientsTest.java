package dev.paddock.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.approval.HookScript;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.testing.BrokerRig;
import dev.paddock.testing.HookRun;
import dev.paddock.testing.SlowClients;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The loopback API keeps answering hooks and heartbeats while clients without a token send slowly or never
 * finish: a real Paddock ({@link BrokerRig}), real sockets, the real hook script. Latency targets live in
 * {@code HookRoundTripBench}; here every call must be answered, and well within the hook's deadline.
 */
class SlowClientsTest {
    /** A request not complete this long after its first byte is cut: the limit plus the timer's period and slack. */
    private static final Duration CUT = Duration.ofSeconds(ServerLimits.REQUEST_TIME_S + 3);

    @TempDir
    static Path shared;

    private static BrokerRig rig;
    private static SandboxRecord sandbox;

    @BeforeAll
    static void start() throws Exception {
        rig = BrokerRig.start(shared.resolve("home"));
        sandbox = rig.runningSandbox(BrokerRig.repoWithPolicy(shared.resolve("repo")), "Slow clients agent");
    }

    @AfterAll
    static void stop() {
        rig.close();
    }

    @Test
    void hooksAndHeartbeatsAreAnsweredUnder200SlowConnections() throws Exception {
        Path script = HookScript.path(rig.home().dir());
        String token = rig.tokenOf(sandbox.id());
        var env = HookRun.agentEnv(rig.port(), sandbox.id(), token, rig.hookKeyOf(sandbox.id()));
        List<Long> hookMs = new ArrayList<>();
        List<Long> heartbeatMs = new ArrayList<>();
        // 100 with headers that never end, 50 with a body that never ends, 50 that send nothing: one byte every 3 s.
        try (SlowClients slow = SlowClients.start(rig.port(), 100, 50, 50, 3000)) {
            Thread.sleep(2000); // all of them open and sending
            for (int i = 0; i < 30; i++) {
                HookRun.Result r = HookRun.run(
                        script,
                        HookRun.Shell.BASH,
                        env,
                        HookRun.payload(sandbox.workspace().worktree(), "git status"),
                        List.of(),
                        Duration.ofSeconds(60));
                assertThat(r.exit()).as(r.describe()).isZero();
                assertThat(r.decision()).isEqualTo("allow");
                hookMs.add(r.took().toMillis());

                long t0 = System.nanoTime();
                HttpResponse<String> hb = rig.call(
                        "POST",
                        "/v1/sandboxes/" + sandbox.id() + "/heartbeat",
                        "{\"progress\": \"step " + i + "\"}",
                        token);
                heartbeatMs.add((System.nanoTime() - t0) / 1_000_000);
                assertThat(hb.statusCode()).as(hb.body()).isEqualTo(200);
            }
            BrokerRig.await("slow connections cut by the server's request limit", () -> slow.closedByServer() >= 100);
            assertThat(slow.open()).as("slow connections open at the end").isGreaterThan(150);
        }
        // Generous bounds: a hook's own deadline is 10 s; the figures are measured in HookRoundTripBench.
        assertThat(hookMs).allSatisfy(ms -> assertThat(ms).isLessThan(HookScript.ANSWER_S * 1000L / 2));
        assertThat(heartbeatMs).allSatisfy(ms -> assertThat(ms).isLessThan(2000L));
        System.out.println("hooks under 200 slow connections, ms: " + hookMs + "\nheartbeats, ms: " + heartbeatMs);
    }

    @Test
    void hookDecisionsUnder200SlowHeaderConnectionsComeWellWithinTheHooksDeadline() throws Exception {
        Path script = HookScript.path(rig.home().dir());
        var env = HookRun.agentEnv(rig.port(), sandbox.id(), rig.tokenOf(sandbox.id()), rig.hookKeyOf(sandbox.id()));
        List<Long> hookMs = new ArrayList<>();
        // 200 connections whose request line and headers never end, one byte a second each: all of them hold a
        // reading thread until the server's request limit cuts them, and are opened again at once.
        try (SlowClients slow = SlowClients.start(rig.port(), 200, 0, 0, 1000)) {
            Thread.sleep(2000);
            assertThat(slow.open())
                    .as("slow connections open before the hooks run")
                    .isGreaterThan(190);
            for (int i = 0; i < 20; i++) {
                // a deny and an allow: the decision is the policy's, not the hook's own deadline running out
                boolean deny = i % 2 == 0;
                HookRun.Result r = HookRun.run(
                        script,
                        HookRun.Shell.BASH,
                        env,
                        HookRun.payload(sandbox.workspace().worktree(), deny ? "rm -rf build" : "git status"),
                        List.of(),
                        Duration.ofSeconds(60));
                assertThat(r.exit())
                        .as("a deny exits 2, as Claude Code expects: " + r.describe())
                        .isEqualTo(deny ? 2 : 0);
                assertThat(r.decision()).as(r.describe()).isEqualTo(deny ? "deny" : "allow");
                if (deny) {
                    assertThat(r.output().path("permissionDecisionReason").asText())
                            .as(r.describe())
                            .contains("Bash(rm -rf:*)");
                }
                hookMs.add(r.took().toMillis());
            }
            BrokerRig.await("slow header connections cut and reopened", () -> slow.closedByServer() >= 200);
        }
        assertThat(hookMs).allSatisfy(ms -> assertThat(ms).isLessThan(HookScript.ANSWER_S * 1000L / 2));
        System.out.println("hooks under 200 slow-header connections, ms: " + hookMs);
    }

    @Test
    void aRequestWhoseHeadersArriveTooSlowlyIsCut() throws Exception {
        try (Socket s = connect()) {
            long t0 = System.nanoTime();
            OutputStream out = s.getOutputStream();
            boolean cut = false;
            for (char c : "GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
                    .toCharArray()) {
                try {
                    out.write(c);
                    out.flush();
                } catch (IOException e) {
                    cut = true;
                    break;
                }
                if (closed(s, Duration.ofMillis(500))) {
                    cut = true;
                    break;
                }
            }
            assertThat(cut).as("the server closed the connection").isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(CUT);
        }
    }

    @Test
    void aBodyThatNeverEndsIsCut() throws Exception {
        try (Socket s = connect()) {
            long t0 = System.nanoTime();
            s.getOutputStream()
                    .write(("POST /v1/hooks/claude HTTP/1.1\r\nHost: 127.0.0.1\r\nPaddock-Auth: v1 install 0 "
                                    + "0".repeat(32) + " " + "0".repeat(64)
                                    + "\r\nContent-Length: 5000\r\n\r\n{\"tool_name\":")
                            .getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();

            assertThat(closed(s, CUT)).as("the server closed the connection").isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(CUT);
        }
    }

    @Test
    void aConnectionThatSendsNothingIsClosed() throws Exception {
        try (Socket s = connect()) {
            long t0 = System.nanoTime();

            assertThat(closed(s, CUT)).as("the server closed the connection").isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(CUT);
        }
    }

    @Test
    void aRefusedRequestClosesItsConnectionSoRefusalsCannotPileUpUnread() throws Exception {
        try (Socket s = connect()) {
            String req = "GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
            s.getOutputStream().write((req + req + req).getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            s.setSoTimeout(10_000);

            String all = new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);

            assertThat(all.split("HTTP/1.1 401", -1)).as(all).hasSize(2);
        }
    }

    @Test
    void anAgentThatSendsRequestAfterRequestAndNeverReadsGetsOneAnswerAConnection() throws Exception {
        try (Socket s = connect()) {
            byte[] body = "{\"progress\": \"p\"}".getBytes(StandardCharsets.US_ASCII);
            String req = "POST /v1/sandboxes/" + sandbox.id() + "/heartbeat HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Authorization: Bearer " + rig.tokenOf(sandbox.id()) + "\r\nContent-Length: " + body.length
                    + "\r\n\r\n" + new String(body, StandardCharsets.US_ASCII);
            s.getOutputStream().write((req + req + req).getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            s.setSoTimeout(10_000);

            String all = new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);

            assertThat(all.split("HTTP/1.1 200", -1)).as(all).hasSize(2);
        }
    }

    @Test
    void tooManyLargeBodiesAtOnceAreRefusedWith503() throws Exception {
        int count = (int) (RequestIntake.BUDGET_BYTES / HttpIo.MAX_BODY_BYTES) + 8;
        List<Socket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                Socket s = connect();
                sockets.add(s);
                s.getOutputStream()
                        .write(("POST /v1/hooks/claude HTTP/1.1\r\nHost: 127.0.0.1\r\nPaddock-Auth: v1 install 0 "
                                        + "0".repeat(32) + " " + "0".repeat(64) + "\r\nContent-Length: "
                                        + HttpIo.MAX_BODY_BYTES
                                        + "\r\n\r\n{")
                                .getBytes(StandardCharsets.US_ASCII));
                s.getOutputStream().flush();
            }
            int busy = 0;
            for (Socket s : sockets) {
                s.setSoTimeout(ServerLimits.REQUEST_TIME_S * 1000 + 3000);
                String answer;
                try {
                    answer = new String(s.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
                } catch (IOException cut) {
                    answer = "";
                }
                busy += answer.equals("HTTP/1.1 503") ? 1 : 0;
            }
            assertThat(busy).as("refused as busy").isGreaterThanOrEqualTo(8);
        } finally {
            for (Socket s : sockets) {
                s.close();
            }
        }
    }

    @Test
    void aBodyLargerThanTheLimitIsRefusedBeforeItIsSent() throws Exception {
        try (Socket s = connect()) {
            s.getOutputStream()
                    .write(("POST /v1/decide HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + rig.installToken()
                                    + "\r\nContent-Length: " + (HttpIo.MAX_BODY_BYTES + 1) + "\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            s.setSoTimeout(10_000);

            String answer = new String(s.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);

            assertThat(answer).isEqualTo("HTTP/1.1 413");
        }
    }

    @Test
    void aChunkedBodyIsRefused() throws Exception {
        try (Socket s = connect()) {
            s.getOutputStream()
                    .write(("POST /v1/decide HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + rig.installToken()
                                    + "\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n{\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            s.setSoTimeout(10_000);

            String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

            assertThat(answer).startsWith("HTTP/1.1 411").contains("length_required");
        }
    }

    private static Socket connect() throws IOException {
        return new Socket(InetAddress.getByName("127.0.0.1"), rig.port());
    }

    /** Whether the server closes {@code s} within {@code within} (end of stream or reset). */
    private static boolean closed(Socket s, Duration within) throws IOException {
        s.setSoTimeout((int) within.toMillis());
        InputStream in = s.getInputStream();
        try {
            while (true) {
                if (in.read() < 0) {
                    return true;
                }
            }
        } catch (SocketTimeoutException open) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }
}
