package dev.paddock.isolation.container;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.isolation.SandboxApi;
import dev.paddock.testing.DockerTests;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/**
 * OPEN WEAKNESS, disabled so the build stays green: an agent whose container runs as 0:0 (what ContainerPlan gives
 * when Paddock itself runs as root) has no capabilities, yet owns {@code /run/paddock} (created root-owned by the
 * engine for the mounts below it). It can move that directory aside and make its own {@code /run/paddock/api} and
 * {@code /run/paddock/bin}: its hook then dials a socket the agent listens on, or runs a program the agent wrote,
 * and the agent holds {@code PADDOCK_HOOK_KEY} to sign any answer. The relay's tmpfs and the read-only programs'
 * volume protect nothing once their parent is moved. Remove {@link Disabled} once agents never run as uid 0 (or the
 * socket's and programs' paths are out of reach), and this passes.
 */
class AgentAsRootTakesTheSocketTest {
    @Test
    @Disabled("Demonstrates an open weakness: an agent as uid 0 can move /run/paddock aside")
    void anAgentAsRootCannotPutItsOwnSocketDirectoryInPlace() {
        DockerTests.requireEngineWithGitImage();
        DockerTests.Result r = DockerTests.docker(
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
                        + SandboxApi.SOCKET + " && echo TAKEN");
        assertThat(r.out()).doesNotContain("TAKEN");
    }
}
