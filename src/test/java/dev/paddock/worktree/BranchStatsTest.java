package dev.paddock.worktree;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.testing.TempRepo;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link BranchStats} on a real repository: commits, files and lines of a branch since a commit. */
class BranchStatsTest {
    @TempDir
    Path tmp;

    @Test
    void countsTheBranchsCommitsFilesAndLinesSinceTheCommitNotWhatBaseDidSince() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("repo"));
        repo.commitFile("old.txt", "one\ntwo\nthree\n", "Old file");
        String start = repo.head();
        repo.git("checkout", "-q", "-b", "topic");
        repo.commitFile("new.txt", "a\nb\n", "Add new");
        repo.commitFile("old.txt", "one\nTWO\nthree\nfour\n", "Change old");
        repo.write("bin.dat", "\0\1\2");
        repo.git("add", "bin.dat");
        repo.git("commit", "-q", "-m", "Binary");
        repo.git("checkout", "-q", "main");
        repo.commitFile("base.txt", "moved on\n", "Base moves on");

        BranchStats s = BranchStats.of(new GitCli(), repo.dir(), start, "topic").orElseThrow();

        assertThat(s).isEqualTo(new BranchStats(3, 3, 2 + 2, 1));
        assertThat(BranchStats.of(new GitCli(), repo.dir(), start, "main").orElseThrow())
                .isEqualTo(new BranchStats(1, 1, 1, 0));
        assertThat(BranchStats.of(new GitCli(), repo.dir(), start, "gone")).isEmpty();
        assertThat(BranchStats.of(new GitCli(), repo.dir(), "0".repeat(40), "topic"))
                .isEmpty();
        assertThat(BranchStats.of(new GitCli(), repo.dir(), null, "topic")).isEmpty();
    }
}
