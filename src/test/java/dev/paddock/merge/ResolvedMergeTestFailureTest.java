package dev.paddock.merge;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A person's resolution whose test command then fails: the entry goes back to the conflict queue with its merge
 * worktree and base untouched, and a later resolution finishes it. Real repositories, store and test commands.
 */
class ResolvedMergeTestFailureTest {
    private static final String CODE = "class Calc {\n    int add(int a, int b) {\n        return a + b;\n    }\n}\n";

    @TempDir
    Path tmp;

    MergeRig rig;
    MergeEntry conflicted;
    String theirsTip;

    @BeforeEach
    void setUp() throws Exception {
        rig = new MergeRig(tmp);
        rig.repo.commitFile("Calc.java", CODE, "Add Calc");
        theirsTip = rig.branch("agent/b", "Calc.java", CODE.replace("return a + b;", "return Math.addExact(a, b);"));
        rig.repo.commitFile("Calc.java", CODE.replace("return a + b;", "return b + a;"), "Base edits add");
        // The test passes only for a result that uses addExact with b first.
        rig.settings("grep -q 'addExact(b, a)' Calc.java", 60_000, 3);
        rig.enqueue("agent/b");
        rig.drain();
        conflicted = rig.store.inState(MergeState.CONFLICT).get(0);
    }

    @AfterEach
    void tearDown() {
        rig.close();
    }

    @Test
    void aPersonsResolutionWhoseTestFailsGoesBackToTheConflictQueueAndCanBeResolvedAgain() throws Exception {
        String before = rig.main();
        String wrong = CODE.replace("return a + b;", "return Math.addExact(a, b);");

        rig.resolution.markResolved(conflicted.id(), "Calc.java", wrong, "alice");

        MergeEntry after = rig.entry(conflicted.id());
        assertThat(after.state()).isEqualTo(MergeState.CONFLICT);
        assertThat(after.attempt().result()).contains("failed with exit code 1");
        assertThat(rig.main()).as("base untouched").isEqualTo(before);
        assertThat(after.attempt().worktree()).as("the merge worktree is kept").isDirectory();
        assertThat(Files.readString(after.attempt().worktree().resolve("Calc.java")))
                .isEqualTo(wrong);
        assertThat(rig.kinds()).contains("merge.failed");
        assertThat(rig.entry(conflicted.id()).attempt().lastTestPassed()).isFalse();

        String right = CODE.replace("return a + b;", "return Math.addExact(b, a);");
        rig.resolution.markResolved(conflicted.id(), "Calc.java", right, "alice");

        MergeEntry merged = rig.entry(conflicted.id());
        assertThat(merged.state()).as(merged.attempt().result()).isEqualTo(MergeState.MERGED);
        assertThat(rig.repo.git("show", "main:Calc.java")).isEqualTo(right);
        assertThat(rig.repo
                        .git("rev-list", "--parents", "-n", "1", "main")
                        .strip()
                        .split(" "))
                .containsExactly(merged.attempt().mergeCommit(), before, theirsTip);
    }

    @Test
    void keepingASideWhoseTestFailsGoesBackToTheConflictQueue() throws Exception {
        String before = rig.main();

        rig.resolution.keepSide(conflicted.id(), "Calc.java", true, "bob");

        MergeEntry after = rig.entry(conflicted.id());
        assertThat(after.state()).isEqualTo(MergeState.CONFLICT);
        assertThat(rig.main()).as("base untouched").isEqualTo(before);
        assertThat(after.attempt().worktree()).isDirectory();
        assertThat(Files.readString(after.attempt().worktree().resolve("Calc.java")))
                .contains("Math.addExact(a, b)");
        assertThat(rig.store.conflicts(conflicted.id()).get(0).resolvedBy()).isEqualTo("bob");
        assertThat(rig.recent())
                .anyMatch(ev -> ev.kind().equals("merge.failed")
                        && ev.message().contains("could not be finished after its conflicts were resolved"));
    }

    @Test
    void keepingASideAfterAFailedFinishTakesThatSidesVersionNotWhatWasStaged() throws Exception {
        String before = rig.main();
        rig.resolution.markResolved(conflicted.id(), "Calc.java", "class Calc {}\n", "alice");
        assertThat(rig.entry(conflicted.id()).state()).isEqualTo(MergeState.CONFLICT);
        rig.settings("grep -q 'return b + a;' Calc.java", 60_000, 3);

        rig.resolution.keepSide(conflicted.id(), "Calc.java", false, "alice");

        MergeEntry merged = rig.entry(conflicted.id());
        assertThat(merged.state()).as(merged.attempt().result()).isEqualTo(MergeState.MERGED);
        assertThat(rig.repo.git("show", "main:Calc.java")).isEqualTo(rig.repo.git("show", before + ":Calc.java"));
        assertThat(rig.repo
                        .git("rev-list", "--parents", "-n", "1", "main")
                        .strip()
                        .split(" "))
                .containsExactly(merged.attempt().mergeCommit(), before, theirsTip);
    }
}
