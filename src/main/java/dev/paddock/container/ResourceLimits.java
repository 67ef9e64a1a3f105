package dev.paddock.container;

/**
 * The limits of one container (docker's {@code --cpus}, {@code --memory},
 * {@code --memory-swap}, {@code --pids-limit}, {@code --ulimit nofile}).
 *
 * @param nanoCpus CPU time in billionths of one CPU: 2_000_000_000 = two CPUs ({@code HostConfig.NanoCPUs})
 * @param memoryBytes memory in bytes; memory + swap is set to the same value, so the container cannot swap
 * @param pids how many processes (and threads) may exist in the container at once
 * @param nofile open files per process (soft = hard)
 */
public record ResourceLimits(long nanoCpus, long memoryBytes, long pids, long nofile) {
    /** One CPU, in nanoCPUs. */
    public static final long ONE_CPU = 1_000_000_000L;
    /** One MiB, in bytes. */
    public static final long MIB = 1024L * 1024L;
    /** The smallest memory limit Docker accepts: 6 MiB. */
    public static final long MIN_MEMORY_BYTES = 6 * MIB;
    /** Defaults: 2 CPUs, 4 GiB, 512 processes, 4096 open files. */
    public static final ResourceLimits DEFAULTS = new ResourceLimits(2 * ONE_CPU, 4096 * MIB, 512, 4096);

    /**
     * @throws IllegalArgumentException for a limit Docker would refuse (CPU or pids or nofile not positive,
     *     memory under {@link #MIN_MEMORY_BYTES}), with a message for the user
     */
    public ResourceLimits {
        if (nanoCpus <= 0) {
            throw new IllegalArgumentException("The CPU limit must be positive (got " + nanoCpus + " nanoCPUs).");
        }
        if (memoryBytes < MIN_MEMORY_BYTES) {
            throw new IllegalArgumentException(
                    "The memory limit must be at least 6 MiB (got " + memoryBytes + " bytes).");
        }
        if (pids <= 0 || nofile <= 0) {
            throw new IllegalArgumentException(
                    "The process and open-file limits must be positive (got " + pids + " and " + nofile + ").");
        }
    }

    /** These limits with {@link #DEFAULTS} for every null. */
    public static ResourceLimits orDefaults(Long nanoCpus, Long memoryBytes, Long pids, Long nofile) {
        return new ResourceLimits(
                nanoCpus != null ? nanoCpus : DEFAULTS.nanoCpus,
                memoryBytes != null ? memoryBytes : DEFAULTS.memoryBytes,
                pids != null ? pids : DEFAULTS.pids,
                nofile != null ? nofile : DEFAULTS.nofile);
    }

    public ResourceLimits withNanoCpus(long n) {
        return new ResourceLimits(n, memoryBytes, pids, nofile);
    }

    public ResourceLimits withMemoryBytes(long bytes) {
        return new ResourceLimits(nanoCpus, bytes, pids, nofile);
    }

    public ResourceLimits withPids(long n) {
        return new ResourceLimits(nanoCpus, memoryBytes, n, nofile);
    }

    public ResourceLimits withNofile(long n) {
        return new ResourceLimits(nanoCpus, memoryBytes, pids, n);
    }
}
