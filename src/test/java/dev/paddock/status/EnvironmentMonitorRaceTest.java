package dev.paddock.status;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.container.DockerEngine;
import dev.paddock.container.EngineWatch;
import dev.paddock.isolation.bubblewrap.BubblewrapProbe;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The environment snapshot keeps the Docker engine's first answer however the bubblewrap probe and the engine
 * check interleave: a probe that ends after the engine was found unreachable must not put back the "not checked
 * yet" it started with (the panel then said "checking…" for good, showed no banner and container sandboxes as
 * running, since the watch only reports changes).
 */
class EnvironmentMonitorRaceTest {
    @TempDir
    Path tmp;

    @Test
    void aSlowBubblewrapProbeDoesNotHideTheEnginesFirstAnswer() throws Exception {
        // The real bwrap, started 3 s late: the engine's first check (an address that refuses) ends meanwhile.
        Path slowBwrap = tmp.resolve("bwrap");
        Files.writeString(slowBwrap, "#!/bin/sh\nsleep 3\nexec bwrap \"$@\"\n");
        Files.setPosixFilePermissions(slowBwrap, PosixFilePermissions.fromString("rwx------"));
        EngineWatch watch =
                new EngineWatch(() -> new DockerEngine(Clock.systemUTC(), "unix://" + tmp.resolve("no.sock")));
        try (EnvironmentMonitor monitor = new EnvironmentMonitor(watch, new BubblewrapProbe(slowBwrap.toString()))) {
            monitor.start(Duration.ZERO);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (!monitor.snapshot().bubblewrap().installed() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            Thread.sleep(200);

            EnvironmentMonitor.Snapshot s = monitor.snapshot();
            assertThat(watch.state().status().checked())
                    .as("the engine was checked")
                    .isTrue();
            assertThat(s.bubblewrap().installed()).isTrue();
            assertThat(s.docker().checked())
                    .as("the snapshot keeps the engine's answer: %s", s.docker())
                    .isTrue();
            assertThat(s.docker().reachable()).isFalse();
            assertThat(s.engine().away()).isTrue();
        } finally {
            watch.close();
        }
    }
}
