package dev.paddock.merge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.isolation.LinkedWorktree;
import dev.paddock.testing.TempRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The merge worktree a repository keeps between entries with a test command: nothing of one entry reaches the next,
 * a damaged one is replaced, and base still moves only by the queue's compare-and-set. Real repositories, a real
 * store, real test commands.
 */
class KeptWorktreeTest {
    @TempDir
    Path tmp;

    MergeRig rig;

    @BeforeEach
    void setUp() throws Exception {
        rig = new MergeRig(tmp);
        rig.repo.write(".gitignore", "build/\n").write("keep.txt", "kept\n");
        rig.repo.commitAll("Add keep.txt and .gitignore");
    }

    @AfterEach
    void tearDown() {
        rig.close();
    }

    private Path kept() {
        return KeptWorktree.of(rig.repo.dir());
    }

    @Test
    void nothingOfAFailedEntryReachesTheNextOne() throws Exception {
        rig.branch("agent/a", "a.txt", "a\n");
        rig.branch("agent/b", "b.txt", "b\n");
        // Entry a's test leaves every kind of trace behind, then fails: an untracked file, an ignored folder, an
        // edited tracked file, a deleted tracked file, a staged file and a new executable.
        rig.settings(
                "test -f a.txt || exit 0; echo junk > untracked.txt; mkdir -p build && echo o > build/out;"
                        + " echo edited > keep.txt; rm .gitignore; echo s > staged.txt; git add staged.txt;"
                        + " printf '#!/bin/sh\\n' > tool.sh; chmod +x tool.sh; exit 1",
                60_000,
                1);
        MergeEntry a = rig.enqueue("agent/a");
        assertThat(rig.queue.runNext(rig.repoId)).isTrue();
        assertThat(rig.entry(a.id()).state()).isEqualTo(MergeState.FAILED);
        assertThat(kept())
                .as("the failed entry's worktree is kept for the next")
                .isDirectory();

        // Entry b's test writes out what it sees: its tree must be exactly b's merge, nothing of a's.
        Path seen = tmp.resolve("seen.txt");
        rig.settings(
                "{ git status --porcelain --ignored --untracked-files=all; ls -A; cat keep.txt; } > " + seen,
                60_000,
                1);
        String before = rig.main();
        MergeEntry b = rig.enqueue("agent/b");
        assertThat(rig.queue.runNext(rig.repoId)).isTrue();

        assertThat(rig.entry(b.id()).state()).isEqualTo(MergeState.MERGED);
        assertThat(Files.readString(seen)).isEqualTo(".git\n.gitignore\nREADME.md\nb.txt\nkeep.txt\nkept\n");
        String merged = rig.main();
        assertThat(merged).isNotEqualTo(before);
        assertThat(rig.repo.git("rev-parse", merged + "^1").strip()).isEqualTo(before);
        assertThat(rig.repo.git("show", merged + ":b.txt")).isEqualTo("b\n");
        assertThat(rig.repo.git("ls-tree", "--name-only", merged)).doesNotContain("a.txt", "staged.txt", "tool.sh");
        assertThat(kept()).isDirectory();
        assertThat(MergeGit.worktreeOf(rig.repo.dir(), a.id())).doesNotExist();
        assertThat(MergeGit.worktreeOf(rig.repo.dir(), b.id())).doesNotExist();
    }

