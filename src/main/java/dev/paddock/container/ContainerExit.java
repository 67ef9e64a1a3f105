package dev.paddock.container;

/**
 * How a container ended, from the engine's {@code State} after it stopped.
 *
 * @param code the container's exit code ({@code State.ExitCode}; 137 = killed by SIGKILL), or null when the
 *     container vanished before anyone saw it stop
 * @param oomKilled {@code State.OOMKilled}: the kernel's OOM killer killed a process of the container because
 *     it reached its memory limit
 * @param memoryLimitBytes the container's memory limit in bytes ({@code HostConfig.Memory}), or null
 */
public record ContainerExit(Long code, boolean oomKilled, Long memoryLimitBytes) {

    /** A container that was removed (or never existed) before its end was seen. */
    public static ContainerExit vanished() {
        return new ContainerExit(null, false, null);
    }

    /**
     * Whether a process of the container was killed for memory ({@code OOMKilled}), whatever the exit code: the
     * main process may have outlived a child the kernel killed.
     */
    public boolean outOfMemory() {
        return oomKilled;
    }

    /** Whether the main process itself was killed for memory: {@code OOMKilled} and exit 137 (SIGKILL). */
    public boolean killedForMemory() {
        return oomKilled && code != null && code == 137;
    }

    /** "a process in the sandbox was killed for memory (limit 64 MiB)"; the limit is left out when unknown. */
    public String processKilledText() {
        return "a process in the sandbox was killed for memory" + limitText();
    }

    /** "out of memory (limit 64 MiB)" for people; the limit is left out when unknown. */
    public String outOfMemoryText() {
        return "out of memory" + limitText();
    }

    private String limitText() {
        return memoryLimitBytes == null || memoryLimitBytes <= 0
                ? ""
                : " (limit " + memoryLimitBytes / ResourceLimits.MIB + " MiB)";
    }
}
