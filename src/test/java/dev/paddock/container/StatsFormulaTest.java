package dev.paddock.container;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.model.Statistics;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The docker CLI's CPU and memory rules ({@link StatsFormula}) on samples of the engine's stats stream: three
 * recorded on this machine's engine (cgroup v1: a busy loop under {@code --cpus 0.5}, a container that wrote
 * 100 MiB to a bind-mounted folder, the stream's first sample) and one shaped like cgroup v2's (no
 * {@code total_*} keys, no {@code percpu_usage}). The expected figures are worked out from the numbers in each file.
 */
class StatsFormulaTest {
    private static final ObjectMapper MAPPER =
            new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    static Statistics sample(String name) throws IOException {
        try (InputStream in = StatsFormulaTest.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return MAPPER.readValue(in, Statistics.class);
        }
    }

    @Test
    void cpuOnCgroupV1IsTheCpuDeltaOverTheSystemDeltaTimesOnlineCpus() throws IOException {
        Statistics s = sample("stats-v1-busy-half-cpu.json");
        double expected = (2073517602.0 - 1573463259.0) / (44027420000000.0 - 44025430000000.0) * 2 * 100;

        assertThat(StatsFormula.cpuPercentOfOneCpu(s)).hasValueCloseTo(expected, within(1e-9));
        assertThat(expected).as("what docker stats printed for it: about 50 %%").isBetween(49.0, 51.0);
    }

    @Test
    void theFirstSampleOfAStreamHasNoPreviousCountersAndGivesNoCpuFigure() throws IOException {
        Statistics first = sample("stats-v1-first-sample.json");

        assertThat(StatsFormula.cpuPercentOfOneCpu(first)).isEmpty();
        assertThat(StatsFormula.metrics("s", "c", 500_000_000L, first, Instant.EPOCH))
                .isEmpty();
    }

    @Test
    void memoryOnCgroupV1LeavesOutTotalInactiveFile() throws IOException {
        Statistics s = sample("stats-v1-file-cache.json");

        assertThat(StatsFormula.memoryUsedBytes(s)).isEqualTo(108240896L - 104857600L);
        assertThat(s.getMemoryStats().getUsage())
                .as("the raw usage counts the 100 MiB file")
                .isGreaterThan(100L << 20);
    }

    @Test
    void onCgroupV2CpuUsesOnlineCpusAndMemoryLeavesOutInactiveFile() throws IOException {
        Statistics s = sample("stats-v2-file-cache.json");
        double oneCpu = (9250000000.0 - 8950000000.0) / (1200004000000000.0 - 1200000000000000.0) * 4 * 100;

        ContainerMetrics m = StatsFormula.metrics("fix-auth", "4f1c", 500_000_000L, s, Instant.EPOCH)
                .orElseThrow();

        assertThat(m.cpuPercentOfOneCpu()).isCloseTo(oneCpu, within(1e-9));
        assertThat(m.cpuPercentOfLimit()).as("of a 0.5-CPU limit").isCloseTo(oneCpu / 0.5, within(1e-9));
        assertThat(m.cpuPercentOfHost()).as("of 4 CPUs").isCloseTo(oneCpu / 4, within(1e-9));
        assertThat(m.memoryBytes()).isEqualTo(115343360L - 104857600L);
        assertThat(m.memoryLimitBytes()).isEqualTo(268435456L);
        assertThat(m.running()).isTrue();
    }

    @Test
    void withoutOnlineCpusTheNumberOfPerCpuCountersCounts() throws IOException {
        Statistics s = sample("stats-v1-busy-half-cpu.json");
        Statistics noOnline = MAPPER.readValue(
                MAPPER.writeValueAsString(s).replace("\"online_cpus\":2", "\"online_cpus\":0"), Statistics.class);

        assertThat(noOnline.getCpuStats().getOnlineCpus()).isZero();
        assertThat(StatsFormula.onlineCpus(noOnline.getCpuStats())).isEqualTo(2);
        assertThat(StatsFormula.cpuPercentOfOneCpu(noOnline))
                .hasValueCloseTo(StatsFormula.cpuPercentOfOneCpu(s).getAsDouble(), within(1e-9));
    }
}
