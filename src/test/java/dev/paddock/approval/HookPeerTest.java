package dev.paddock.approval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.Paddock;
import dev.paddock.api.HookAuth;
import dev.paddock.api.InstanceFile;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.testing.BrokerRig;
import dev.paddock.testing.HookRun;
import dev.paddock.testing.HookRun.Shell;
import dev.paddock.testing.RecordingServer;
import dev.paddock.testing.TempRepo;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The hook believes only the Paddock it belongs to, and gives nobody a secret: the real hook script (bash and
 * curl) and {@code paddock hook claude} meet a foreign HTTP server on the port {@code instance.json} or
 * {@code PADDOCK_API} names, which records every byte and answers "allow"; a relay to the real Paddock; and the
 * real Paddock fed replayed, stale, wrongly keyed or misdirected requests.
 */
class HookPeerTest {
    private static final Duration LIMIT = Duration.ofSeconds(60);

    @TempDir
    static Path shared;

    private static BrokerRig rig;
    private static SandboxRecord sandbox;
    private static SandboxRecord other;
    private static Path script;

    @BeforeAll
    static void start() throws Exception {
        rig = BrokerRig.start(shared.resolve("home"));
        TempRepo repo = BrokerRig.repoWithPolicy(shared.resolve("repo"));
        sandbox = rig.runningSandbox(repo, "Peer agent");
        other = rig.runningSandbox(repo, "Other agent");
        script = HookScript.path(rig.home().dir());
    }

