package dev.paddock.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.events.EventDraft;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Typed columns of {@link MergeStore}: what a {@link MergeChange} sets is what the row reads back (real H2). */
class MergeChangeTest {
    @TempDir
    Path tmp;

    MergeRig rig;
    MergeEntry e;

    @BeforeEach
    void setUp() throws Exception {
        rig = new MergeRig(tmp);
        rig.repo.commitFile("a.txt", "a\n", "Add a");
        rig.branch("agent/a", "a.txt", "b\n");
        e = rig.enqueue("agent/a");
    }

    @AfterEach
    void tearDown() {
        rig.close();
    }

    @Test
    void typedValuesAreStoredAsTheRowMapperAndTheReviewReadThem() throws Exception {
        Path wt = tmp.resolve("wt");
        Instant at = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        rig.store.set(
                e.id(),
                MergeChange.of(MergeChange.STEP, MergeStep.TESTING)
                        .set(MergeChange.WORKTREE, wt)
                        .set(MergeChange.STRATEGY, MergeStrategy.REBASE)
                        .set(MergeChange.LAST_TEST_PASSED, true)
                        .set(MergeChange.TEST_PID, 4242L)
                        .set(MergeChange.TEST_PID_STARTED_AT, at)
                        .set(MergeChange.REVIEW_COMMIT, "abc1234")
                        .set(MergeChange.REVIEW_FILES, List.of(".paddock/x", ".claude/y")));

        MergeEntry read = rig.entry(e.id());
        assertThat(read.step()).isEqualTo(MergeStep.TESTING);
        assertThat(read.attempt().worktree()).isEqualTo(wt);
        assertThat(read.request().strategy()).isEqualTo(MergeStrategy.REBASE);
        assertThat(read.attempt().lastTestPassed()).isTrue();
        assertThat(read.testRun().pid()).isEqualTo(4242L);
        assertThat(read.testRun().startedAt()).isEqualTo(at);
        assertThat(rig.store.review(e.id()).orElseThrow().files()).containsExactly(".paddock/x", ".claude/y");

        rig.store.set(e.id(), MergeChange.of(MergeChange.WORKTREE, null).set(MergeChange.STEP, null));
        assertThat(rig.entry(e.id()).attempt().worktree()).isNull();
        assertThat(rig.entry(e.id()).step()).isNull();
    }

    @Test
    void aChangeWithoutColumnsIsRefusedAndWritesNothing() throws Exception {
        assertThatThrownBy(() -> rig.store.set(e.id(), MergeChange.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> rig.store.update(
                        e.id(),
                        MergeChange.of(),
                        List.of(EventDraft.of(rig.repoId, null, "merge.testing", "never written", Map.of()))))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(rig.entry(e.id())).isEqualTo(e);
        assertThat(rig.recent()).noneMatch(ev -> ev.message().equals("never written"));
    }

    @Test
    void aMoveOutOfRunningStampsWhenItLeftWithTheFinishInstant() throws Exception {
        assertThat(rig.store.move(
                        e.id(),
                        MergeState.QUEUED,
                        MergeState.RUNNING,
                        MergeChange.of(MergeChange.STEP, MergeStep.UPDATING).set(MergeChange.STARTED_AT, Instant.now()),
                        null))
                .isTrue();
        Instant done = Instant.now().plusSeconds(5).truncatedTo(ChronoUnit.MILLIS);

        assertThat(rig.store.move(
                        e.id(),
                        MergeState.RUNNING,
                        MergeState.FAILED,
                        MergeChange.of()
                                .clearAttempt()
                                .set(MergeChange.FINISHED_AT, done)
                                .set(MergeChange.RESULT, "gave up"),
                        null))
                .isTrue();

        MergeEntry after = rig.entry(e.id());
        assertThat(after.state()).isEqualTo(MergeState.FAILED);
        assertThat(after.attempt().stepStartedAt())
                .isEqualTo(done)
                .isEqualTo(after.attempt().finishedAt());
        assertThat(after.attempt().result()).isEqualTo("gave up");
        assertThat(rig.store.move(
                        e.id(),
                        MergeState.RUNNING,
                        MergeState.QUEUED,
                        MergeChange.of(MergeChange.RESULT, "not running"),
                        null))
                .as("compare-and-set on the state")
                .isFalse();
        assertThat(rig.entry(e.id()).attempt().result()).isEqualTo("gave up");
    }
}