    @Test
    void whatAppearsAfterTheCleanThatFollowsATestIsCleanedBeforeTheNextTest() throws Exception {
        rig.branch("agent/a", "a.txt", "a\n");
        rig.branch("agent/b", "b.txt", "b\n");
        rig.settings(
                "test -f b.txt || { echo junk > untracked.txt; mkdir -p build && echo o > build/out; }", 60_000, 1);
        MergeEntry a = rig.enqueue("agent/a");
        rig.drain();
        assertThat(rig.entry(a.id()).state()).isEqualTo(MergeState.MERGED);
        // The clean after a's test runs beside the queue: wait until it is done.
        long deadline = System.nanoTime() + 10_000_000_000L;
        while ((Files.exists(kept().resolve("build")) || Files.exists(kept().resolve("untracked.txt")))
                && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        Thread.sleep(200);
        assertThat(kept().resolve("build")).doesNotExist();
        // Then something (a person, a process that escaped) writes into it before the next entry takes it.
        TempRepo.write(kept(), "late.txt", "late\n");
        TempRepo.write(kept(), "build/late.out", "late\n");
        Files.createDirectories(kept().resolve("empty/inside"));
        TempRepo.write(kept(), "keep.txt", "edited late\n");

        Path seen = tmp.resolve("seen.txt");
        rig.settings(
                "{ git status --porcelain --ignored --untracked-files=all; ls -A; cat keep.txt; } > " + seen,
                60_000,
                1);
        MergeEntry b = rig.enqueue("agent/b");
        rig.drain();

        assertThat(rig.entry(b.id()).state()).isEqualTo(MergeState.MERGED);
        assertThat(Files.readString(seen)).isEqualTo(".git\n.gitignore\nREADME.md\na.txt\nb.txt\nkeep.txt\nkept\n");
    }

    @Test
    void successiveEntriesTestTheirOwnMergeCommitInTheSameWorktree() throws Exception {
        rig.branch("agent/a", "a.txt", "a\n");
        rig.branch("agent/b", "b.txt", "b\n");
        Path log = tmp.resolve("heads.txt");
        rig.settings(
                "{ git rev-parse HEAD; git rev-parse --git-dir; for f in a.txt b.txt; do test -f $f && echo $f; done; true; } >> "
                        + log,
                60_000,
                1);

        MergeEntry a = rig.enqueue("agent/a");
        MergeEntry b = rig.enqueue("agent/b");
        rig.drain();

        assertThat(rig.entry(a.id()).state()).isEqualTo(MergeState.MERGED);
        assertThat(rig.entry(b.id()).state()).isEqualTo(MergeState.MERGED);
        String[] lines = Files.readString(log).split("\n");
        // a's test saw a's merge commit (now main^1 after b), b's test saw main itself.
        assertThat(lines).hasSize(7);
        assertThat(lines[0]).isEqualTo(rig.repo.git("rev-parse", "main^1").strip());
        assertThat(lines[2]).isEqualTo("a.txt");
        assertThat(lines[3]).isEqualTo(rig.main());
        assertThat(lines[4]).as("the same admin directory: one worktree, kept").isEqualTo(lines[1]);
        assertThat(lines[5]).isEqualTo("a.txt");
        assertThat(lines[6]).isEqualTo("b.txt");
        assertThat(rig.repo.git("worktree", "list", "--porcelain"))
                .contains("worktree " + kept().toRealPath())
                .doesNotContain("/.merge/" + a.id() + "\n")
                .doesNotContain("/.merge/" + b.id() + "\n");
    }

    @Test
    void aDamagedKeptWorktreeIsReplacedAndTheEntryMerges() throws Exception {
        rig.branch("agent/a", "a.txt", "a\n");
        rig.branch("agent/b", "b.txt", "b\n");
        rig.branch("agent/c", "c.txt", "c\n");
        rig.settings("test -f keep.txt", 60_000, 1);
        rig.enqueue("agent/a");
        rig.drain();
        assertThat(kept()).isDirectory();

        // A rebase under way in it (a forced checkout does not end one): replaced.
        Path admin = LinkedWorktree.adminDirOf(kept());
        Files.createDirectories(admin.resolve("rebase-merge"));
        MergeEntry b = rig.enqueue("agent/b");
        rig.drain();
        assertThat(rig.entry(b.id()).state()).isEqualTo(MergeState.MERGED);
        assertThat(admin.resolve("rebase-merge")).doesNotExist();

        // A worktree configuration left in its admin directory (a test may write there): replaced.
        rig.branch("agent/d", "d.txt", "d\n");
        Path planted = LinkedWorktree.adminDirOf(kept()).resolve("config.worktree");
        Files.writeString(planted, "[core]\n\tfsmonitor = touch /tmp/should-not-run\n");
        MergeEntry d = rig.enqueue("agent/d");
        rig.drain();
        assertThat(rig.entry(d.id()).state()).isEqualTo(MergeState.MERGED);
        assertThat(planted).doesNotExist();

        // Its .git file gone: replaced too.
        Files.delete(kept().resolve(".git"));
        MergeEntry c = rig.enqueue("agent/c");
        rig.drain();
        assertThat(rig.entry(c.id()).state()).isEqualTo(MergeState.MERGED);
        assertThat(rig.repo.git("show", "main:c.txt")).isEqualTo("c\n");
        assertThat(kept().resolve(".git")).isRegularFile();
    }

    @Test
    void aKeptWorktreeLeftOnTheBaseBranchNeverMovesIt() throws Exception {
        rig.branch("agent/a", "a.txt", "a\n");
        rig.branch("agent/b", "b.txt", "b\n");
        rig.settings("true", 60_000, 1);
        rig.enqueue("agent/a");
        rig.drain();
        // Someone puts the kept worktree on a branch of its own, with a commit base does not have.
        TempRepo.git(kept(), "checkout", "-q", "-b", "someone");
        TempRepo.write(kept(), "theirs.txt", "x\n");
        String someone = TempRepo.commitAll(kept(), "someone's commit");
        String before = rig.main();

        MergeEntry b = rig.enqueue("agent/b");
        rig.drain();

        assertThat(rig.entry(b.id()).state()).isEqualTo(MergeState.MERGED);
        assertThat(rig.repo.git("rev-parse", "main^1").strip()).isEqualTo(before);
        assertThat(rig.repo.git("rev-parse", "someone").strip())
                .as("their branch untouched")
                .isEqualTo(someone);
        assertThat(rig.repo.git("ls-tree", "--name-only", "main")).doesNotContain("theirs.txt");
    }

    @Test
    void aTestThatPointsItsWorktreeAtTheMainRepositoryCannotMoveTheMainCheckout() throws Exception {
        rig.branch("agent/a", "a.txt", "a\n");
        rig.branch("agent/b", "b.txt", "b\n");
        // Entry a's test (the agent's code) makes its worktree's .git name the main repository's git directory, so
        // that the next git command Paddock runs in that folder would act on the user's checkout.
        Path mainGit = rig.repo.dir().resolve(".git");
        rig.settings("test -f b.txt || printf 'gitdir: " + mainGit + "\\n' > .git", 60_000, 1);
        rig.enqueue("agent/a");
        rig.drain();
        String mainHead = Files.readString(mainGit.resolve("HEAD"));
        assertThat(mainHead).isEqualTo("ref: refs/heads/main\n");

        rig.settings("test -f b.txt", 60_000, 1);
        MergeEntry b = rig.enqueue("agent/b");
        rig.drain();

        assertThat(rig.entry(b.id()).state()).isEqualTo(MergeState.MERGED);
        assertThat(Files.readString(mainGit.resolve("HEAD")))
                .as("the user's checkout stays on its branch")
                .isEqualTo(mainHead);
        assertThat(rig.repo.git("status", "--porcelain", "--untracked-files=no"))
                .isEmpty();
        assertThat(rig.repo.git("show", "main:b.txt")).isEqualTo("b\n");
        assertThat(Files.readString(kept().resolve(".git"))).doesNotContain(mainGit + "\n");
    }

    @Test
    void aTestThatPointsItsWorktreeAtAnotherWorktreeCannotTouchThatOne() throws Exception {
        rig.branch("agent/a", "a.txt", "a\n");
        rig.branch("agent/b", "b.txt", "b\n");
        // A worktree of the user's own, on its own branch, with a file git does not track.
        Path other = tmp.resolve("other");
        rig.repo.git("worktree", "add", "-q", "-b", "someone", other.toString(), "main");
        TempRepo.write(other, "mine.txt", "mine\n");
        String someone = rig.repo.git("rev-parse", "someone").strip();
        Path otherAdmin = LinkedWorktree.adminDirOf(other);
        // Entry a's test points the kept worktree's .git at that worktree's admin directory: git run in the kept
        // folder would then check out and clean the user's worktree.
        rig.settings("test -f b.txt || printf 'gitdir: " + otherAdmin + "\\n' > .git", 60_000, 1);
        rig.enqueue("agent/a");
        rig.drain();
        assertThat(KeptWorktree.linkedHere(rig.repo.dir(), kept())).isFalse();

        rig.settings("test -f b.txt", 60_000, 1);
        MergeEntry b = rig.enqueue("agent/b");
        rig.drain();

        assertThat(rig.entry(b.id()).state()).isEqualTo(MergeState.MERGED);
        assertThat(Files.readString(otherAdmin.resolve("HEAD"))).isEqualTo("ref: refs/heads/someone\n");
        assertThat(rig.repo.git("rev-parse", "someone").strip()).isEqualTo(someone);
        assertThat(other.resolve("mine.txt")).hasContent("mine\n");
        assertThat(other.resolve("b.txt")).doesNotExist();
        assertThat(KeptWorktree.linkedHere(rig.repo.dir(), kept()))
                .as("replaced by a worktree of its own")
                .isTrue();
    }

    @Test
    void aConflictedEntryKeepsItsOwnWorktreeAndTheNextEntryGetsAnother() throws Exception {
        rig.repo.commitFile("shared.txt", "one\n", "shared");
        rig.branch("agent/a", "shared.txt", "a\n");
        rig.branch("agent/b", "shared.txt", "b\n");
        rig.branch("agent/c", "c.txt", "c\n");
        rig.settings("true", 60_000, 1);
        rig.enqueue("agent/a");
        rig.drain();
        MergeEntry b = rig.enqueue("agent/b");
        rig.drain();
        assertThat(rig.entry(b.id()).state()).isEqualTo(MergeState.CONFLICT);
        Path bs = MergeGit.worktreeOf(rig.repo.dir(), b.id());
        assertThat(bs.resolve("shared.txt")).content().contains("<<<<<<<");

        MergeEntry c = rig.enqueue("agent/c");
        rig.drain();

        assertThat(rig.entry(c.id()).state()).isEqualTo(MergeState.MERGED);
        assertThat(bs.resolve("shared.txt"))
                .as("the conflict stays for a person")
                .content()
                .contains("<<<<<<<");
        assertThat(kept()).isDirectory();
    }
}
