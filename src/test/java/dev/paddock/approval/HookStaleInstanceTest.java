package dev.paddock.approval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.testing.HookRun;
import dev.paddock.testing.HookRun.Shell;
import dev.paddock.testing.RecordingServer;
import dev.paddock.testing.ServeProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * After {@code kill -9}, a Paddock's {@code instance.json} stays behind and its agents keep their
 * {@code PADDOCK_API}; the port is free for anyone. A real {@code paddock serve} in a child JVM is killed, a
 * foreign server that answers "allow" to everything takes its port, and the real hook scripts of both kinds
 * (outside a sandbox, through {@code instance.json}; inside one, through the agent's environment) meet it.
 */
class HookStaleInstanceTest {
    private static final Duration LIMIT = Duration.ofSeconds(60);

    @TempDir
    Path tmp;

    @Test
    void aPortSquatterAfterKillNineGetsNoSecretAndNoCallIsAllowed() throws Exception {
        try (ServeProcess serve = ServeProcess.start(tmp)) {
            String sandbox = serve.runningSandbox("Stale agent");
            Path worktree = serve.worktree(sandbox);
            String key = serve.hookKeyOf(sandbox);
            String installToken = serve.installToken();
            int port = serve.port();
            HookRun.Result before = HookRun.run(
                    serve.script(),
                    Shell.BASH,
                    HookRun.agentEnv(port, sandbox, "unused", key),
                    HookRun.payload(worktree, "git status"),
                    List.of(),
                    LIMIT);
            assertThat(before.decision()).as(before.describe()).isEqualTo("allow");

            serve.kill9();
            assertThat(serve.home().resolve("instance.json"))
                    .as("left behind by kill -9")
                    .exists();

            try (RecordingServer squatter = RecordingServer.start(RecordingServer.Mode.ALLOW, port, 0)) {
                for (Shell shell : Shell.values()) {
                    HookRun.Result outside = HookRun.run(
                            serve.script(),
                            shell,
                            HookRun.baseEnv(),
                            HookRun.payload(worktree, "rm -rf build"),
                            List.of(),
                            LIMIT);
                    HookRun.Result inside = HookRun.run(
                            serve.script(),
                            shell,
                            HookRun.agentEnv(port, sandbox, "unused", key),
                            HookRun.payload(worktree, "rm -rf build"),
                            List.of(),
                            LIMIT);

                    assertThat(outside.exit())
                            .as(shell + ": " + outside.describe())
                            .isEqualTo(2);
                    assertThat(outside.decision()).isEqualTo("deny");
                    assertThat(inside.exit())
                            .as(shell + ": " + inside.describe())
                            .isEqualTo(2);
                    assertThat(inside.decision()).isEqualTo("deny");
                }
                assertThat(squatter.connections())
                        .as("the hooks reached the squatter")
                        .isGreaterThanOrEqualTo(4);
                assertThat(squatter.received())
                        .doesNotContain(installToken)
                        .doesNotContain(key)
                        .doesNotContain(Files.readString(serve.home().resolve("api-token"))
                                .strip());
            }
        }
    }
}
