package dev.paddock.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.merge.conflict.ConflictReport;
import dev.paddock.testing.TempRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The merge queue on real repositories, a real store and real test commands. */
class MergeQueueTest {
    private static final String CODE = "class Calc {\n    int add(int a, int b) {\n        return a + b;\n    }\n\n"
            + "    int mul(int a, int b) {\n        return a * b;\n    }\n}\n";

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

    @Test
    void sameLineEditedByTwoAgentsMergesTheFirstAndSendsTheSecondToTheConflictQueue() throws Exception {
        String a = rig.branch("agent/a", "Calc.java", CODE.replace("return a + b;", "return b + a;"));
        rig.branch("agent/b", "Calc.java", CODE.replace("return a + b;", "return Math.addExact(a, b);"));
        String before = rig.main();
        MergeEntry ea = rig.enqueue("agent/a");
        MergeEntry eb = rig.enqueue("agent/b");

        rig.drain();

        MergeEntry doneA = rig.entry(ea.id());
        assertThat(doneA.state()).isEqualTo(MergeState.MERGED);
        assertThat(rig.main()).isEqualTo(doneA.attempt().mergeCommit());
        assertThat(rig.repo
                        .git("rev-list", "--parents", "-n", "1", "main")
                        .strip()
                        .split(" "))
                .containsExactly(doneA.attempt().mergeCommit(), before, a);
        MergeEntry conflictB = rig.entry(eb.id());
        assertThat(conflictB.state()).isEqualTo(MergeState.CONFLICT);
        assertThat(conflictB.attempt().result()).contains("Calc.java");
        assertThat(Files.isDirectory(conflictB.attempt().worktree()))
                .as("merge worktree kept for a person")
                .isTrue();
        assertThat(rig.store.conflicts(eb.id()))
                .extracting(MergeStore.StoredConflict::path, MergeStore.StoredConflict::kind)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("Calc.java", "content"));
        assertThat(rig.main())
                .as("base untouched by the conflict")
                .isEqualTo(doneA.attempt().mergeCommit());
        assertThat(rig.kinds()).contains("merge.merged", "merge.conflict");
    }

    @Test
    void editsOfDifferentFunctionsOfOneFileMergeClean() throws Exception {
        rig.branch("agent/a", "Calc.java", CODE.replace("return a + b;", "return b + a;"));
        rig.branch("agent/b", "Calc.java", CODE.replace("return a * b;", "return b * a;"));
        MergeEntry ea = rig.enqueue("agent/a");
        MergeEntry eb = rig.enqueue("agent/b");

        rig.drain();

        assertThat(rig.entry(ea.id()).state()).isEqualTo(MergeState.MERGED);
        assertThat(rig.entry(eb.id()).state()).isEqualTo(MergeState.MERGED);
        String merged = rig.repo.git("show", "main:Calc.java");
        assertThat(merged).contains("return b + a;", "return b * a;");
        assertThat(Files.readString(rig.repo.dir().resolve("Calc.java")))
                .as("main checkout follows")
                .isEqualTo(merged);
        assertThat(rig.repo.git("status", "--porcelain", "--untracked-files=no"))
                .isEmpty();
        assertThat(MergeGit.mergeRoot(rig.repo.dir()).toFile().list()).isNullOrEmpty();
    }

    @Test
    void aDirtyMainCheckoutIsRefusedNamingTheFilesAndNothingChanges() throws Exception {
        rig.branch("agent/a", "Calc.java", CODE.replace("return a + b;", "return b + a;"));
        Files.writeString(rig.repo.dir().resolve("README.md"), "my own unsaved notes\n");
        String before = rig.main();
        MergeEntry e = rig.enqueue("agent/a");

        assertThat(rig.queue.runNext(rig.repoId)).isFalse();

        MergeEntry after = rig.entry(e.id());
        assertThat(after.state()).isEqualTo(MergeState.QUEUED);
        assertThat(after.attempt().attempts()).isZero();
        assertThat(after.attempt().result()).contains("README.md", "uncommitted changes");
        assertThat(rig.main()).isEqualTo(before);
        assertThat(Files.readString(rig.repo.dir().resolve("README.md"))).isEqualTo("my own unsaved notes\n");
        assertThat(rig.kinds()).contains("merge.refused");

        rig.repo.git("checkout", "--", "README.md");
        rig.drain();
        assertThat(rig.entry(e.id()).state()).isEqualTo(MergeState.MERGED);
    }

    @Test
    void aHangingTestIsKilledAtItsTimeoutCountsAsAFailureAndLeavesBaseUntouched() throws Exception {
        rig.branch("agent/a", "Calc.java", CODE.replace("return a + b;", "return b + a;"));
        Path pidFile = tmp.resolve("test.pid");
        rig.settings("echo $$ > " + pidFile + "; sleep 300", 1000, 3);
        String before = rig.main();
        MergeEntry e = rig.enqueue("agent/a");

        assertThat(rig.queue.runNext(rig.repoId)).isTrue();

        MergeEntry after = rig.entry(e.id());
        assertThat(after.state()).isEqualTo(MergeState.QUEUED);
        assertThat(after.attempt().attempts()).isEqualTo(1);
        assertThat(after.attempt().lastTestPassed()).isFalse();
        assertThat(after.attempt().result()).contains("timeout");
        assertThat(rig.main()).isEqualTo(before);
        long pid = Long.parseLong(Files.readString(pidFile).strip());
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                .as("test shell killed")
                .isFalse();
        assertThat(Files.readString(after.attempt().testLog())).contains("killed after the timeout");
    }

    @Test
    void threeFailuresSendTheBranchToAPerson() throws Exception {
        rig.branch("agent/a", "Calc.java", CODE.replace("return a + b;", "return b + a;"));
        rig.settings("exit 3", 60_000, 3);
        String before = rig.main();
        MergeEntry e = rig.enqueue("agent/a");

        rig.drain();

        MergeEntry after = rig.entry(e.id());
        assertThat(after.state()).isEqualTo(MergeState.FAILED);
        assertThat(after.attempt().attempts()).isEqualTo(3);
        assertThat(after.attempt().result()).contains("exit code 3");
        assertThat(rig.main()).isEqualTo(before);
        assertThat(rig.kinds()).filteredOn("merge.failed"::equals).hasSize(3);

        rig.settings("true", 60_000, 3);
        rig.service.retry(e.id(), "tester");
        rig.drain();
        assertThat(rig.entry(e.id()).state()).isEqualTo(MergeState.MERGED);
    }

    @Test
    void entriesWhoseLastTestPassedGoFirst() throws Exception {
        rig.branch("agent/a", "a.txt", "a\n");
        rig.branch("agent/b", "b.txt", "b\n");
        MergeEntry ea = rig.enqueue("agent/a");
        MergeEntry eb = rig.enqueue("agent/b");
        rig.store.set(eb.id(), MergeChange.of(MergeChange.LAST_TEST_PASSED, true));
        rig.store.set(ea.id(), MergeChange.of(MergeChange.LAST_TEST_PASSED, false));

        assertThat(rig.store.next(rig.repoId).orElseThrow().id()).isEqualTo(eb.id());
        rig.queue.runNext(rig.repoId);
        assertThat(rig.entry(eb.id()).state()).isEqualTo(MergeState.MERGED);
        assertThat(rig.entry(ea.id()).state()).isEqualTo(MergeState.QUEUED);
    }

    @Test
    void resolvingEveryFileFinishesTheMergeWithTwoParents() throws Exception {
        rig.branch("agent/a", "Calc.java", CODE.replace("return a + b;", "return b + a;"));
        String b = rig.branch("agent/b", "Calc.java", CODE.replace("return a + b;", "return Math.addExact(a, b);"));
        rig.enqueue("agent/a");
        MergeEntry eb = rig.enqueue("agent/b");
        rig.drain();
        String baseBefore = rig.main();

        ConflictReport report = rig.resolution.conflicts(eb.id());
        assertThat(report.files()).extracting(f -> f.path()).containsExactly("Calc.java");
        assertThat(report.files().get(0).theirsText()).contains("Math.addExact");
        String resolved = CODE.replace("return a + b;", "return Math.addExact(b, a);");
        rig.resolution.markResolved(eb.id(), "Calc.java", resolved, "alice");

        MergeEntry after = rig.entry(eb.id());
        assertThat(after.state()).isEqualTo(MergeState.MERGED);
        assertThat(rig.repo.git("show", "main:Calc.java")).isEqualTo(resolved);
        assertThat(rig.repo
                        .git("rev-list", "--parents", "-n", "1", "main")
                        .strip()
                        .split(" "))
                .containsExactly(after.attempt().mergeCommit(), baseBefore, b);
        assertThat(rig.store.conflicts(eb.id()).get(0).resolvedBy()).isEqualTo("alice");
        assertThat(rig.recent())
                .anyMatch(ev ->
                        ev.kind().equals("merge.resolved") && ev.message().startsWith("alice resolved Calc.java"));
        assertThat(Files.exists(MergeGit.worktreeOf(rig.repo.dir(), eb.id()))).isFalse();
    }

    @Test
    void abortRestoresEverything() throws Exception {
        rig.branch("agent/a", "Calc.java", CODE.replace("return a + b;", "return b + a;"));
        rig.branch("agent/b", "Calc.java", CODE.replace("return a + b;", "return Math.addExact(a, b);"));
        rig.enqueue("agent/a");
        MergeEntry eb = rig.enqueue("agent/b");
        rig.drain();
        String base = rig.main();
        Path wt = rig.entry(eb.id()).attempt().worktree();

        rig.resolution.abort(eb.id(), "bob");

        assertThat(rig.main()).isEqualTo(base);
        assertThat(Files.exists(wt)).isFalse();
        assertThat(rig.repo.git("worktree", "list")).doesNotContain(".merge");
        MergeEntry after = rig.entry(eb.id());
        assertThat(after.state()).isEqualTo(MergeState.CONFLICT);
        assertThat(after.attempt().worktree()).isNull();
        assertThatThrownBy(() -> rig.resolution.markResolved(eb.id(), "Calc.java", "x", "bob"))
                .isInstanceOf(MergeException.class)
                .hasMessageContaining("aborted");
        assertThat(rig.kinds()).contains("merge.aborted");
    }

    @Test
    void cancelTakesAQueuedEntryOutAndBadInputIsRefusedClearly() throws Exception {
        rig.branch("agent/a", "a.txt", "a\n");
        MergeEntry e = rig.enqueue("agent/a");
        assertThat(rig.service.cancel(e.id(), "tester").state()).isEqualTo(MergeState.CANCELLED);
        assertThat(rig.queue.runNext(rig.repoId)).isFalse();
        assertThatThrownBy(() -> rig.service.cancel(e.id(), "tester")).hasMessageContaining("nothing to cancel");
        assertThatThrownBy(() -> rig.enqueue("no/such")).hasMessageContaining("no branch no/such");
        assertThatThrownBy(() -> rig.service.configure(rig.repo.dir(), "squash", null, null, null))
                .hasMessageContaining("use merge or rebase");
        assertThatThrownBy(() -> rig.service.get(999)).hasMessageContaining("no merge queue entry #999");
    }

    @Test
    void rebaseStrategyMergesARebasedCopyWithoutMovingTheAgentsBranch() throws Exception {
        String a = rig.branch("agent/a", "a.txt", "a\n");
        rig.repo.commitFile("base.txt", "base moved\n", "Base moves on");
        rig.service.configure(rig.repo.dir(), "rebase", null, null, null);
        MergeEntry e = rig.enqueue("agent/a");
        rig.drain();
        MergeEntry after = rig.entry(e.id());
        assertThat(after.state()).isEqualTo(MergeState.MERGED);
        assertThat(rig.repo.git("rev-parse", "agent/a").strip()).isEqualTo(a);
        List<String> parents = List.of(
                rig.repo.git("rev-list", "--parents", "-n", "1", "main").strip().split(" "));
        assertThat(parents).hasSize(3);
        assertThat(rig.repo.git("show", "main:a.txt")).isEqualTo("a\n");
        assertThat(TempRepo.git(rig.repo.dir(), "merge-base", "--is-ancestor", "main~1", parents.get(2)))
                .isEmpty();
    }

    @Test
    void theMergedTileCountsRealMergesOnly() throws Exception {
        rig.branch("agent/a", "a.txt", "a\n");
        rig.repo.git("branch", "agent/old", "main"); // nothing new: merged without a merge commit
        rig.enqueue("agent/a");
        MergeEntry old = rig.enqueue("agent/old");
        rig.drain();

        assertThat(rig.entry(old.id()).state()).isEqualTo(MergeState.MERGED);
        assertThat(rig.entry(old.id()).attempt().result()).startsWith("nothing to merge");
        assertThat(new dev.paddock.status.CountsQuery(rig.db, java.time.Clock.systemUTC())
                        .of(rig.repoId)
                        .merged24h())
                .isEqualTo(1);
    }

    @Test
    void aResolutionFinishedAfterBaseMovedOnIsRebuiltOnTheNewBase() throws Exception {
        rig.branch("agent/a", "Calc.java", CODE.replace("return a + b;", "return b + a;"));
        String b = rig.branch("agent/b", "Calc.java", CODE.replace("return a + b;", "return Math.addExact(a, b);"));
        rig.enqueue("agent/a");
        MergeEntry eb = rig.enqueue("agent/b");
        rig.drain();
        rig.branch("agent/c", "other.txt", "c\n");
        rig.enqueue("agent/c");
        rig.drain(); // the queue goes on while agent/b waits for a person
        String baseNow = rig.main();

        String resolved = CODE.replace("return a + b;", "return Math.addExact(b, a);");
        rig.resolution.markResolved(eb.id(), "Calc.java", resolved, "carol");

        MergeEntry after = rig.entry(eb.id());
        assertThat(after.state()).as(after.attempt().result()).isEqualTo(MergeState.MERGED);
        assertThat(rig.repo
                        .git("rev-list", "--parents", "-n", "1", "main")
                        .strip()
                        .split(" "))
                .containsExactly(after.attempt().mergeCommit(), baseNow, b);
        assertThat(rig.repo.git("show", "main:Calc.java")).isEqualTo(resolved);
        assertThat(rig.repo.git("show", "main:other.txt")).isEqualTo("c\n");
    }

    @Test
    void cancellingARunningEntryKillsItsTestAndLeavesBaseAlone() throws Exception {
        rig.branch("agent/a", "a.txt", "a\n");
        Path started = tmp.resolve("started");
        rig.settings("touch " + started + "; sleep 300", 120_000, 3);
        String before = rig.main();
        MergeEntry e = rig.enqueue("agent/a");
        Thread worker = new Thread(
                () -> {
                    try {
                        rig.queue.runNext(rig.repoId);
                    } catch (Exception ex) {
                        throw new IllegalStateException(ex);
                    }
                },
                "test-merge-worker");
        worker.start();
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!Files.exists(started) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(rig.service.cancel(e.id(), "dave").state()).isEqualTo(MergeState.RUNNING);
        worker.join(30_000);

        assertThat(worker.isAlive()).isFalse();
        assertThat(rig.entry(e.id()).state()).isEqualTo(MergeState.CANCELLED);
        assertThat(rig.entry(e.id()).attempt().attempts()).isZero();
        assertThat(rig.main()).isEqualTo(before);
        // Only the worktree the repository keeps between entries is left, cleaned at the next entry.
        assertThat(MergeGit.mergeRoot(rig.repo.dir()).toFile().list()).containsExactly("kept");
    }

    @Test
    void anUntrackedFileWhereTheMergeAddsOneIsNeverOverwritten() throws Exception {
        rig.branch("agent/a", "notes.txt", "from the agent\n");
        Files.writeString(rig.repo.dir().resolve("notes.txt"), "my own notes\n");
        String before = rig.main();
        MergeEntry e = rig.enqueue("agent/a");

        rig.drain();

        MergeEntry after = rig.entry(e.id());
        assertThat(after.state()).isEqualTo(MergeState.FAILED);
        assertThat(after.attempt().result()).contains("notes.txt", "never overwrites");
        assertThat(rig.main()).isEqualTo(before);
        assertThat(Files.readString(rig.repo.dir().resolve("notes.txt"))).isEqualTo("my own notes\n");
    }
}