    @AfterAll
    static void stop() {
        rig.close();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Shell.class)
    void aForeignServerOnTheInstancePortIsDeniedAndNeverGetsTheInstallToken(Shell shell) throws Exception {
        String installToken = "foreign-test-install-token-0123456789abcdefghi";
        try (RecordingServer foreign = RecordingServer.start(RecordingServer.Mode.ALLOW)) {
            Path home = homeNamingPort(shell.name(), foreign.port(), installToken);

            HookRun.Result r = HookRun.run(
                    HookScript.path(home),
                    shell,
                    HookRun.baseEnv(),
                    HookRun.payload(sandbox.workspace().worktree(), "rm -rf build"),
                    List.of(),
                    LIMIT);

            assertThat(r.exit()).as(r.describe()).isEqualTo(2);
            assertThat(r.decision()).isEqualTo("deny");
            assertThat(r.err()).contains("did not prove it is this home's Paddock");
            assertThat(foreign.received())
                    .as("what the foreign server got")
                    .contains("POST /v1/hooks/claude")
                    .doesNotContain(installToken)
                    .doesNotContain("Authorization");
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Shell.class)
    void aForeignServerOnTheAgentsPortIsDeniedAndGetsNeitherItsTokenNorItsKey(Shell shell) throws Exception {
        try (RecordingServer foreign = RecordingServer.start(RecordingServer.Mode.ALLOW)) {
            String token = rig.tokenOf(sandbox.id());
            String key = rig.hookKeyOf(sandbox.id());

            HookRun.Result r = HookRun.run(
                    script,
                    shell,
                    HookRun.agentEnv(foreign.port(), sandbox.id(), token, key),
                    HookRun.payload(sandbox.workspace().worktree(), "rm -rf build"),
                    List.of(),
                    LIMIT);

            assertThat(r.exit()).as(r.describe()).isEqualTo(2);
            assertThat(r.decision()).isEqualTo("deny");
            assertThat(foreign.received())
                    .contains("POST /v1/hooks/claude?sandbox=" + sandbox.id())
                    .doesNotContain(token)
                    .doesNotContain(key)
                    .doesNotContain(rig.installToken());
        }
    }

    @Test
    void theJvmHookDeniesAForeignServerAndNeverSendsItTheInstallToken() throws Exception {
        String installToken = "foreign-test-install-token-for-the-jvm-hook0";
        try (RecordingServer foreign = RecordingServer.start(RecordingServer.Mode.ALLOW)) {
            Path home = homeNamingPort("jvm", foreign.port(), installToken);

            int[] exit = {0};
            String err = jvmHook(home, HookRun.payload(sandbox.workspace().worktree(), "rm -rf build"), exit);

            assertThat(exit[0]).as(err).isEqualTo(2);
            assertThat(err).contains("did not prove it is this home's Paddock");
            assertThat(foreign.received())
                    .contains("POST /v1/hooks/claude")
                    .doesNotContain(installToken)
                    .doesNotContain("Authorization");
        }
    }

    @Test
    void theJvmHookDeniesInTimeWhenTheServerNeverAnswers() throws Exception {
        try (RecordingServer silent = RecordingServer.start(RecordingServer.Mode.NEVER_ANSWER)) {
            Path home = homeNamingPort("jvm-silent", silent.port(), "silent-test-install-token-0123456789abcdefg");
            long t0 = System.nanoTime();

            int[] exit = {0};
            String err = jvmHook(home, HookRun.payload(sandbox.workspace().worktree(), "git status"), exit);

            assertThat(exit[0]).as(err).isEqualTo(2);
            assertThat(err).contains("did not answer");
            assertThat(Duration.ofNanos(System.nanoTime() - t0))
                    .isLessThan(Duration.ofSeconds(HookScript.ANSWER_S + 4));
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Shell.class)
    void aServerThatAnswersWithoutEndIsDeniedBeforeTheHookGrowsWithoutBound(Shell shell) throws Exception {
        try (RecordingServer flood = RecordingServer.start(RecordingServer.Mode.FLOOD)) {
            HookRun.Result r = HookRun.run(
                    script,
                    shell,
                    HookRun.agentEnv(flood.port(), sandbox.id(), "unused", rig.hookKeyOf(sandbox.id())),
                    HookRun.payload(sandbox.workspace().worktree(), "rm -rf build"),
                    List.of(),
                    LIMIT);

            assertThat(r.exit()).as(r.describe()).isEqualTo(2);
            assertThat(r.decision()).isEqualTo("deny");
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Shell.class)
    void aRelayToTheRealPaddockIsRefusedThere(Shell shell) throws Exception {
        try (RecordingServer relay = RecordingServer.start(RecordingServer.Mode.RELAY, 0, rig.port())) {
            String command = "git status --relayed-" + shell.name();

            // Without instance.json the hook has no other Paddock to ask: the relay's answer is all it gets.
            Path instance = rig.home().instanceFile();
            Path aside = instance.resolveSibling("instance.json.aside");
            java.nio.file.Files.move(instance, aside);
            HookRun.Result r;
            try {
                r = HookRun.run(
                        script,
                        shell,
                        HookRun.agentEnv(
                                relay.port(), sandbox.id(), rig.tokenOf(sandbox.id()), rig.hookKeyOf(sandbox.id())),
                        HookRun.payload(sandbox.workspace().worktree(), command),
                        List.of(),
                        LIMIT);
            } finally {
                java.nio.file.Files.move(aside, instance);
            }

            assertThat(r.exit()).as(r.describe()).isEqualTo(2);
            assertThat(r.err()).contains("HTTP 401");
            assertThat(rig.host().wiring().approvals().list(null, 500))
                    .as("requests the real Paddock decided")
                    .noneMatch(a -> a.request().contains(command));
        }
    }

    @ParameterizedTest
    @EnumSource(Shell.class)
    void behindARelayTheHookAsksTheLivePaddockOfItsHomeDirectly(Shell shell) throws Exception {
        try (RecordingServer relay = RecordingServer.start(RecordingServer.Mode.RELAY, 0, rig.port())) {
            HookRun.Result r = HookRun.run(
                    script,
                    shell,
                    HookRun.agentEnv(
                            relay.port(), sandbox.id(), rig.tokenOf(sandbox.id()), rig.hookKeyOf(sandbox.id())),
                    HookRun.payload(sandbox.workspace().worktree(), "git status"),
                    List.of(),
                    LIMIT);

            assertThat(r.exit()).as(r.describe()).isZero();
            assertThat(r.decision()).isEqualTo("allow");
            assertThat(relay.connections()).as("PADDOCK_API was tried first").isGreaterThanOrEqualTo(1);
            assertThat(relay.received())
                    .doesNotContain(rig.hookKeyOf(sandbox.id()))
                    .doesNotContain(rig.installToken());
        }
    }

    @Test
    void aReplayedRequestIsRefusedAndGetsNoProof() throws Exception {
        byte[] request = signed(
                sandbox.id(),
                rig.hookKeyOf(sandbox.id()),
                "git status",
                Instant.now().getEpochSecond(),
                "/v1/hooks/claude?sandbox=" + sandbox.id(),
                rig.port());

        String first = send(request);
        String again = send(request);

        assertThat(first)
                .startsWith("HTTP/1.1 200")
                .containsIgnoringCase(HookAuth.PROOF_HEADER + ":")
                .contains("allow");
        assertThat(again)
                .startsWith("HTTP/1.1 401")
                .contains("replayed")
                .doesNotContainIgnoringCase(HookAuth.PROOF_HEADER);
    }

    @Test
    void aStaleRequestIsRefused() throws Exception {
        byte[] request = signed(
                sandbox.id(),
                rig.hookKeyOf(sandbox.id()),
                "git status",
                Instant.now().getEpochSecond() - 300,
                "/v1/hooks/claude?sandbox=" + sandbox.id(),
                rig.port());

        assertThat(send(request))
                .startsWith("HTTP/1.1 401")
                .contains("stale_request")
                .doesNotContainIgnoringCase(HookAuth.PROOF_HEADER);
    }

    @Test
    void aRequestWithTheWrongKeyGetsNoProof() throws Exception {
        byte[] request = signed(
                sandbox.id(),
                "f".repeat(64),
                "git status",
                Instant.now().getEpochSecond(),
                "/v1/hooks/claude?sandbox=" + sandbox.id(),
                rig.port());

        assertThat(send(request))
                .startsWith("HTTP/1.1 401")
                .contains("bad_hook_auth")
                .doesNotContainIgnoringCase(HookAuth.PROOF_HEADER);
    }

    @Test
    void aSandboxsKeyAsksOnlyForItsOwnSandboxAndOnlyThroughTheHookRoute() throws Exception {
        String key = rig.hookKeyOf(sandbox.id());
        long now = Instant.now().getEpochSecond();

        String forOther = send(
                signed(sandbox.id(), key, "git status", now, "/v1/hooks/claude?sandbox=" + other.id(), rig.port()));
        String elsewhere = send(signedGet(sandbox.id(), key, now, "/v1/approvals", rig.port()));

        assertThat(forOther).startsWith("HTTP/1.1 403").contains("cannot ask for " + other.id());
        assertThat(elsewhere).startsWith("HTTP/1.1 403").contains("a hook key may only ask");
    }

    @Test
    void eachAgentGetsItsOwnSandboxsHookKeyInItsEnvironment() throws Exception {
        SandboxRecord s = rig.runningSandbox(
                BrokerRig.repoWithPolicy(shared.resolve("repo-env")),
                "Key agent",
                "printf %s \"$PADDOCK_HOOK_KEY\" > \"$PADDOCK_HEARTBEAT_FILE.key\"; sleep 300");
        Path written = s.workspace()
                .worktree()
                .getParent()
                .getParent()
                .resolve(".paddock")
                .resolve("heartbeat.key");
        BrokerRig.await(
                "the agent to write its key",
                () -> Files.exists(written) && written.toFile().length() > 0);

        assertThat(Files.readString(written))
                .isEqualTo(rig.hookKeyOf(s.id()))
                .isNotEqualTo(rig.hookKeyOf(sandbox.id()))
                .doesNotContain(rig.installToken())
                .matches("[0-9a-f]{64}");
    }

    // ---- helpers ----

    /** A home whose instance.json names {@code port} with a live pid (this JVM's), with its own token and script. */
    private static Path homeNamingPort(String name, int port, String installToken) throws Exception {
        Path home = Files.createDirectories(shared.resolve("foreign-" + name));
        new InstanceFile(ProcessHandle.current().pid(), port, "serve", Instant.now())
                .write(home.resolve("instance.json"));
        Files.writeString(home.resolve("api-token"), installToken + "\n");
        Files.setPosixFilePermissions(home.resolve("api-token"), PosixFilePermissions.fromString("rw-------"));
        HookScript.write(home, 600_000);
        return home;
    }

    /** A hook request signed as the script signs it (HTTP/1.0, {@code Paddock-Auth}). */
    private static byte[] signed(String sandboxId, String key, String command, long ts, String target, int port) {
        byte[] body = HookRun.payload(sandbox.workspace().worktree(), command).getBytes(StandardCharsets.UTF_8);
        return request("POST", sandboxId, key, ts, target, port, body);
    }

    private static byte[] signedGet(String sandboxId, String key, long ts, String target, int port) {
        return request("GET", sandboxId, key, ts, target, port, new byte[0]);
    }

    private static byte[] request(
            String method, String sandboxId, String key, long ts, String target, int port, byte[] body) {
        String keyId = HookAuth.SANDBOX_PREFIX + sandboxId;
        byte[] n = new byte[16];
        new java.security.SecureRandom().nextBytes(n);
        String nonce = HexFormat.of().formatHex(n);
        String hostPort = "127.0.0.1:" + port;
        String mac = HookAuth.requestMac(key, keyId, ts, nonce, hostPort, method, target, body);
        String head = method + " " + target + " HTTP/1.0\r\nHost: " + hostPort + "\r\n" + HookAuth.AUTH_HEADER + ": "
                + new HookAuth.Presented(keyId, ts, nonce, mac).header() + "\r\nContent-Length: " + body.length
                + "\r\n\r\n";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(head.getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(body);
        return out.toByteArray();
    }

    /** Sends raw bytes to the real Paddock and returns its whole answer. */
    private static String send(byte[] request) throws Exception {
        try (Socket s = new Socket(InetAddress.getByName("127.0.0.1"), rig.port())) {
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            out.write(request);
            out.flush();
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static synchronized String jvmHook(Path home, String stdin, int[] exit) {
        InputStream savedIn = System.in;
        PrintStream savedOut = System.out;
        PrintStream savedErr = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            System.setIn(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
            System.setOut(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            exit[0] = Paddock.run(new String[] {"--home", home.toString(), "hook", "claude"});
        } finally {
            System.setIn(savedIn);
            System.setOut(savedOut);
            System.setErr(savedErr);
        }
        return err.toString(StandardCharsets.UTF_8);
    }
}
