package dev.paddock.approval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.testing.HookRun;
import dev.paddock.testing.HookRun.Shell;
import dev.paddock.testing.RecordingServer;
import dev.paddock.testing.ServeProcess;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every hook path ends in a decision within its deadline: the real hook script, run by bash ({@code /dev/tcp})
 * and by {@code sh} (curl), against a server that accepts and never answers, one that never accepts, a real
 * {@code paddock serve} in a child JVM stopped with {@code kill -STOP}, and asks that wait for a person while
 * the broker's keep-alive signs flow, stop, or outlast Claude Code's timeout. Claude Code lets a call through
 * when its hook times out, so each of these must deny before then.
 */
class HookDeadlineTest {
    /** How late a deny may come after the deadline it is due at: process starts on a busy 2-core machine. */
    private static final Duration SLACK = Duration.ofSeconds(4);

    private static final Duration ANSWER = Duration.ofSeconds(HookScript.ANSWER_S);
    private static final Duration QUIET = Duration.ofSeconds(HookScript.QUIET_S);
    private static final Duration LIMIT = Duration.ofSeconds(90);
    /** curl notices silence by its speed over its last 5 s (see the script): up to 8 s after the last byte. */
    private static final Duration CURL_AVERAGING = Duration.ofSeconds(3);

    @TempDir
    static Path shared;

    private static ServeProcess serve;
    private static String sandbox;
    private static Path worktree;

    @BeforeAll
    static void start() throws Exception {
        serve = ServeProcess.start(shared.resolve("serve"));
        sandbox = serve.runningSandbox("Deadline agent");
        worktree = serve.worktree(sandbox);
    }

    @AfterAll
    static void stop() {
        serve.close();
    }

    @AfterEach
    void resume() {
        serve.resume();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Shell.class)
    void theHookDeniesWhenTheServerAcceptsAndNeverAnswers(Shell shell) {
        try (RecordingServer silent = RecordingServer.start(RecordingServer.Mode.NEVER_ANSWER)) {
            HookRun.Result r = hook(shell, agentEnv(silent.port()), "git status", List.of());

            assertThat(r.exit()).as(r.describe()).isEqualTo(2);
            assertThat(r.decision()).isEqualTo("deny");
            assertThat(r.err())
                    .containsAnyOf("did not answer within " + HookScript.ANSWER_S + " s", "did not answer in time");
            assertThat(r.took()).as(r.describe()).isLessThan(ANSWER.plus(SLACK));
            assertThat(silent.received()).as("the request reached the server").contains("POST /v1/hooks/claude");
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Shell.class)
    void theHookDeniesWhenTheServerNeverAcceptsTheConnection(Shell shell) throws Exception {
        try (ServerSocket full = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            // A listener that never accepts: once its queue is full, the kernel drops new SYNs and connect() blocks.
            List<SocketChannel> queued = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                SocketChannel c = SocketChannel.open();
                c.configureBlocking(false);
                c.connect(new InetSocketAddress("127.0.0.1", full.getLocalPort()));
                queued.add(c);
            }
            try {
                HookRun.Result r = hook(shell, agentEnv(full.getLocalPort()), "git status", List.of());

                assertThat(r.exit()).as(r.describe()).isEqualTo(2);
                assertThat(r.decision()).isEqualTo("deny");
                assertThat(r.took()).as(r.describe()).isLessThan(ANSWER.plus(SLACK));
            } finally {
                for (SocketChannel c : queued) {
                    c.close();
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Shell.class)
    void theHookDeniesWhenPaddockIsStopped(Shell shell) {
        serve.stop();

        HookRun.Result r = hook(shell, agentEnv(serve.port()), "git status", List.of());

        assertThat(r.exit()).as(r.describe()).isEqualTo(2);
        assertThat(r.decision()).isEqualTo("deny");
        assertThat(r.took()).as(r.describe()).isLessThan(ANSWER.plus(SLACK));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Shell.class)
    void theHookDeniesAHugeInputToAStoppedPaddockInTime(Shell shell) {
        serve.stop();
        // Larger than the socket buffers of both ends: a plain write would block until the peer reads.
        String huge = "echo " + "x".repeat(8 << 20);

        HookRun.Result r = hook(shell, agentEnv(serve.port()), huge, List.of());

        assertThat(r.exit()).as(r.describe()).isEqualTo(2);
        assertThat(r.decision()).isEqualTo("deny");
        assertThat(r.took()).as(r.describe()).isLessThan(ANSWER.plus(SLACK));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Shell.class)
    void anAskThatWaitsLongerThanTheQuietIntervalGetsThePersonsDecision(Shell shell) throws Exception {
        CompletableFuture<HookRun.Result> waiting = CompletableFuture.supplyAsync(
                () -> hook(shell, agentEnv(serve.port()), "git push origin main", List.of("--timeout", "660")));
        long id = serve.awaitPending(sandbox);
        Thread.sleep(QUIET.plusSeconds(3).toMillis()); // the broker's signs must carry the hook past its quiet limit

        serve.approve(id, "ann");

        HookRun.Result r = waiting.get(60, TimeUnit.SECONDS);
        assertThat(r.exit()).as(r.describe()).isZero();
        assertThat(r.decision()).isEqualTo("allow");
        assertThat(r.output().get("permissionDecisionReason").asText()).contains("approved by ann");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Shell.class)
    void anAskIsDeniedSoonAfterPaddockStopsSendingSigns(Shell shell) throws Exception {
        CompletableFuture<HookRun.Result> waiting = CompletableFuture.supplyAsync(() -> hook(
                shell, agentEnv(serve.port()), "git push origin stopped-" + shell.name(), List.of("--timeout", "660")));
        serve.awaitPending(sandbox);
        Thread.sleep(2000); // waiting, with signs, for a while
        long stoppedAt = System.nanoTime();

        serve.stop();

        HookRun.Result r = waiting.get(60, TimeUnit.SECONDS);
        Duration afterStop = Duration.ofNanos(System.nanoTime() - stoppedAt);
        assertThat(r.exit()).as(r.describe()).isEqualTo(2);
        assertThat(r.decision()).isEqualTo("deny");
        assertThat(afterStop)
                .as(r.describe())
                .isLessThan(QUIET.plus(SLACK).plus(shell == Shell.SH ? CURL_AVERAGING : Duration.ZERO));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Shell.class)
    void anAskNobodyAnswersIsDeniedBeforeClaudeCodesOwnTimeout(Shell shell) {
        // Claude Code would give up after 12 s (and let the call through); the broker would wait 10 minutes.
        HookRun.Result r =
                hook(shell, agentEnv(serve.port()), "git push origin late-" + shell.name(), List.of("--timeout", "12"));

        assertThat(r.exit()).as(r.describe()).isEqualTo(2);
        assertThat(r.decision()).isEqualTo("deny");
        assertThat(r.took()).as(r.describe()).isLessThan(Duration.ofSeconds(12));
    }

    private static Map<String, String> agentEnv(int port) {
        return HookRun.agentEnv(port, sandbox, "unused-by-the-hook", serve.hookKeyOf(sandbox));
    }

    private static HookRun.Result hook(Shell shell, Map<String, String> env, String command, List<String> args) {
        return HookRun.run(serve.script(), shell, env, HookRun.payload(worktree, command), args, LIMIT);
    }
}
