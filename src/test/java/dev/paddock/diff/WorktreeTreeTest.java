package dev.paddock.diff;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.testing.TempRepo;
import dev.paddock.worktree.GitCli;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorktreeTreeTest {
    @TempDir
    Path temp;

    /**
     * A file changed in the second its index entry was written, to the same size: git compares whole seconds, so only
     * the index's own time tells it to read the file again. The copy of the index keeps that time.
     */
    @Test
    void aFileChangedInTheSecondTheIndexWasWrittenIsSeenWhateverItsSize() throws Exception {
        TempRepo repo = TempRepo.init(temp.resolve("repo"));
        Path f = repo.dir().resolve("version.txt");
        repo.write("version.txt", "version 1.0.1\n");
        repo.commitAll("One");
        String before = TempRepo.git(repo.dir(), "rev-parse", "HEAD^{tree}").strip();
        FileTime indexed = Files.getLastModifiedTime(f);
        Files.writeString(f, "version 1.0.2\n"); // the same size
        Files.setLastModifiedTime(f, indexed); // and the time the index holds for it
        Path index = repo.dir().resolve(".git/index");
        Files.setLastModifiedTime(index, FileTime.from(indexed.toInstant().plusMillis(1)));
        // The copy is made in a later second than the index and the file.
        long wait = 1_000 - Instant.now().toEpochMilli() % 1_000 + 50;
        Thread.sleep(Math.max(wait, 1_050 - (Instant.now().toEpochMilli() - indexed.toMillis())));

        WorktreeTree.State s = new WorktreeTree(new GitCli()).write(repo.dir());

        assertThat(TempRepo.git(repo.dir(), "status", "--porcelain")).contains("version.txt");
        assertThat(s.tree())
                .as("the worktree's state differs from the commit's")
                .isNotEqualTo(before);
    }
}
