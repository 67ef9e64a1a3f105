package dev.paddock.container;

import java.time.Instant;

/**
 * One sample of a container's CPU and memory, as the sandboxes table and the containers view show it.
 * Immutable; made on a stats stream's thread and read on the FX thread.
 *
 * <p>A stopped container is a sample with {@code running == false} and every figure zero: a person sees
 * "stopped", never the last values it had (see {@link #stopped}).
 *
 * @param sandboxId the sandbox the container runs (its {@code paddock.sandbox} label)
 * @param containerId the container's full id
 * @param cpuPercentOfOneCpu CPU used, in percent of one CPU: the number {@code docker stats} prints (a busy loop
 *     under {@code --cpus 0.5} reads about 50)
 * @param cpuPercentOfLimit CPU used, in percent of the container's CPU limit ({@code NanoCpus}): 100 = the limit
 *     is reached; the percent of the host's CPUs when the container has no limit
 * @param cpuPercentOfHost CPU used, in percent of all the engine host's CPUs (100 = every CPU busy)
 * @param memoryBytes memory used without page cache (usage − inactive file), in bytes
 * @param memoryLimitBytes the container's memory limit in bytes (the host's memory when it has none)
 * @param at when the engine read the sample (or when the container was seen to stop)
 * @param running false once the container stopped or vanished
 */
public record ContainerMetrics(
        String sandboxId,
        String containerId,
        double cpuPercentOfOneCpu,
        double cpuPercentOfLimit,
        double cpuPercentOfHost,
        long memoryBytes,
        long memoryLimitBytes,
        Instant at,
        boolean running) {

    /** The state of a container that stopped (or vanished) at {@code at}: no figures. */
    public static ContainerMetrics stopped(String sandboxId, String containerId, Instant at) {
        return new ContainerMetrics(sandboxId, containerId, 0, 0, 0, 0, 0, at, false);
    }

    /** Memory used, in percent of the limit (0 when the limit is unknown). */
    public double memoryPercentOfLimit() {
        return memoryLimitBytes <= 0 ? 0 : 100.0 * memoryBytes / memoryLimitBytes;
    }
}
