package dev.paddock.merge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.events.Event;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The queue's in-core clean path: the merge prepared beside {@code git status} ({@link EarlyMerge}), its events in
 * order, no pile of unreachable commits while a dirty checkout is refused, base moved back when the checked-out
 * tree changes between the look and the move and cannot follow, and (with a test command) a file put in the merge's
 * way during the test stopping it before base moves.
 */
class MergeQueueCleanPathTest {
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

    @Test
    void aCleanMergeIsRecordedStepByStepAndTheCheckoutFollows() throws Exception {
        String tip = rig.branch("agent/a", "src/added/New.java", "class New {}\n");
        String before = rig.main();
        MergeEntry e = rig.enqueue("agent/a");

        assertThat(rig.queue.runNext(rig.repoId)).isTrue();

        MergeEntry done = rig.entry(e.id());
        assertThat(done.state()).isEqualTo(MergeState.MERGED);
        assertThat(done.attempt().mainTreePending()).isFalse();
        assertThat(done.attempt().baseBefore()).isEqualTo(before);
        assertThat(done.attempt().theirsCommit()).isEqualTo(tip);
        assertThat(rig.repo
                        .git("rev-list", "--parents", "-n", "1", "main")
                        .strip()
                        .split(" "))
                .containsExactly(done.attempt().mergeCommit(), before, tip);
        assertThat(rig.repo.dir().resolve("src/added/New.java")).hasContent("class New {}");
        assertThat(rig.repo.git("status", "--porcelain", "--untracked-files=no"))
                .isEmpty();
        List<String> kinds = rig.recent().stream()
                .filter(ev -> ev.kind().startsWith("merge."))
                .sorted(java.util.Comparator.comparingLong(Event::id))
                .map(Event::kind)
                .toList();
        assertThat(kinds)
                .as("oldest first")
                .containsExactly("merge.enqueued", "merge.updating", "merge.testing", "merge.merging", "merge.merged");
    }

    @Test
    void aRefusedDirtyCheckoutDoesNotLeaveACommitPerLook() throws Exception {
        rig.branch("agent/a", "Calc.java", CODE.replace("a + b", "b + a"));
        Files.writeString(rig.repo.dir().resolve("README.md"), "my own unsaved notes\n");
        MergeEntry e = rig.enqueue("agent/a");

        for (int i = 0; i < 4; i++) {
            assertThat(rig.queue.runNext(rig.repoId)).isFalse();
        }

        assertThat(rig.entry(e.id()).state()).isEqualTo(MergeState.QUEUED);
        long unreachable = rig.repo
                .git("fsck", "--unreachable", "--no-reflogs")
                .lines()
                .filter(l -> l.startsWith("unreachable commit"))
                .count();
        assertThat(unreachable)
                .as("at most the one prepared before the first refusal")
                .isLessThanOrEqualTo(1);
        assertThat(rig.repo.dir().resolve("README.md")).hasContent("my own unsaved notes");
        rig.repo.git("checkout", "--", "README.md");
        rig.drain();
        assertThat(rig.entry(e.id()).state()).isEqualTo(MergeState.MERGED);
    }

    @Test
    void aCheckoutThatChangesBetweenTheLookAndTheMoveGetsBaseMovedBack() throws Exception {
        rig.branch("agent/a", "Calc.java", CODE.replace("a + b", "b + a"));
        String before = rig.main();
        Path once = tmp.resolve("edited-once");
        // Runs inside `git update-ref` once base has moved: a person saves Calc.java right then, so the files
        // of the checkout cannot follow the merge.
        hook(
                "reference-transaction",
                "[ \"$1\" = committed ] || exit 0; [ -e '" + once + "' ] && exit 0;" + " touch '" + once
                        + "'; printf 'my edit\\n' > '" + rig.repo.dir().resolve("Calc.java") + "'");
        MergeEntry e = rig.enqueue("agent/a");

        assertThat(rig.queue.runNext(rig.repoId)).isTrue();

        MergeEntry after = rig.entry(e.id());
        assertThat(after.state()).isEqualTo(MergeState.QUEUED);
        assertThat(after.attempt().attempts()).isEqualTo(1);
        assertThat(after.attempt().result()).contains("cannot follow", "moved back");
        assertThat(after.attempt().mergeCommit()).isNull();
        assertThat(rig.main()).as("base is the old commit again").isEqualTo(before);
        assertThat(rig.repo.dir().resolve("Calc.java"))
                .as("the person's edit is untouched")
                .hasContent("my edit");
        assertThat(rig.repo.git("diff", "--cached", "--name-only"))
                .as("the index is still base's")
                .isEmpty();
    }

    @Test
    void withATestCommandAFileMadeInTheCheckoutDuringTheTestStopsTheMoveBeforeBaseMoves() throws Exception {
        String tip = rig.branch("agent/a", "src/added/New.java", "class New {}\n");
        String before = rig.main();
        Path mine = rig.repo.dir().resolve("src/added/New.java");
        // The test runs in the merge worktree while a person makes, in base's checkout, the very file the merge adds.
        rig.settings("mkdir -p '" + mine.getParent() + "' && printf 'mine\\n' > '" + mine + "'", 60_000L, 3);
        MergeEntry e = rig.enqueue("agent/a");

        assertThat(rig.queue.runNext(rig.repoId)).isTrue();

        MergeEntry after = rig.entry(e.id());
        assertThat(after.state()).isEqualTo(MergeState.QUEUED);
        assertThat(after.attempt().result()).contains("cannot follow", "src/added/New.java");
        assertThat(rig.main()).as("base never moved").isEqualTo(before);
        assertThat(rig.repo.git("rev-list", "main")).doesNotContain(tip);
        assertThat(mine).as("the person's file is untouched").hasContent("mine");
    }

    private void hook(String name, String body) throws Exception {
        Path hooks = rig.repo.dir().resolve(".git").resolve("hooks");
        Files.createDirectories(hooks);
        Path h = hooks.resolve(name);
        Files.writeString(h, "#!/bin/sh\n" + body + "\nexit 0\n", StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(h, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
