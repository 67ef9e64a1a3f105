package dev.paddock.merge;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link MergeEntry#elapsed}, {@link MergeEntry#attemptsMade()} and {@link MergeEntry#waitingSince()}: first on
 * entries as the store maps them (hand-made instants), then through a real queue and store, where the time a
 * conflicted, failed or merged entry ran must stop growing once it left running.
 */
class MergeEntryElapsedTest {
    private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

    @TempDir
    Path tmp;

    private static MergeEntry entry(
            MergeState state, MergeStep step, int attempts, Instant started, Instant stepAt, Instant finished) {
        return MergeEntry.builder()
                .id(1)
                .repositoryId(1)
                .sandboxId("sb-1")
                .branch("agent/a")
                .state(state)
                .step(step)
                .attempts(attempts)
                .strategy(MergeStrategy.MERGE)
                .requestedBy("tester")
                .enqueuedAt(T0)
                .startedAt(started)
                .stepStartedAt(stepAt)
                .finishedAt(finished)
                .build();
    }

    @Test
    void aRunningEntryCountsUpToNowInAllAndInItsStep() {
        MergeEntry e = entry(MergeState.RUNNING, MergeStep.TESTING, 1, T0.plusSeconds(10), T0.plusSeconds(14), null);

        assertThat(e.elapsed(T0.plusSeconds(25))).isEqualTo(Duration.ofSeconds(15));
        assertThat(e.stepElapsed(T0.plusSeconds(25))).isEqualTo(Duration.ofSeconds(11));
        assertThat(e.attemptsMade()).as("one failed, this one under way").isEqualTo(2);
    }

    @Test
    void aConflictedEntryStopsAtTheMomentItLeftRunningThoughItHasNoFinishedTime() {
        MergeEntry e = entry(MergeState.CONFLICT, null, 0, T0.plusSeconds(10), T0.plusSeconds(13), null);

        assertThat(e.elapsed(T0.plusSeconds(500))).isEqualTo(Duration.ofSeconds(3));
        assertThat(e.elapsed(T0.plusSeconds(5000))).isEqualTo(Duration.ofSeconds(3));
        assertThat(e.stepElapsed(T0.plusSeconds(500))).isNull();
        assertThat(e.attemptsMade()).isEqualTo(1);
    }

    @Test
    void finishedEntriesCountFromStartToFinish() {
        MergeEntry merged =
                entry(MergeState.MERGED, null, 0, T0.plusSeconds(10), T0.plusSeconds(70), T0.plusSeconds(70));
        MergeEntry failed =
                entry(MergeState.FAILED, null, 3, T0.plusSeconds(10), T0.plusSeconds(12), T0.plusSeconds(12));

        assertThat(merged.elapsed(T0.plusSeconds(9999))).isEqualTo(Duration.ofSeconds(60));
        assertThat(merged.attemptsMade()).as("the attempt that merged").isEqualTo(1);
        assertThat(failed.elapsed(T0.plusSeconds(9999))).isEqualTo(Duration.ofSeconds(2));
        assertThat(failed.attemptsMade()).isEqualTo(3);
    }

    @Test
    void cancelledWhileRunningCountsItsAttemptAndCancelledWhileQueuedDoesNot() {
        Instant left = T0.plusSeconds(40);
        MergeEntry whileRunning = entry(MergeState.CANCELLED, null, 0, T0.plusSeconds(10), left, left);
        MergeEntry whileQueued =
                entry(MergeState.CANCELLED, null, 1, T0.plusSeconds(10), T0.plusSeconds(20), T0.plusSeconds(300));
        MergeEntry neverRan = entry(MergeState.CANCELLED, null, 0, null, null, T0.plusSeconds(5));

        assertThat(whileRunning.elapsed(T0.plusSeconds(999))).isEqualTo(Duration.ofSeconds(30));
        assertThat(whileRunning.attemptsMade()).isEqualTo(1);
        assertThat(whileQueued.elapsed(T0.plusSeconds(999)))
                .as("its last attempt, not the wait after it")
                .isEqualTo(Duration.ofSeconds(10));
        assertThat(whileQueued.attemptsMade()).isEqualTo(1);
        assertThat(neverRan.elapsed(T0.plusSeconds(999))).isNull();
        assertThat(neverRan.attemptsMade()).isZero();
    }

    @Test
    void aQueuedEntryHasNoElapsedButWaitsSinceItWentBackInTheQueue() {
        MergeEntry fresh = entry(MergeState.QUEUED, null, 0, null, null, null);
        MergeEntry back = entry(MergeState.QUEUED, null, 1, T0.plusSeconds(10), T0.plusSeconds(20), null);

        assertThat(fresh.elapsed(T0.plusSeconds(60))).isNull();
        assertThat(fresh.waitingSince()).isEqualTo(T0);
        assertThat(back.elapsed(T0.plusSeconds(60))).isNull();
        assertThat(back.waitingSince()).isEqualTo(T0.plusSeconds(20));
        assertThat(back.attemptsMade()).isEqualTo(1);
    }

    @Test
    void throughARealQueueTheTimeStopsWhenTheEntryLeavesRunning() throws Exception {
        String code = "a\nb\nc\n";
        try (MergeRig rig = new MergeRig(tmp)) {
            rig.repo.commitFile("f.txt", code, "Add f");
            rig.branch("agent/a", "f.txt", "A\nb\nc\n");
            rig.branch("agent/b", "f.txt", "X\nb\nc\n");
            rig.settings("sleep 0.3; test ! -e fail-me", 60_000, 3);
            MergeEntry a = rig.enqueue("agent/a");
            MergeEntry b = rig.enqueue("agent/b");
            rig.drain();

            MergeEntry merged = rig.entry(a.id());
            MergeEntry conflict = rig.entry(b.id());
            assertThat(merged.state()).isEqualTo(MergeState.MERGED);
            assertThat(conflict.state()).isEqualTo(MergeState.CONFLICT);
            assertThat(merged.attemptsMade()).isEqualTo(1);
            assertThat(merged.elapsed(Instant.now())).isGreaterThanOrEqualTo(Duration.ofMillis(300));
            assertThat(merged.attempt().stepStartedAt())
                    .as("left running when it finished")
                    .isEqualTo(merged.attempt().finishedAt());
            Duration conflictTime = conflict.elapsed(Instant.now());
            assertThat(conflictTime).isNotNull();
            Thread.sleep(1200);
            assertThat(rig.entry(b.id()).elapsed(Instant.now()))
                    .as("no longer counting")
                    .isEqualTo(conflictTime);

            rig.service.cancel(b.id(), "tester");
            MergeEntry cancelled = rig.entry(b.id());
            assertThat(cancelled.elapsed(Instant.now()))
                    .as("still the attempt's length")
                    .isEqualTo(conflictTime);

            rig.branch("agent/c", "fail-me", "the test command fails where this file is\n");
            rig.settings("sleep 0.3; test ! -e fail-me", 60_000, 2);
            MergeEntry c = rig.enqueue("agent/c");
            rig.drain();
            MergeEntry failed = rig.entry(c.id());
            assertThat(failed.state()).isEqualTo(MergeState.FAILED);
            assertThat(failed.attemptsMade()).isEqualTo(2);
            Duration failedTime = failed.elapsed(Instant.now());
            assertThat(failedTime)
                    .isGreaterThanOrEqualTo(Duration.ofMillis(300))
                    .isLessThan(Duration.ofSeconds(60));
            Thread.sleep(1100);
            assertThat(rig.entry(c.id()).elapsed(Instant.now())).isEqualTo(failedTime);
        }
    }
}
