package dev.paddock.isolation.container;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.isolation.SandboxApi;
import dev.paddock.testing.DockerTests;
import org.junit.jupiter.api.Test;

/**
 * An agent whose container runs as 0:0 (what {@link ContainerPlan} gives when Paddock itself runs as root, as in CI)
 * has no capabilities, yet owns {@code /run/paddock}, which the engine creates root-owned for the mounts below it. On
 * a writable root it could move that directory aside and make its own {@code /run/paddock/api} and
 * {@code /run/paddock/bin} (its hook would then dial a socket the agent listens on, and the agent holds
 * {@code PADDOCK_HOOK_KEY} to sign any answer): the first command below shows it. Paddock's containers have a
 * read-only root ({@code DockerContainers}), where the same moves fail.
 */
class AgentAsRootTakesTheSocketTest {
    @Test
    void anAgentAsRootCannotPutItsOwnSocketDirectoryInPlace() {
        DockerTests.requireEngineWithGitImage();
        assertThat(moveTheSocketDirectoryAside(false).out())
                .as("on a writable root, what the read-only root prevents")
                .contains("TAKEN");
        DockerTests.Result r = moveTheSocketDirectoryAside(true);
        assertThat(r.out()).contains("Read-only file system").doesNotContain("TAKEN");
    }

    /** As root without capabilities: moves {@code /run/paddock} aside and makes its own socket in its place. */
    private static DockerTests.Result moveTheSocketDirectoryAside(boolean readOnlyRoot) {
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of(
                "run",
                "--rm",
                "--network",
                "none",
                "--user",
                "0:0",
                "--cap-drop",
                "ALL",
                "--security-opt",
                "no-new-privileges",
                "--tmpfs",
                SandboxApi.SOCKET_DIR + ":" + RemoteBroker.SOCKET_DIR_TMPFS_OPTIONS,
                DockerTests.GIT_IMAGE,
                "/bin/sh",
                "-c",
                "mv /run/paddock /run/moved && mkdir -p " + SandboxApi.SOCKET_DIR + " " + SandboxApi.BIN + " && touch "
                        + SandboxApi.SOCKET + " && echo TAKEN"));
        if (readOnlyRoot) {
            args.addAll(1, java.util.List.of("--read-only", "--tmpfs", "/tmp"));
        }
        return DockerTests.docker(args.toArray(String[]::new));
    }
}
