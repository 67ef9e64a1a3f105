package dev.paddock.isolation.container;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.container.EngineEntry;
import dev.paddock.container.EngineLoad;
import dev.paddock.container.EngineReport;
import dev.paddock.container.EngineStatus;
import dev.paddock.container.ResourceLimits;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The rule of {@link ContainerEngines#best}: engines that answer, where the limits fit first, then most room. */
class PlacementTest {
    private static final long GIB = 1024L * ResourceLimits.MIB;

    private static EngineReport report(String name, int cpus, long memGib, double heldCpus, long heldGib) {
        EngineEntry e = new EngineEntry(name, "tcp://" + name + ":2376", null, null, Map.of());
        return new EngineReport(
                e,
                new EngineStatus(true, e.host(), "27.0", null, Instant.now()),
                new EngineLoad(
                        "27.0", cpus, memGib * GIB, 1, (long) (heldCpus * ResourceLimits.ONE_CPU), heldGib * GIB));
    }

    private static EngineReport down(String name) {
        EngineEntry e = new EngineEntry(name, "tcp://" + name + ":2376", null, null, Map.of());
        return new EngineReport(e, new EngineStatus(false, e.host(), null, "refused", Instant.now()), null);
    }

    private static String best(ResourceLimits limits, EngineReport... reports) {
        return ContainerEngines.best(List.of(reports), limits)
                .map(r -> r.entry().name())
                .orElse(null);
    }

    @Test
    void theEngineWithTheMostRoomAfterTheLimitsWins() {
        ResourceLimits two = ResourceLimits.DEFAULTS; // 2 CPUs, 4 GiB
        assertThat(best(two, report("small", 4, 8, 0, 0), report("big", 32, 64, 8, 16)))
                .isEqualTo("big");
        // Room is the scarcer resource: many CPUs do not make up for memory nearly gone.
        assertThat(best(two, report("cpus", 64, 16, 0, 11), report("even", 8, 16, 2, 4)))
                .isEqualTo("even");
    }

    @Test
    void whereTheLimitsFitComesFirstAndAFullEngineIsOnlyTheLastChoice() {
        ResourceLimits big = ResourceLimits.DEFAULTS.withMemoryBytes(12 * GIB);
        assertThat(best(big, report("roomy-cpu", 64, 8, 0, 0), report("fits", 4, 16, 3, 2)))
                .as("only 'fits' can hold 12 GiB")
                .isEqualTo("fits");
        assertThat(best(big, report("full", 8, 16, 8, 16), report("fuller", 8, 16, 8, 20)))
                .isEqualTo("full");
    }

    @Test
    void anEngineThatDoesNotAnswerIsNeverChosen() {
        assertThat(best(ResourceLimits.DEFAULTS, down("gone"), report("full", 2, 2, 2, 2)))
                .isEqualTo("full");
        assertThat(best(ResourceLimits.DEFAULTS, down("gone"))).isNull();
    }

    @Test
    void sandboxesPlacedAMomentAgoCountBeforeTheirContainersRun() {
        Instant now = Instant.now();
        ResourceLimits two = ResourceLimits.DEFAULTS;
        List<EngineReport> equal = List.of(report("a", 8, 16, 0, 0), report("b", 8, 16, 0, 0));
        List<ContainerEngines.Placed> placed = List.of(new ContainerEngines.Placed("a", two, now.minusSeconds(5)));
        assertThat(ContainerEngines.best(ContainerEngines.withPlaced(equal, placed, now), two)
                        .map(r -> r.entry().name()))
                .contains("b");
        List<ContainerEngines.Placed> old = List.of(new ContainerEngines.Placed("b", two, now.minusSeconds(60)));
        assertThat(ContainerEngines.withPlaced(equal, old, now).get(1).load().heldNanoCpus())
                .as("older than PLACED_FOR: its container runs (and is counted) by now")
                .isZero();
    }
}
