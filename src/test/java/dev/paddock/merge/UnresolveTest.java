package dev.paddock.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.events.EventKinds;
import dev.paddock.merge.conflict.ConflictFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reopening a resolved file of a conflicted merge ({@link ResolutionService#unresolve}): real repository, store and
 * merge worktree. Two files conflict; resolving one, reopening it and resolving the other does not finish the merge.
 */
class UnresolveTest {
    private static final String A = "class A {\n    int v() {\n        return 1;\n    }\n}\n";
    private static final String B = "b = 1\n";

    @TempDir
    Path tmp;

    MergeRig rig;
    MergeEntry conflicted;
    String before;

    @BeforeEach
    void setUp() throws Exception {
        rig = new MergeRig(tmp);
        rig.repo.commitFile("A.java", A, "Add A");
        rig.repo.commitFile("b.txt", B, "Add b");
        rig.repo.git("branch", "agent/x", "main");
        Path wt = rig.repo.addWorktreeOnBranch(
                rig.repo.dir().resolve(".worktrees").resolve("agent-x"), "agent/x");
        dev.paddock.testing.TempRepo.write(wt, "A.java", A.replace("return 1;", "return 2;"));
        dev.paddock.testing.TempRepo.write(wt, "b.txt", "b = 2\n");
        dev.paddock.testing.TempRepo.commitAll(wt, "agent edits");
        rig.repo.commitFile("A.java", A.replace("return 1;", "return 3;"), "base edits A");
        rig.repo.commitFile("b.txt", "b = 3\n", "base edits b");
        rig.enqueue("agent/x");
        rig.drain();
        conflicted = rig.store.inState(MergeState.CONFLICT).get(0);
        before = rig.main();
    }

    @AfterEach
    void tearDown() {
        rig.close();
    }

    @Test
    void aReopenedFileIsUnresolvedAgainKeepsItsTextAndTheMergeWaitsForIt() throws Exception {
        String mine = A.replace("return 1;", "return 2 + 3;");
        rig.resolution.markResolved(conflicted.id(), "A.java", mine, "alice");
        assertThat(rig.resolution.resolvedFiles(conflicted.id()))
                .extracting(
                        ResolutionService.ResolvedFile::path,
                        ResolutionService.ResolvedFile::text,
                        ResolutionService.ResolvedFile::by)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("A.java", mine, "alice"));

        rig.resolution.unresolve(conflicted.id(), "A.java", "bob");

        assertThat(rig.store.conflicts(conflicted.id())).noneMatch(MergeStore.StoredConflict::resolved);
        assertThat(rig.resolution.resolvedFiles(conflicted.id())).isEmpty();
        // Still listed with its three versions; its resolved text stays in the merge worktree; git sees it unmerged.
        assertThat(rig.resolution.conflicts(conflicted.id()).files())
                .extracting(ConflictFile::path)
                .containsExactly("A.java", "b.txt");
        assertThat(Files.readString(conflicted.attempt().worktree().resolve("A.java")))
                .isEqualTo(mine);
        assertThat(dev.paddock.testing.TempRepo.run(conflicted.attempt().worktree(), "ls-files", "-u", "--", "A.java")
                        .stdout())
                .isNotBlank();
        assertThat(rig.recent())
                .anyMatch(e -> e.kind().equals(EventKinds.MERGE_UNRESOLVED)
                        && e.message()
                                .equals("bob reopened A.java in " + conflicted.label()
                                        + " (resolved before by alice)"));

        // Resolving the other file does not finish the merge: the reopened one waits.
        rig.resolution.markResolved(conflicted.id(), "b.txt", "b = 5\n", "alice");
        assertThat(rig.entry(conflicted.id()).state()).isEqualTo(MergeState.CONFLICT);
        assertThat(rig.main()).isEqualTo(before);

        String again = A.replace("return 1;", "return 5;");
        rig.resolution.markResolved(conflicted.id(), "A.java", again, "bob");
        MergeEntry merged = rig.entry(conflicted.id());
        assertThat(merged.state()).as(merged.attempt().result()).isEqualTo(MergeState.MERGED);
        assertThat(rig.repo.git("show", "main:A.java")).isEqualTo(again);
        assertThat(rig.repo.git("show", "main:b.txt")).isEqualTo("b = 5\n");
    }

    @Test
    void aFileIsReopenedAfterAFinishWhoseTestFailedAndTheMergeFinishesOnceItIsResolvedRight() throws Exception {
        rig.settings("grep -q 'return 5;' A.java", 60_000, 3);
        rig.resolution.markResolved(conflicted.id(), "b.txt", "b = 5\n", "alice");
        rig.resolution.markResolved(conflicted.id(), "A.java", A.replace("return 1;", "return 4;"), "alice");
        assertThat(rig.entry(conflicted.id()).state()).isEqualTo(MergeState.CONFLICT);
        assertThat(rig.entry(conflicted.id()).attempt().result()).contains("failed with exit code 1");

        rig.resolution.unresolve(conflicted.id(), "A.java", "alice");
        assertThat(rig.resolution.resolvedFiles(conflicted.id()))
                .extracting(ResolutionService.ResolvedFile::path)
                .containsExactly("b.txt");
        rig.resolution.markResolved(conflicted.id(), "A.java", A.replace("return 1;", "return 5;"), "alice");

        MergeEntry merged = rig.entry(conflicted.id());
        assertThat(merged.state()).as(merged.attempt().result()).isEqualTo(MergeState.MERGED);
        assertThat(rig.repo.git("show", "main:A.java")).contains("return 5;");
    }

    @Test
    void theFinishOfAMergeWhoseFileWasReopenedMeanwhileSendsItBackInsteadOfMerging() throws Exception {
        // Every file resolved in the store (the finish is due), then one reopened before the queue takes the finish.
        rig.resolution.markResolved(conflicted.id(), "b.txt", "b = 5\n", "alice");
        rig.store.resolve(
                conflicted.id(),
                "A.java",
                "text",
                "alice",
                dev.paddock.events.EventDraft.of(
                        rig.repoId, null, EventKinds.MERGE_RESOLVED, "alice resolved A.java", java.util.Map.of()));
        rig.resolution.unresolve(conflicted.id(), "A.java", "bob");

        rig.queue.completeResolved(rig.queue.repos().find(rig.repoId).orElseThrow(), rig.entry(conflicted.id()));

        MergeEntry after = rig.entry(conflicted.id());
        assertThat(after.state()).isEqualTo(MergeState.CONFLICT);
        assertThat(after.attempt().result()).isEqualTo("a resolved file was reopened");
        assertThat(after.attempt().worktree()).isDirectory();
        assertThat(rig.main()).isEqualTo(before);
    }

    @Test
    void onlyAResolvedFileOfAMergeWaitingForResolutionsCanBeReopened() throws Exception {
        assertThatThrownBy(() -> rig.resolution.unresolve(conflicted.id(), "A.java", "bob"))
                .isInstanceOf(MergeException.class)
                .hasMessage("A.java is not resolved in " + conflicted.label());
        assertThatThrownBy(() -> rig.resolution.unresolve(conflicted.id(), "nope.txt", "bob"))
                .isInstanceOf(MergeException.class)
                .hasMessageContaining("is not a conflicted file");
        rig.resolution.markResolved(conflicted.id(), "A.java", A, "alice");
        rig.resolution.markResolved(conflicted.id(), "b.txt", B, "alice");
        assertThat(rig.entry(conflicted.id()).state()).isEqualTo(MergeState.MERGED);

        assertThatThrownBy(() -> rig.resolution.unresolve(conflicted.id(), "A.java", "bob"))
                .isInstanceOf(MergeException.class)
                .hasMessageContaining("is merged");
        assertThat(rig.store.conflicts(conflicted.id())).allMatch(MergeStore.StoredConflict::resolved);
    }
}
