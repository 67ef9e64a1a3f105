package dev.paddock.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.container.ResourceLimits;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.Tier;
import org.junit.jupiter.api.Test;

/** The container part of {@code POST /v1/sandboxes}: image and limits in the units people type. */
class ContainerRequestTest {
    private static CreateSandboxRequest request(String image, Double cpus, Long memoryMiB, Long pids, Long nofile) {
        return new CreateSandboxRequest(
                "/work/shop",
                "task",
                "true",
                "container",
                null,
                null,
                null,
                null,
                null,
                null,
                image,
                cpus,
                memoryMiB,
                pids,
                nofile);
    }

    @Test
    void cpusAndMebibytesBecomeNanoCpusAndBytesWithDefaultsForTheRest() throws Exception {
        NewSandbox n = request(" node:22 ", 1.5, 64L, null, null).toNewSandbox();

        assertThat(n.tier()).isEqualTo(Tier.CONTAINER);
        assertThat(n.image()).isEqualTo("node:22");
        assertThat(n.limits()).isEqualTo(new ResourceLimits(1_500_000_000L, 64L * 1024 * 1024, 512, 4096));
    }

    @Test
    void noLimitsMeansTheDefaultsAndNoImageMeansTheRepositorys() throws Exception {
        NewSandbox n = request(null, null, null, null, null).toNewSandbox();

        assertThat(n.limits()).isNull();
        assertThat(n.image()).isNull();
    }

    @Test
    void aLimitDockerWouldRefuseIsA400WithTheReason() {
        assertThatThrownBy(() -> request(null, null, 1L, null, null).toNewSandbox())
                .isInstanceOfSatisfying(
                        ApiError.class, e -> assertThat(e.status()).isEqualTo(400))
                .hasMessage("The memory limit must be at least 6 MiB (got 1048576 bytes).");
        assertThatThrownBy(() -> request(null, 0.0, null, null, null).toNewSandbox())
                .hasMessage("The CPU limit must be positive (got 0 nanoCPUs).");
    }
}
