package dev.paddock.container;

import com.github.dockerjava.api.model.CpuStatsConfig;
import com.github.dockerjava.api.model.MemoryStatsConfig;
import com.github.dockerjava.api.model.Statistics;
import com.github.dockerjava.api.model.StatsConfig;
import java.util.List;
import java.util.OptionalDouble;

/**
 * CPU and memory of one container from one sample of the engine's stats stream ({@code GET
 * /containers/{id}/stats?stream=1}, one sample a second, each carrying the previous CPU counters in
 * {@code precpu_stats}). The rules are the docker CLI's, so Paddock's numbers match {@code docker stats}:
 * docker/cli {@code cli/command/container/stats_helpers.go}, {@code calculateCPUPercentUnix} and
 * {@code calculateMemUsageUnixNoCache}.
 */
final class StatsFormula {
    private StatsFormula() {}

    /**
     * CPU used since the previous sample, in percent of one CPU (docker/cli {@code calculateCPUPercentUnix}):
     * <pre>
     *   cpuDelta    = cpu_stats.cpu_usage.total_usage − precpu_stats.cpu_usage.total_usage   (ns of CPU time)
     *   systemDelta = cpu_stats.system_cpu_usage     − precpu_stats.system_cpu_usage      (ns of host time × CPUs)
     *   onlineCPUs  = cpu_stats.online_cpus, or len(cpu_stats.cpu_usage.percpu_usage) when it is 0
     *   percent     = cpuDelta / systemDelta × onlineCPUs × 100      (0 unless both deltas are positive)
     * </pre>
     *
     * @return empty for a sample without previous counters (the stream's first: {@code precpu_stats} is empty,
     *     so a delta would be the container's whole life) or without CPU counters (a stopped container)
     */
    static OptionalDouble cpuPercentOfOneCpu(Statistics s) {
        CpuStatsConfig cpu = s.getCpuStats();
        CpuStatsConfig pre = s.getPreCpuStats();
        if (cpu == null
                || pre == null
                || cpu.getCpuUsage() == null
                || pre.getCpuUsage() == null
                || cpu.getSystemCpuUsage() == null
                || pre.getSystemCpuUsage() == null
                || value(pre.getSystemCpuUsage()) == 0
                || value(cpu.getCpuUsage().getTotalUsage()) == 0) {
            return OptionalDouble.empty();
        }
        double cpuDelta = (double) value(cpu.getCpuUsage().getTotalUsage())
                - value(pre.getCpuUsage().getTotalUsage());
        double systemDelta = (double) value(cpu.getSystemCpuUsage()) - value(pre.getSystemCpuUsage());
        double online = onlineCpus(cpu);
        if (systemDelta > 0 && cpuDelta > 0) {
            return OptionalDouble.of(cpuDelta / systemDelta * online * 100.0);
        }
        return OptionalDouble.of(0);
    }

    /**
     * How many CPUs the host has online for the container: {@code online_cpus}, or the length of
     * {@code percpu_usage} on engines that do not send it (docker/cli, as above); 0 when neither is known.
     */
    static int onlineCpus(CpuStatsConfig cpu) {
        long online = value(cpu.getOnlineCpus());
        if (online > 0) {
            return (int) online;
        }
        List<Long> per = cpu.getCpuUsage() == null ? null : cpu.getCpuUsage().getPercpuUsage();
        return per == null ? 0 : per.size();
    }

    /**
     * Memory used without the page cache the kernel can drop (docker/cli {@code calculateMemUsageUnixNoCache}):
     * on cgroup v1 {@code usage − stats.total_inactive_file}, on cgroup v2 {@code usage − stats.inactive_file};
     * plain {@code usage} when the subtrahend is not smaller. cgroup v1 is told by the presence of
     * {@code total_inactive_file}.
     *
     * @return bytes, or -1 when the sample has no memory figures (a stopped container)
     */
    static long memoryUsedBytes(Statistics s) {
        MemoryStatsConfig m = s.getMemoryStats();
        if (m == null || m.getUsage() == null) {
            return -1;
        }
        long usage = m.getUsage();
        StatsConfig st = m.getStats();
        if (st != null && st.getTotalInactiveFile() != null && st.getTotalInactiveFile() < usage) {
            return usage - st.getTotalInactiveFile();
        }
        if (st != null && st.getInactiveFile() != null && st.getInactiveFile() < usage) {
            return usage - st.getInactiveFile();
        }
        return usage;
    }

    /** The container's memory limit as the engine reports it ({@code memory_stats.limit}), in bytes; 0 if none. */
    static long memoryLimitBytes(Statistics s) {
        MemoryStatsConfig m = s.getMemoryStats();
        return m == null ? 0 : value(m.getLimit());
    }

    /**
     * One sample as {@link ContainerMetrics}.
     *
     * @param nanoCpus the container's CPU limit ({@code HostConfig.NanoCpus}), 0 for none
     * @return empty for a sample that has no CPU delta yet (the first) or no figures (a stopped container)
     */
    static java.util.Optional<ContainerMetrics> metrics(
            String sandboxId, String containerId, long nanoCpus, Statistics s, java.time.Instant at) {
        OptionalDouble oneCpu = cpuPercentOfOneCpu(s);
        long memory = memoryUsedBytes(s);
        if (oneCpu.isEmpty() || memory < 0) {
            return java.util.Optional.empty();
        }
        int online = Math.max(1, onlineCpus(s.getCpuStats()));
        double ofHost = oneCpu.getAsDouble() / online;
        double ofLimit = nanoCpus > 0 ? oneCpu.getAsDouble() / (nanoCpus / (double) ResourceLimits.ONE_CPU) : ofHost;
        return java.util.Optional.of(new ContainerMetrics(
                sandboxId, containerId, oneCpu.getAsDouble(), ofLimit, ofHost, memory, memoryLimitBytes(s), at, true));
    }

    private static long value(Long l) {
        return l == null ? 0 : l;
    }
}
