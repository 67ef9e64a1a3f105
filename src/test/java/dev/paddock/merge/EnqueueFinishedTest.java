package dev.paddock.merge;

import static org.assertj.core.api.Assertions.assertThat;

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
}
