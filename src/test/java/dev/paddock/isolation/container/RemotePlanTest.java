package dev.paddock.isolation.container;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.container.ContainerSpec;
import dev.paddock.container.DockerContainers;
import dev.paddock.isolation.GitWrites;
import dev.paddock.isolation.RunId;
import dev.paddock.isolation.RunSpec;
import dev.paddock.isolation.SandboxApi;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The container of an agent on a remote engine: no bind mount of this machine, the workspace and programs volumes,
 * the socket's tmpfs, a user that is not root, and no value naming the control directory.
 */
class RemotePlanTest {
    @Test
    void anAgentOnARemoteEngineGetsVolumesATmpfsAndNoBindMount() throws Exception {
        Path wt = Path.of("/home/alice/repo/.worktrees/s-1/agent");
        Path control = Path.of("/home/alice/repo/.worktrees/s-1/.paddock");
        Path hook = Path.of("/home/alice/.paddock/hooks/paddock-hook-claude");
        RunSpec spec = new RunSpec(
                RunSpec.Kind.AGENT,
                new RunId(
                        "s-1",
                        "paddock-s-1-r1",
                        Map.of(DockerContainers.SANDBOX_LABEL, "s-1"),
                        control,
                        Path.of("/tmp/s-1.log"),
                        null),
                wt,
                "echo hi",
                "run 1 of s-1",
                GitWrites.COMMIT,
                Map.of(
                        "PADDOCK_HEARTBEAT_FILE",
                        control.resolve("heartbeat").toString(),
                        "PADDOCK_WORKTREE",
                        wt.toString(),
                        SandboxApi.SOCKET_VARIABLE,
                        SandboxApi.SOCKET),
                Map.of("PADDOCK_API", "http://127.0.0.1:9"),
                null,
                true,
                "paddock-test:git",
                new SandboxApi(Path.of("/home/alice/.paddock/run/api/s-1"), List.of(hook)),
                null);

        ContainerSpec c = RemotePlan.spec(spec, "paddock-ws-s-1", "paddock-bin-s-1");

        assertThat(c.mounts())
                .containsExactly(
                        ContainerSpec.Mount.volume("paddock-ws-s-1", "/workspace", false),
                        ContainerSpec.Mount.volume("paddock-bin-s-1", SandboxApi.BIN, true),
                        ContainerSpec.Mount.tmpfs(SandboxApi.SOCKET_DIR, RemoteBroker.SOCKET_DIR_TMPFS_OPTIONS));
        assertThat(c.mounts()).noneMatch(m -> m.kind() == ContainerSpec.Mount.Kind.BIND);
        assertThat(c.user()).isEqualTo("1000:1000");
        assertThat(c.workingDir()).isEqualTo("/workspace");
        assertThat(c.env())
                .containsEntry("PADDOCK_WORKTREE", "/workspace")
                .containsEntry(SandboxApi.SOCKET_VARIABLE, SandboxApi.SOCKET)
                .doesNotContainKeys("PADDOCK_HEARTBEAT_FILE", "PADDOCK_API");
        assertThat(c.env().values()).noneMatch(v -> v.contains("/home/alice"));
        assertThat(c.command())
                .as("the agent starts once its API socket is there")
                .containsExactly(
                        "/bin/sh",
                        "-c",
                        "i=0; while [ ! -S " + SandboxApi.SOCKET + " ] && [ $i -lt 150 ]; do sleep 0.1;"
                                + " i=$((i+1)); done; exec /bin/sh -c \"$1\"",
                        "paddock-agent",
                        "echo hi");
        assertThat(c.network()).isTrue();
        assertThat(c.labels()).containsEntry(DockerContainers.SANDBOX_LABEL, "s-1");
    }

    @Test
    void theAgentStartsOnlyOnceItsSocketIsThere(@TempDir Path tmp) throws Exception {
        Path socket = tmp.resolve("api.sock");
        Path started = tmp.resolve("started");
        List<String> argv = RemotePlan.agentArgv(socket.toString(), "[ -S " + socket + " ] && echo yes > " + started);
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        try {
            Thread.sleep(700);
            assertThat(started).as("not before the socket exists").doesNotExist();
            try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
                server.bind(UnixDomainSocketAddress.of(socket));
                assertThat(p.waitFor(5, TimeUnit.SECONDS)).isTrue();
            }
            assertThat(p.exitValue()).isZero();
            assertThat(Files.readString(started).strip()).isEqualTo("yes");
        } finally {
            p.destroyForcibly();
        }
    }
}
