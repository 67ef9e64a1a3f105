package dev.paddock.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.events.Event;
import dev.paddock.events.EventKinds;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.sandbox.Tier;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The review gate before the merge queue: a repository whose review is required merges nothing unapproved. */
class ReviewGateTest {
    @TempDir
    Path tmp;

    MergeRig rig;

    @BeforeEach
    void setUp() throws Exception {
        rig = new MergeRig(tmp);
    }

    @AfterEach
    void tearDown() {
        rig.close();
    }

    @Test
    void requiredHoldsTheDoneSandboxReadyForReviewAndBaseMovesOnlyOnceApproved() throws Exception {
        rig.review(rig.repoId, ReviewMode.REQUIRED);
        String tip = rig.branch("agent/s1", "a.txt", "one\n");
        SandboxRecords.done(rig, "s1", "agent/s1", Tier.WORKTREE, false, null, null);
        String base = rig.main();

        assertThat(rig.queue.enqueueFinished()).isZero();
        assertThat(rig.sandboxes.find("s1").orElseThrow().state()).isEqualTo(SandboxState.REVIEW);
        assertThat(rig.store.openOf("s1")).isEmpty();
        assertThat(rig.recent().stream().map(Event::kind)).contains(EventKinds.REVIEW_READY);
        // Ticks after that change nothing: it waits for a person.
        assertThat(rig.queue.enqueueFinished()).isZero();
        rig.drain();
        assertThat(rig.main()).as("base unchanged until approved").isEqualTo(base);

        MergeEntry e = rig.service.enqueueSandbox("s1", "ann");
        assertThat(e.request().requestedBy()).isEqualTo("ann");
        assertThat(rig.sandboxes.find("s1").orElseThrow().state()).isEqualTo(SandboxState.MERGING);
        rig.drain();

        assertThat(rig.entry(e.id()).state()).isEqualTo(MergeState.MERGED);
        assertThat(rig.sandboxes.find("s1").orElseThrow().state()).isEqualTo(SandboxState.MERGED);
        assertThat(rig.repo.git("merge-base", "--is-ancestor", tip, "main")).isEmpty();
    }

    @Test
    void autoEnqueuesTheDoneSandboxAtOnceAsBefore() throws Exception {
        rig.review(rig.repoId, ReviewMode.AUTO);
        String tip = rig.branch("agent/s1", "a.txt", "one\n");
        SandboxRecords.done(rig, "s1", "agent/s1", Tier.WORKTREE, false, null, null);

        assertThat(rig.queue.enqueueFinished()).isEqualTo(1);
        rig.drain();

        assertThat(rig.sandboxes.find("s1").orElseThrow().state()).isEqualTo(SandboxState.MERGED);
        assertThat(rig.repo.git("merge-base", "--is-ancestor", tip, "main")).isEmpty();
    }

    @Test
    void aDoneSandboxWithNothingNewStaysDoneEvenWhenReviewIsRequired() throws Exception {
        rig.review(rig.repoId, ReviewMode.REQUIRED);
        rig.repo.git("branch", "agent/s1", "main");
        SandboxRecords.done(rig, "s1", "agent/s1", Tier.WORKTREE, false, null, null);

        assertThat(rig.queue.enqueueFinished()).isZero();
        assertThat(rig.sandboxes.find("s1").orElseThrow().state()).isEqualTo(SandboxState.DONE);
    }

    @Test
    void theSettingIsStoredSetByConfigureAndChecked() throws Exception {
        MergeSettings s = rig.service.configure(rig.repo.dir(), null, null, null, null, null, "required");
        assertThat(s.review()).isEqualTo(ReviewMode.REQUIRED);
        assertThat(rig.kinds()).contains(EventKinds.SETTING_CHANGED);
        assertThat(rig.service
                        .configure(rig.repo.dir(), null, null, null, null, null, "AUTO")
                        .review())
                .isEqualTo(ReviewMode.AUTO);
        assertThatThrownBy(() -> rig.service.configure(rig.repo.dir(), null, null, null, null, null, "sometimes"))
                .isInstanceOf(MergeException.class)
                .hasMessageContaining("use required");
        assertThat(rig.store.settings(rig.repoId).review()).isEqualTo(ReviewMode.AUTO);
    }

    @Test
    void aRepositoryRegisteredWithoutChoosingRequiresReview() throws Exception {
        long id = rig.db.jdbc().update("UPDATE repositories SET merge_review = DEFAULT WHERE id = ?", rig.repoId);
        assertThat(id).isEqualTo(1);
        assertThat(rig.store.settings(rig.repoId).review()).isEqualTo(ReviewMode.REQUIRED);
    }
}
