package dev.paddock.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.paddock.api.HookAuth;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code paddock-turn-claude} script, run as Claude Code runs it: hook input on stdin, the agent's variables. */
class TurnHookTest {
    private static final String STOP = "{\"session_id\":\"s-1\",\"transcript_path\":\"/t.jsonl\",\"cwd\":\"/w\","
            + "\"hook_event_name\":\"Stop\",\"stop_hook_active\":false,\"last_assistant_message\":\"Done, $HOME \\\\n `x`\"}";

    @TempDir
    Path tmp;

    private record Received(String target, String auth, String body) {}

    private record Ran(int exit, String stdout, String stderr) {}

    private Ran run(Path script, String stdin, Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(script.toString());
        pb.environment().clear();
        pb.environment().put("PATH", "/usr/bin:/bin");
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return new Ran(
                p.exitValue(),
                new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8),
                new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    @Test
    void writesTheTurnFileAndPostsASignedCopyWithoutAToken() throws Exception {
        Path script = TurnHook.write(tmp.resolve("home"));
        assertThat(Files.getPosixFilePermissions(script))
                .containsExactlyInAnyOrder(
                        PosixFilePermission.OWNER_READ,
                        PosixFilePermission.OWNER_WRITE,
                        PosixFilePermission.OWNER_EXECUTE);
        assertThat(TurnHook.write(tmp.resolve("home"))).isEqualTo(script);
        List<Received> got = new CopyOnWriteArrayList<>();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4);
        server.createContext("/", ex -> {
            got.add(new Received(
                    ex.getRequestURI().toString(),
                    ex.getRequestHeaders().getFirst("Paddock-Auth"),
                    new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
            ex.sendResponseHeaders(204, -1);
            ex.close();
        });
        server.start();
        try {
            int port = server.getAddress().getPort();
            String key = HookAuth.sandboxKey("install-token", "s1");
            Path turnFile = tmp.resolve("turn.json");
            Ran r = run(
                    script,
                    STOP,
                    Map.of(
                            "PADDOCK_API",
                            "http://127.0.0.1:" + port,
                            "PADDOCK_SANDBOX_ID",
                            "s1",
                            "PADDOCK_HOOK_KEY",
                            key,
                            "PADDOCK_TOKEN",
                            "the-sandbox-token",
                            TurnHook.FILE_VARIABLE,
                            turnFile.toString()));

            assertThat(r).isEqualTo(new Ran(0, "", ""));
            assertThat(Files.readString(turnFile)).isEqualTo(STOP + "\n");
            assertThat(got).hasSize(1);
            Received req = got.get(0);
            assertThat(req.target()).isEqualTo(TurnHook.ROUTE + "?sandbox=s1");
            assertThat(req.body()).isEqualTo(STOP);
            assertThat(req.auth() + req.body())
                    .doesNotContain("the-sandbox-token")
                    .doesNotContain(key);
            HookAuth.Presented p = HookAuth.parse(req.auth());
            assertThat(p.keyId()).isEqualTo("sandbox/s1");
            assertThat(p.mac())
                    .isEqualTo(HookAuth.requestMac(
                            key,
                            p.keyId(),
                            p.ts(),
                            p.nonce(),
                            "127.0.0.1:" + port,
                            "POST",
                            req.target(),
                            req.body().getBytes(StandardCharsets.UTF_8)));
            assertThat(TurnSignal.parse(req.body()))
                    .contains(new TurnSignal(TurnSignal.Kind.TURN_ENDED, "s-1", "Done, $HOME \\n `x`", null));
        } finally {
            server.stop(0);
        }
    }

    @Test
    void neverBlocksClaudeWhateverGoesWrong() throws Exception {
        Path script = TurnHook.write(tmp.resolve("home"));
        int closedPort;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        for (Map<String, String> env : List.of(
                Map.<String, String>of(),
                Map.of(
                        "PADDOCK_API",
                        "http://127.0.0.1:" + closedPort,
                        "PADDOCK_SANDBOX_ID",
                        "s1",
                        "PADDOCK_HOOK_KEY",
                        "k"),
                Map.of("PADDOCK_API", "http://example.invalid:80", "PADDOCK_SANDBOX_ID", "s1", "PADDOCK_HOOK_KEY", "k"),
                Map.of("PADDOCK_API", "http://127.0.0.1:1", "PADDOCK_SANDBOX_ID", "../x", "PADDOCK_HOOK_KEY", "k"),
                Map.of(
                        TurnHook.FILE_VARIABLE,
                        tmp.resolve("no/such/dir/turn.json").toString()))) {
            for (String stdin : List.of(STOP, "", "not json")) {
                assertThat(run(script, stdin, env)).as("%s / %s", env, stdin).isEqualTo(new Ran(0, "", ""));
            }
        }
    }

    @Test
    void signalsOfStopAndNotification() {
        assertThat(TurnSignal.parse("{\"session_id\":\"a\",\"hook_event_name\":\"Notification\","
                        + "\"message\":\"Claude is waiting for your input\",\"notification_type\":\"idle_prompt\"}"))
                .contains(new TurnSignal(
                        TurnSignal.Kind.WAITING, "a", "Claude is waiting for your input", "idle_prompt"));
        assertThat(TurnSignal.parse("{\"hook_event_name\":\"PreToolUse\"}")).isEmpty();
        assertThat(TurnSignal.parse("[1]")).isEmpty();
        assertThat(TurnSignal.parse("{oops")).isEmpty();
    }
}
