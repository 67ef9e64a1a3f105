package dev.paddock.merge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.repo.RepoRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What one {@link MergeAttempt} returns for each way it can end, and that the entry and base say the same: real
 * repositories, a real store, the attempt run on this thread.
 */
class AttemptOutcomeTest {
    private static final String CODE = "class Calc {\n    int add(int a, int b) {\n        return a + b;\n    }\n}\n";

    @TempDir
    Path tmp;

    MergeRig rig;

    @BeforeEach
    void setUp() throws Exception {
        rig = new MergeRig(tmp);
        rig.repo.commitFile("Calc.java", CODE, "Add Calc");
    }

    @AfterEach
    void tearDown() {
        rig.close();
    }

    /** One attempt at the next queued entry, as the queue makes it when it does not know the checkout yet. */
    private AttemptOutcome attempt(MergeEntry e) throws Exception {
        RepoRecord repo = rig.queue.repos().find(rig.repoId).orElseThrow();
        return new MergeAttempt(rig.queue, repo, rig.entry(e.id()), null, null, null).run();
    }

    @Test
    void aCleanBranchIsMergedWithTheCommitBaseMovedTo() throws Exception {
        rig.branch("agent/a", "Calc.java", CODE.replace("a + b", "b + a"));
        MergeEntry e = rig.enqueue("agent/a");

        AttemptOutcome o = attempt(e);

        assertThat(o).isInstanceOf(AttemptOutcome.Merged.class);
        assertThat(o.isSuccessful()).isTrue();
        AttemptOutcome.Merged merged = (AttemptOutcome.Merged) o;
        assertThat(merged.commit())
                .isEqualTo(rig.main())
                .isEqualTo(rig.entry(e.id()).attempt().mergeCommit());
        assertThat(rig.entry(e.id()).state()).isEqualTo(MergeState.MERGED);
        assertThat(merged.result()).isEqualTo(rig.entry(e.id()).attempt().result());
    }

    @Test
    void aBranchAlreadyInBaseIsMergedWithoutMovingBase() throws Exception {
        rig.branch("agent/a", "Calc.java", CODE.replace("a + b", "b + a"));
        rig.repo.git("merge", "--ff-only", "agent/a");
        String before = rig.main();
        MergeEntry e = rig.enqueue("agent/a");

        AttemptOutcome o = attempt(e);

        assertThat(o).isEqualTo(new AttemptOutcome.Merged(null, "nothing to merge: agent/a is already in main"));
        assertThat(rig.main()).isEqualTo(before);
        assertThat(rig.entry(e.id()).state()).isEqualTo(MergeState.MERGED);
    }

    @Test
    void aConflictNamesItsFilesAndLeavesBaseAsItWas() throws Exception {
        rig.branch("agent/a", "Calc.java", CODE.replace("a + b", "b + a"));
        rig.branch("agent/b", "Calc.java", CODE.replace("a + b", "Math.addExact(a, b)"));
        MergeEntry ea = rig.enqueue("agent/a");
        MergeEntry eb = rig.enqueue("agent/b");
        assertThat(attempt(ea)).isInstanceOf(AttemptOutcome.Merged.class);
        String before = rig.main();

        AttemptOutcome o = attempt(eb);

        assertThat(o).isEqualTo(new AttemptOutcome.Conflicted(List.of("Calc.java"), null));
        assertThat(o.isSuccessful()).isFalse();
        assertThat(rig.main()).isEqualTo(before);
        MergeEntry after = rig.entry(eb.id());
        assertThat(after.state()).isEqualTo(MergeState.CONFLICT);
        assertThat(Files.isDirectory(after.attempt().worktree()))
                .as("the merge worktree is kept for a person")
                .isTrue();
    }

    @Test
    void aFailingTestIsTestsFailedCountedAndBaseStays() throws Exception {
        rig.branch("agent/a", "Calc.java", CODE.replace("a + b", "b + a"));
        rig.settings("echo broken; exit 3", 60_000, 3);
        String before = rig.main();
        MergeEntry e = rig.enqueue("agent/a");

        AttemptOutcome o = attempt(e);

        assertThat(o).isInstanceOf(AttemptOutcome.TestsFailed.class);
        assertThat(((AttemptOutcome.TestsFailed) o).reason())
                .contains("3")
                .isEqualTo(rig.entry(e.id()).attempt().result());
        assertThat(rig.main()).isEqualTo(before);
        MergeEntry after = rig.entry(e.id());
        assertThat(after.state()).isEqualTo(MergeState.QUEUED);
        assertThat(after.attempt().attempts()).isEqualTo(1);
        assertThat(after.attempt().lastTestPassed()).isFalse();
        assertThat(MergeGit.worktreeOf(rig.repo.dir(), e.id())).doesNotExist();
    }

    @Test
    void aCancelRequestEndsTheAttemptCancelledBeforeItsTests() throws Exception {
        rig.branch("agent/a", "Calc.java", CODE.replace("a + b", "b + a"));
        Path ran = tmp.resolve("tests-ran");
        rig.settings("touch '" + ran + "'", 60_000, 3);
        String before = rig.main();
        MergeEntry e = rig.enqueue("agent/a");
        rig.queue.requestCancel(e.id());

        AttemptOutcome o = attempt(e);

        assertThat(o).isEqualTo(new AttemptOutcome.Cancelled());
        assertThat(ran).as("the test command never ran").doesNotExist();
        assertThat(rig.main()).isEqualTo(before);
        MergeEntry after = rig.entry(e.id());
        assertThat(after.state()).isEqualTo(MergeState.CANCELLED);
        assertThat(after.attempt().attempts()).isZero();
        assertThat(rig.queue.cancelRequested(e.id()))
                .as("the request is used up")
                .isFalse();
    }

