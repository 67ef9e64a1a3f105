package dev.paddock.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.testing.TempRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The in-process steps of a checkpoint say what git says: where a linked worktree keeps its state (as
 * {@code git rev-parse}), and what changed between two trees (as {@code git diff-tree -r --name-status}).
 */
class CheckpointObjectsTest {
    @TempDir
    Path tmp;

    @Test
    void whereReadsALinkedWorktreeAsGitRevParseDoes() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("repo"));
        Path wt = tmp.resolve("wt");
        repo.git("worktree", "add", "-q", "-b", "agent/x", wt.toString());

        CheckpointObjects.Where onBranch = CheckpointObjects.where(wt).orElseThrow();
        assertThat(onBranch.head()).isEqualTo(git(wt, "rev-parse", "HEAD"));
        assertThat(onBranch.commonDir())
                .isEqualTo(wt.resolve(git(wt, "rev-parse", "--git-common-dir")).toRealPath());
        assertThat(onBranch.index()).isEqualTo(wt.resolve(git(wt, "rev-parse", "--git-path", "index")));

        // Packed, detached and unborn.
        repo.git("pack-refs", "--all");
        assertThat(CheckpointObjects.where(wt).orElseThrow().head()).isEqualTo(onBranch.head());
        git(wt, "checkout", "-q", "--detach", "HEAD");
        assertThat(CheckpointObjects.where(wt).orElseThrow().head()).isEqualTo(onBranch.head());
        git(wt, "checkout", "-q", "--orphan", "agent/empty");
        assertThat(CheckpointObjects.where(wt).orElseThrow().head()).isNull();

        // Not a linked worktree: git is asked instead.
        assertThat(CheckpointObjects.where(repo.dir())).isEmpty();
        assertThat(CheckpointObjects.where(tmp)).isEmpty();
    }

    @Test
    void changesAreWhatGitDiffTreeLists() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("repo"));
        repo.write("keep.txt", "same\n");
        repo.write("edit.txt", "before\n");
        repo.write("gone.txt", "deleted\n");
        repo.write("run.sh", "echo\n");
        repo.write("was-file", "becomes a folder\n");
        repo.write("deep/a/b.txt", "deep\n");
        repo.write("link-me", "becomes a link\n");
        String from = tree(repo, repo.commitAll("from"));

        repo.write("edit.txt", "after\n");
        Files.delete(repo.dir().resolve("gone.txt"));
        Files.setPosixFilePermissions(repo.dir().resolve("run.sh"), PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.delete(repo.dir().resolve("was-file"));
        repo.write("was-file/inside.txt", "now a folder\n");
        repo.write("deep/a/new.txt", "new\n");
        Files.delete(repo.dir().resolve("link-me"));
        Files.createSymbolicLink(repo.dir().resolve("link-me"), Path.of("keep.txt"));
        String to = tree(repo, repo.commitAll("to"));

        try (Repository r = new FileRepositoryBuilder()
                .setGitDir(repo.dir().resolve(".git").toFile())
                .build()) {
            CheckpointChanges mine = CheckpointObjects.changes(r, from, to);
            CheckpointChanges gits = CheckpointChanges.parseNameStatus(
                    repo.git("diff-tree", "-r", "-z", "--no-renames", "--name-status", from, to));
            assertThat(mine).isEqualTo(gits);
            assertThat(mine.added()).containsExactly("deep/a/new.txt", "was-file/inside.txt");
            assertThat(mine.modified()).containsExactly("edit.txt", "link-me", "run.sh");
            assertThat(mine.deleted()).containsExactly("gone.txt", "was-file");
            // From a commit, as from its tree; from nothing, every path is added.
            assertThat(CheckpointObjects.changes(r, repo.head(), to)).isEqualTo(CheckpointChanges.NONE);
            List<String> all =
                    List.of(repo.git("ls-tree", "-r", "--name-only", to).strip().split("\n"));
            assertThat(CheckpointObjects.changes(r, null, to).added()).containsExactlyElementsOf(all);
        }
    }

    private static String tree(TempRepo repo, String commit) {
        return repo.git("rev-parse", commit + "^{tree}").strip();
    }

    private static String git(Path dir, String... args) {
        return TempRepo.git(dir, args).strip();
    }

    @Test
    void aTreeWrittenFromAnIndexIsTheTreeGitWrites() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("repo"));
        repo.write("keep.txt", "same\n");
        repo.write("deep/a/b.txt", "deep\n");
        repo.write("run.sh", "echo\n");
        repo.commitAll("one");
        // Staged, unstaged and untracked changes of every kind, then the index as git add -A leaves it.
        repo.write("deep/a/b.txt", "changed\n");
        repo.write("new/dir/c.txt", "new\n");
        Files.setPosixFilePermissions(repo.dir().resolve("run.sh"), PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.createSymbolicLink(repo.dir().resolve("link"), Path.of("keep.txt"));
        Files.delete(repo.dir().resolve("keep.txt"));
        repo.git("add", "-A");
        Path gitDir = repo.dir().resolve(".git");
        String mine =
                CheckpointObjects.writeTree(gitDir, gitDir.resolve("index")).orElseThrow();
        assertThat(mine).isEqualTo(repo.git("write-tree").strip());
        assertThat(repo.git("cat-file", "-t", mine).strip()).isEqualTo("tree");
        // An index JGit cannot read: git does it instead.
        Files.writeString(tmp.resolve("broken-index"), "not an index");
        assertThat(CheckpointObjects.writeTree(gitDir, tmp.resolve("broken-index")))
                .isEmpty();
    }
}
