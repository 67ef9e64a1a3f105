package dev.paddock.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.sandbox.SandboxState;
import dev.paddock.sandbox.Tier;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which finished sandboxes the merge queue takes on its own. */
class EnqueueFinishedTest {
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
    void aDoneSandboxWithANewCommitIsTaken() throws Exception {
        rig.branch("agent/s1", "a.txt", "one\n");
        SandboxRecords.done(rig, "s1", "agent/s1", Tier.WORKTREE, false, null, null);

        assertThat(rig.queue.enqueueFinished()).isEqualTo(1);
        assertThat(rig.sandboxes.find("s1").orElseThrow().state()).isEqualTo(SandboxState.MERGING);
    }

    @Test
    void aDoneSandboxWhoseAgentWaitsForYouStaysUntilAPersonEnqueuesIt() throws Exception {
        // Its agent's turn ended (Claude Code's Stop hook): the person may answer with a follow-up that goes on in
        // the same worktree, so merging its branch now would take work the person has not seen through.
        rig.branch("agent/s1", "a.txt", "one\n");
        SandboxRecords.done(rig, "s1", "agent/s1", Tier.WORKTREE, false, null, null);
        rig.db
                .jdbc()
                .update(
                        "INSERT INTO sandbox_waiting (sandbox_id, kind, run, since, session_id, detail,"
                                + " signal_key) VALUES ('s1', 'turn_ended', ?, CURRENT_TIMESTAMP, 'session', 'Done.', 'k')",
                        rig.sandboxes.find("s1").orElseThrow().run().iteration());
        assertThat(rig.sandboxes.turns().waiting("s1")).isPresent();

        assertThat(rig.queue.enqueueFinished()).isZero();
        assertThat(rig.sandboxes.find("s1").orElseThrow().state()).isEqualTo(SandboxState.DONE);
        assertThat(rig.store.openOf("s1")).isEmpty();

        rig.service.enqueueSandbox("s1", "ann");
        assertThat(rig.sandboxes.find("s1").orElseThrow().state()).isEqualTo(SandboxState.MERGING);
        assertThat(rig.sandboxes.turns().waiting("s1"))
                .as("the wait ends as the queue takes it")
                .isEmpty();
    }

    @Test
    void aSandboxBeingRemovedIsLeftAloneThoughItsBranchGotACommit() throws Exception {
        // What "commit and remove" does: it commits the leftovers of a done sandbox, then removes it. The commit
        // is kept on the branch; the merge queue must not take it meanwhile.
        rig.branch("agent/s1", "a.txt", "left over\n");
        SandboxRecords.done(rig, "s1", "agent/s1", Tier.WORKTREE, false, null, null);
        assertThat(rig.sandboxes.claimRemoval("s1")).isTrue();

        assertThat(rig.queue.enqueueFinished()).isZero();
        assertThat(rig.sandboxes.find("s1").orElseThrow().state()).isEqualTo(SandboxState.DONE);
        assertThat(rig.store.openOf("s1")).isEmpty();

        rig.sandboxes.releaseRemoval("s1");
        assertThat(rig.queue.enqueueFinished()).isEqualTo(1);
    }

    @Test
    void aRepositoryWhoseWorkIsPushedKeepsItsDoneSandboxesOutOfTheQueue() throws Exception {
        // Merge target push: approved work goes to a remote as its branch; base here is never merged into.
        rig.branch("agent/s1", "a.txt", "one\n");
        SandboxRecords.done(rig, "s1", "agent/s1", Tier.WORKTREE, false, null, null);
        rig.service.configureTarget(rig.repo.dir(), "push", "upstream", true);

        assertThat(rig.queue.enqueueFinished()).isZero();
        assertThat(rig.sandboxes.find("s1").orElseThrow().state()).isEqualTo(SandboxState.DONE);
        assertThat(rig.store.openOf("s1")).isEmpty();
        assertThatThrownBy(() -> rig.service.enqueueSandbox("s1", "ann"))
                .isInstanceOfSatisfying(
                        MergeException.class, e -> assertThat(e.kind()).isEqualTo(MergeException.Kind.CONFLICT))
                .hasMessageContaining("pushed to a remote (merge target push)")
                .hasMessageContaining("paddock sandbox push s1");
        assertThat(rig.store.openOf("s1")).isEmpty();

        rig.service.configureTarget(rig.repo.dir(), "local", null, null);
        assertThat(rig.queue.enqueueFinished()).isEqualTo(1);
    }
}