    @Test
    void aBranchThatVanishedFailsAndCounts() throws Exception {
        rig.branch("agent/a", "Calc.java", CODE.replace("a + b", "b + a"));
        MergeEntry e = rig.enqueue("agent/a");
        rig.repo.git(
                "worktree",
                "remove",
                "--force",
                rig.repo.dir().resolve(".worktrees").resolve("agent-a").toString());
        rig.repo.git("branch", "-D", "agent/a");

        AttemptOutcome o = attempt(e);

        assertThat(o).isEqualTo(new AttemptOutcome.Failed("the branch agent/a does not exist", true));
        MergeEntry after = rig.entry(e.id());
        assertThat(after.state()).isEqualTo(MergeState.QUEUED);
        assertThat(after.attempt().attempts()).isEqualTo(1);
    }

    @Test
    void aDirtyCheckoutFoundBeforeBaseMovesFailsWithoutCountingAndTouchesNothing() throws Exception {
        rig.branch("agent/a", "Calc.java", CODE.replace("a + b", "b + a"));
        String before = rig.main();
        MergeEntry e = rig.enqueue("agent/a");
        Files.writeString(rig.repo.dir().resolve("Calc.java"), "my own unsaved edit\n");

        AttemptOutcome o = attempt(e);

        assertThat(o).isInstanceOf(AttemptOutcome.Failed.class);
        AttemptOutcome.Failed failed = (AttemptOutcome.Failed) o;
        assertThat(failed.counts()).isFalse();
        assertThat(failed.reason()).contains("uncommitted changes", "Calc.java");
        assertThat(rig.main()).isEqualTo(before);
        assertThat(Files.readString(rig.repo.dir().resolve("Calc.java"))).isEqualTo("my own unsaved edit\n");
        MergeEntry after = rig.entry(e.id());
        assertThat(after.state()).isEqualTo(MergeState.QUEUED);
        assertThat(after.attempt().attempts()).isZero();
        assertThat(after.attempt().mergeCommit()).as("the candidate is dropped").isNull();
        assertThat(after.attempt().mainTreePending()).isFalse();
    }

    @Test
    void aPolicyChangeIsHeldForReviewNamingItsFiles() throws Exception {
        rig.branch("agent/p", ".paddock/policy.json", "{\"permissions\": {\"allow\": [\"Bash\"]}}\n");
        String before = rig.main();
        MergeEntry e = rig.enqueue("agent/p");

        AttemptOutcome o = attempt(e);

        assertThat(o).isEqualTo(new AttemptOutcome.HeldForReview(List.of(".paddock/policy.json")));
        assertThat(rig.entry(e.id()).state()).isEqualTo(MergeState.POLICY_REVIEW);
        assertThat(rig.main()).isEqualTo(before);
    }

    @Test
    void anEntryCancelledBeforeItsAttemptIsNotStarted() throws Exception {
        rig.branch("agent/a", "Calc.java", CODE.replace("a + b", "b + a"));
        MergeEntry e = rig.enqueue("agent/a");
        rig.service.cancel(e.id(), "tester");

        AttemptOutcome o = attempt(e);

        assertThat(o).isInstanceOf(AttemptOutcome.NotStarted.class);
        assertThat(rig.entry(e.id()).state()).isEqualTo(MergeState.CANCELLED);
    }

    @Test
    void finishingAResolvedMergeWhoseTestFailsGoesBackToTheConflictQueue() throws Exception {
        rig.branch("agent/a", "Calc.java", CODE.replace("a + b", "b + a"));
        rig.branch("agent/b", "Calc.java", CODE.replace("a + b", "Math.addExact(a, b)"));
        MergeEntry ea = rig.enqueue("agent/a");
        MergeEntry eb = rig.enqueue("agent/b");
        attempt(ea);
        attempt(eb);
        rig.settings("exit 4", 60_000, 3);
        Files.writeString(
                rig.entry(eb.id()).attempt().worktree().resolve("Calc.java"),
                CODE.replace("a + b", "Math.addExact(b, a)"));
        rig.store.resolve(
                eb.id(),
                "Calc.java",
                "edited",
                "tester",
                MergeQueue.event(rig.entry(eb.id()), "merge.resolved", "resolved"));
        rig.repo.git("-C", rig.entry(eb.id()).attempt().worktree().toString(), "add", "Calc.java");
        String before = rig.main();
        RepoRecord repo = rig.queue.repos().find(rig.repoId).orElseThrow();

        AttemptOutcome o = new MergeAttempt(rig.queue, repo, rig.entry(eb.id()), null, null, null).completeResolved();

        assertThat(o).isInstanceOf(AttemptOutcome.Conflicted.class);
        AttemptOutcome.Conflicted back = (AttemptOutcome.Conflicted) o;
        assertThat(back.paths()).containsExactly("Calc.java");
        assertThat(back.reason())
                .isEqualTo(rig.entry(eb.id()).attempt().result())
                .contains("4");
        assertThat(rig.entry(eb.id()).state()).isEqualTo(MergeState.CONFLICT);
        assertThat(rig.main()).isEqualTo(before);
    }
}
