package dev.paddock.merge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.events.Event;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.sandbox.Tier;
import dev.paddock.testing.TempRepo;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sandbox based on a branch other than the repository's base ({@code release/x} beside {@code main}) is merged
 * back into its own base: the queue compares it with, merges it into and moves {@code release/x}, never
 * {@code main} (docs/decisions/0005).
 */
class SandboxBaseMergeTest {
    @TempDir
    Path tmp;

    private MergeRig rig;
    private String releaseBefore;
    private String mainBefore;

    @BeforeEach
    void setUp() throws Exception {
        rig = new MergeRig(tmp);
        rig.repo.git("branch", "release/x", "main");
        Path rel = rig.repo.addWorktreeOnBranch(tmp.resolve("release-wt"), "release/x");
        TempRepo.write(rel, "RELEASE.md", "release notes\n");
        releaseBefore = TempRepo.commitAll(rel, "Release notes on release/x");
        rig.repo.removeWorktree(rel, false);
        mainBefore = rig.main();
    }

    @AfterEach
    void tearDown() {
        rig.close();
    }

    /** Branch {@code name} from {@code release/x} with one commit writing {@code file}. */
    private String fromRelease(String name, String file) {
        rig.repo.git("branch", name, "release/x");
        Path wt = rig.repo.addWorktreeOnBranch(tmp.resolve(name.replace('/', '-')), name);
        TempRepo.write(wt, file, "work on " + name + "\n");
        String tip = TempRepo.commitAll(wt, "edit " + file);
        rig.repo.removeWorktree(wt, false);
        return tip;
    }

    private String rev(String ref) {
        return rig.repo.git("rev-parse", ref).strip();
    }

    @Test
    void aCleanBranchIsMergedIntoTheSandboxsBaseWithoutATest() throws Exception {
        String tip = fromRelease("agent/rx", "fix.txt");
        SandboxRecords.done(rig, "rx-001", "agent/rx", "release/x", Tier.WORKTREE, false, null, null);

        assertThat(rig.queue.enqueueFinished()).isEqualTo(1);
        rig.drain();

        MergeEntry e =
                rig.store.openOf("rx-001").orElse(rig.store.list(rig.repoId, 10).get(0));
        assertThat(e.state()).as(e.attempt().result()).isEqualTo(MergeState.MERGED);
        assertThat(rev("main")).as("the repository's base is untouched").isEqualTo(mainBefore);
        assertThat(rig.repo
                        .git("rev-list", "--parents", "-n", "1", "release/x")
                        .strip()
                        .split(" "))
                .containsExactly(e.attempt().mergeCommit(), releaseBefore, tip);
        assertThat(e.attempt().result()).contains("merged into release/x");
        assertThat(rig.sandboxes.find("rx-001").orElseThrow().state()).isEqualTo(SandboxState.MERGED);
        assertThat(rig.recent()).extracting(Event::message).anyMatch(m -> m.contains("merge queue of release/x"));
    }

    @Test
    void aTestedBranchIsMergedIntoTheSandboxsBase() throws Exception {
        rig.settings("test -f RELEASE.md && test -f tested.txt", 60_000, 3);
        String tip = fromRelease("agent/rt", "tested.txt");
        SandboxRecords.done(rig, "rt-001", "agent/rt", "release/x", Tier.WORKTREE, false, null, null);

        assertThat(rig.queue.enqueueFinished()).isEqualTo(1);
        rig.drain();

        MergeEntry e = rig.store.list(rig.repoId, 10).get(0);
        assertThat(e.state()).as(e.attempt().result()).isEqualTo(MergeState.MERGED);
        assertThat(e.attempt().baseBefore()).isEqualTo(releaseBefore);
        assertThat(rev("main")).isEqualTo(mainBefore);
        assertThat(rig.repo
                        .git("rev-list", "--parents", "-n", "1", "release/x")
                        .strip()
                        .split(" "))
                .containsExactly(e.attempt().mergeCommit(), releaseBefore, tip);
    }

    @Test
    void aSandboxWithNothingNewForItsBaseIsNotEnqueued() throws Exception {
        rig.repo.git("branch", "agent/idle", "release/x"); // has release/x's commit, which main lacks
        SandboxRecords.done(rig, "idle-001", "agent/idle", "release/x", Tier.WORKTREE, false, null, null);

        assertThat(rig.queue.enqueueFinished()).isZero();
        assertThat(rev("main")).isEqualTo(mainBefore);
    }
}
