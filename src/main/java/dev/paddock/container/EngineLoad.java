package dev.paddock.container;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Info;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an engine has and what Paddock's running containers there hold: its CPUs and memory ({@code docker info}:
 * NCPU, MemTotal) and the sum of the CPU and memory limits of its running containers labelled by a Paddock
 * (sandboxes and merge tests, of any home). Free is the difference; placement compares engines by it.
 *
 * @param version the engine's Docker version
 * @param cpus the engine's CPUs (NCPU)
 * @param memoryBytes the engine's memory (MemTotal)
 * @param running how many Paddock containers run there
 * @param heldNanoCpus the sum of their CPU limits (a container without one counts as all of the engine's CPUs)
 * @param heldMemoryBytes the sum of their memory limits (one without counts as all of the engine's memory)
 */
public record EngineLoad(
        String version, int cpus, long memoryBytes, int running, long heldNanoCpus, long heldMemoryBytes) {

    /** CPUs free for another container, in nano-CPUs (negative when over-committed). */
    public long freeNanoCpus() {
        return cpus * ResourceLimits.ONE_CPU - heldNanoCpus;
    }

    /** Memory free for another container, in bytes (negative when over-committed). */
    public long freeMemoryBytes() {
        return memoryBytes - heldMemoryBytes;
    }

    /** What is left after a container with {@code limits} started here: (nano-CPUs, bytes). */
    public long[] freeAfter(ResourceLimits limits) {
        return new long[] {freeNanoCpus() - limits.nanoCpus(), freeMemoryBytes() - limits.memoryBytes()};
    }

    /** "4 CPUs, 2.5 free; 7.7 GiB, 3.7 GiB free; 2 running", for the panel and the CLI. */
    public String summary() {
        return String.format(
                java.util.Locale.ROOT,
                "%d CPUs, %.1f free; %.1f GiB, %.1f GiB free; %d running",
                cpus,
                freeNanoCpus() / (double) ResourceLimits.ONE_CPU,
                memoryBytes / (double) (1024L * ResourceLimits.MIB),
                freeMemoryBytes() / (double) (1024L * ResourceLimits.MIB),
                running);
    }

    /** As JSON fields. */
    public Map<String, Object> fields() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("version", version);
        m.put("cpus", cpus);
        m.put("memoryBytes", memoryBytes);
        m.put("paddockContainersRunning", running);
        m.put("freeCpus", freeNanoCpus() / (double) ResourceLimits.ONE_CPU);
        m.put("freeMemoryBytes", freeMemoryBytes());
        return m;
    }

    /**
     * Asks {@code engine} (one {@code info}, one list, one {@code inspect} per running Paddock container).
     *
     * @throws ContainerException when the engine does not answer
     */
    public static EngineLoad of(DockerEngine engine) throws ContainerException {
        try {
            DockerClient c = engine.client();
            Info info = c.infoCmd().exec();
            int cpus = info.getNCPU() == null ? 0 : info.getNCPU();
            long mem = info.getMemTotal() == null ? 0 : info.getMemTotal();
            int running = 0;
            long heldCpu = 0;
            long heldMem = 0;
            for (String label : List.of(DockerContainers.SANDBOX_LABEL, DockerContainers.MERGE_LABEL)) {
                List<Container> found = c.listContainersCmd()
                        .withLabelFilter(List.of(label))
                        .withStatusFilter(List.of("running"))
                        .exec();
                for (Container k : found) {
                    if (label.equals(DockerContainers.MERGE_LABEL)
                            && k.getLabels() != null
                            && k.getLabels().containsKey(DockerContainers.SANDBOX_LABEL)) {
                        continue; // counted once
                    }
                    InspectContainerResponse r =
                            c.inspectContainerCmd(k.getId()).exec();
                    HostConfig h = r.getHostConfig();
                    Long nano = h == null ? null : h.getNanoCPUs();
                    Long m = h == null ? null : h.getMemory();
                    heldCpu += nano == null || nano == 0 ? cpus * ResourceLimits.ONE_CPU : nano;
                    heldMem += m == null || m == 0 ? mem : m;
                    running++;
                }
            }
            String version = info.getServerVersion();
            return new EngineLoad(version, cpus, mem, running, heldCpu, heldMem);
        } catch (RuntimeException e) {
            throw new ContainerException(
                    "The Docker engine at " + engine.endpoint() + " does not answer: " + DockerEngine.describe(e), e);
        }
    }
}
