package dev.paddock.container;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine watch against an address where no engine listens (no engine needed): back-off from 1 s doubling
 * to 30 s, the outage's start kept across checks, listeners told of a change once.
 */
class EngineWatchTest {
    @TempDir
    Path temp;

    @Test
    void thePauseDoublesFromOneSecondUpToHalfAMinute() {
        List<Long> pauses = new ArrayList<>();
        Duration d = EngineWatch.FIRST_RETRY;
        for (int i = 0; i < 8; i++) {
            pauses.add(d.toSeconds());
            d = EngineWatch.nextRetry(d);
        }
        assertThat(pauses).containsExactly(1L, 2L, 4L, 8L, 16L, 30L, 30L, 30L);
    }

    @Test
    void anEngineThatDoesNotAnswerIsAwaySinceTheFirstFailedCheckAndIsAskedAgainLaterEachTime() {
        String nowhere = "unix://" + temp.resolve("no-engine.sock");
        List<EngineWatch.State> told = new ArrayList<>();
        try (EngineWatch watch = new EngineWatch(() -> new DockerEngine(Clock.systemUTC(), nowhere))) {
            watch.addListener((before, now) -> told.add(now));
            assertThat(watch.state().away()).as("not checked yet is not away").isFalse();

            EngineWatch.State first = watch.checkNow();
            EngineWatch.State second = watch.checkNow();
            EngineWatch.State third = watch.checkNow();

            assertThat(first.away()).isTrue();
            assertThat(first.everReachable()).isFalse();
            assertThat(first.status().endpoint()).isEqualTo(nowhere);
            assertThat(first.awaySince()).isEqualTo(first.status().checkedAt());
            assertThat(third.awaySince()).isEqualTo(first.awaySince());
            assertThat(Duration.between(first.status().checkedAt(), first.nextCheckAt()))
                    .isEqualTo(Duration.ofSeconds(1));
            assertThat(Duration.between(second.status().checkedAt(), second.nextCheckAt()))
                    .isEqualTo(Duration.ofSeconds(2));
            assertThat(Duration.between(third.status().checkedAt(), third.nextCheckAt()))
                    .isEqualTo(Duration.ofSeconds(4));
            assertThat(told).as("one change: unknown → away").hasSize(1);
            assertThat(told.get(0).status().error()).isNotBlank();
        }
    }

    @Test
    void theWatchThreadIsANamedDaemon() throws Exception {
        String nowhere = "unix://" + temp.resolve("no-engine.sock");
        try (EngineWatch watch = new EngineWatch(() -> new DockerEngine(Clock.systemUTC(), nowhere))) {
            watch.start(Duration.ZERO);
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (!watch.state().away()) {
                assertThat(System.nanoTime()).isLessThan(deadline);
                Thread.sleep(20);
            }
            // Other tests' hosts in this JVM may still have their own watch thread: every one must be a daemon.
            assertThat(Thread.getAllStackTraces().keySet())
                    .filteredOn(t -> t.getName().equals("docker-engine-watch"))
                    .isNotEmpty()
                    .allSatisfy(t -> assertThat(t.isDaemon()).isTrue());
        }
    }
}
