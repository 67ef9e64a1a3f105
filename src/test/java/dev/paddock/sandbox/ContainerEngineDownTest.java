package dev.paddock.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.container.ContainerException;
import dev.paddock.container.ContainerSpec;
import dev.paddock.container.DockerContainers;
import dev.paddock.container.DockerEngine;
import dev.paddock.container.ResourceLimits;
import dev.paddock.isolation.container.ContainerAgents;
import dev.paddock.testing.TestRuntimes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With no Docker engine at the address (a socket path where nothing listens): the container tier says so
 * in words, a container sandbox is refused before anything is made, and the other tiers are untouched.
 * Needs no engine.
 */
class ContainerEngineDownTest {
    @TempDir
    Path tmp;

    SandboxRig rig;
    ContainerAgents agents;
    String nowhere;

    @BeforeEach
    void open() throws Exception {
        rig = new SandboxRig(tmp);
        nowhere = "unix://" + tmp.resolve("no-engine.sock");
        agents = new ContainerAgents(() -> new DockerContainers(new DockerEngine(Clock.systemUTC(), nowhere)));
    }

    @AfterEach
    void close() {
        agents.close();
        rig.close();
    }

    @Test
    void theContainerTierIsUnavailableWithTheEnginesAddressAndReason() {
        TierChecks tiers = new TierChecks(TestRuntimes.with(agents));

        assertThat(tiers.unavailable(Tier.CONTAINER))
                .hasValueSatisfying(
                        why -> assertThat(why).startsWith("the Docker engine at " + nowhere + " does not answer ("));
        assertThat(tiers.unavailable(Tier.WORKTREE)).isEmpty();
        assertThat(tiers.imageProblem("paddock-test:git"))
                .hasValueSatisfying(why -> assertThat(why)
                        .startsWith("the Docker engine at " + nowhere + " cannot be asked about paddock-test:git"));
    }

    @Test
    void aContainerSandboxIsRefusedBeforeAnythingIsMadeAndAWorktreeSandboxStillWorks() throws Exception {
        SandboxCreator creator = new SandboxCreator(
                rig.repoService,
                rig.worktrees,
                rig.store,
                rig.settings,
                new TierChecks(TestRuntimes.with(agents)),
                rig.fingerprints,
                Clock.systemUTC());
        String branchesBefore = rig.repo.git("branch", "--list");

        assertThatThrownBy(() -> creator.create(NewSandbox.custom(rig.repo.dir(), "In a box", "true")
                        .tier(Tier.CONTAINER)
                        .image("paddock-test:git")
                        .build()))
                .isInstanceOf(SandboxException.class)
                .hasMessageStartingWith("The container tier is not available here: the Docker engine at " + nowhere);

        assertThat(Files.exists(rig.worktreesRoot())).isFalse();
        assertThat(rig.repo.git("branch", "--list")).isEqualTo(branchesBefore);
        assertThat(rig.store.listLive()).isEmpty();
        SandboxRecord plain = creator.create(NewSandbox.of(rig.repo.dir(), "On the host", "true"));
        assertThat(rig.tickUntil(plain.id(), SandboxState.DONE, java.time.Duration.ofSeconds(20))
                        .run()
                        .exitCode())
                .isZero();
    }

    @Test
    void runningAContainerWithoutAnEngineIsAContainerExceptionThatSaysSo() {
        try (DockerContainers containers = new DockerContainers(new DockerEngine(Clock.systemUTC(), nowhere))) {
            ContainerSpec spec = new ContainerSpec(
                    "paddock-test-nowhere",
                    "paddock-test:git",
                    List.of("true"),
                    Map.of(),
                    "/",
                    "1000:1000",
                    List.of(),
                    ResourceLimits.DEFAULTS,
                    false,
                    Map.of());

            assertThatThrownBy(() -> containers.run(spec))
                    .isInstanceOf(ContainerException.class)
                    .hasMessageStartingWith("Cannot create a container from paddock-test:git: the Docker engine at "
                            + nowhere + " does not answer");
            assertThatThrownBy(containers::labelled)
                    .isInstanceOf(ContainerException.class)
                    .hasMessageContaining("does not answer");
        }
    }

    @Test
    void limitsDockerWouldRefuseAreRefusedWithTheReason() {
        assertThatThrownBy(() -> ResourceLimits.DEFAULTS.withMemoryBytes(1024))
                .hasMessage("The memory limit must be at least 6 MiB (got 1024 bytes).");
        assertThatThrownBy(() -> ResourceLimits.DEFAULTS.withNanoCpus(0))
                .hasMessage("The CPU limit must be positive (got 0 nanoCPUs).");
        assertThat(ResourceLimits.orDefaults(null, 64 * ResourceLimits.MIB, null, null))
                .isEqualTo(new ResourceLimits(2_000_000_000L, 64 * ResourceLimits.MIB, 512, 4096));
    }
}
