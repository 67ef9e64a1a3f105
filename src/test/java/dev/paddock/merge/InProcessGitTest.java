package dev.paddock.merge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.testing.TempRepo;
import dev.paddock.worktree.GitCli;
import dev.paddock.worktree.WorktreeHeads;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The merge queue's in-process answers ({@link WorktreeHeads}, {@link InProcessGit}) against git's own on real
 * repositories: where a branch is checked out (main and linked worktrees, detached HEADs, branch names with a
 * slash, a separate git dir that only git answers), the tips and ancestry of branches, and when the dry run of
 * {@code git read-tree -m -u} may be skipped.
 */
class InProcessGitTest {
    @TempDir
    Path tmp;

    private final MergeGit git = new MergeGit(new GitCli());

    @Test
    void checkedOutAtReadsTheAdminFilesAndAgreesWithGitWorktreeList() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("repo"));
        repo.git("branch", "agent/with-slash");
        repo.git("branch", "idle");
        Path linked = repo.addWorktreeOnBranch(tmp.resolve("linked"), "agent/with-slash");
        Path detached = repo.addDetachedWorktree(tmp.resolve("detached"));
        Path gone = repo.addWorktree(tmp.resolve("gone"), "agent/gone");
        TempRepo.deleteTree(gone); // prunable: git still lists it with its branch

        assertThat(WorktreeHeads.find(repo.dir(), "main")).isEqualTo(new WorktreeHeads.Answer(true, repo.dir()));
        assertThat(WorktreeHeads.find(repo.dir(), "agent/with-slash"))
                .isEqualTo(new WorktreeHeads.Answer(true, linked));
        assertThat(WorktreeHeads.find(linked, "main"))
                .as("asked from a linked worktree")
                .isEqualTo(new WorktreeHeads.Answer(true, repo.dir()));
        assertThat(WorktreeHeads.find(repo.dir(), "idle")).isEqualTo(new WorktreeHeads.Answer(true, null));
        assertThat(WorktreeHeads.find(repo.dir(), "agent"))
                .as("a prefix of a branch is no branch")
                .isEqualTo(new WorktreeHeads.Answer(true, null));
        for (String branch : List.of("main", "agent/with-slash", "agent/gone", "idle", "agent", "nope")) {
            assertThat(git.checkedOutAt(repo.dir(), branch))
                    .as(branch)
                    .isEqualTo(git.checkedOutAtCli(repo.dir(), branch));
        }
        assertThat(detached).isDirectory();

        repo.git("checkout", "-q", "--detach"); // main worktree detached: main is checked out nowhere
        assertThat(WorktreeHeads.find(repo.dir(), "main")).isEqualTo(new WorktreeHeads.Answer(true, null));
        assertThat(git.checkedOutAt(repo.dir(), "main"))
                .isEqualTo(git.checkedOutAtCli(repo.dir(), "main"))
                .isEmpty();
    }

    @Test
    void aLayoutItCannotReadWithCertaintyIsLeftToGit() throws Exception {
        Path work = Files.createDirectories(tmp.resolve("work"));
        TempRepo.git(
                work,
                "init",
                "-q",
                "--initial-branch=main",
                "--separate-git-dir",
                tmp.resolve("store.git").toString());
        TempRepo.git(work, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "one");

        assertThat(WorktreeHeads.find(work, "main").known()).isFalse();
        assertThat(git.checkedOutAt(work, "main")).isEqualTo(git.checkedOutAtCli(work, "main"));
        assertThat(WorktreeHeads.find(tmp.resolve("nothing-here"), "main").known())
                .isFalse();
    }

    @Test
    void tipsAndAncestryMatchGit() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("repo"));
        String fork = repo.head();
        for (int i = 0; i < 30; i++) { // a history longer than the fork, so a naive walk would be seen
            repo.commitFile("base" + i + ".txt", i + "\n", "base " + i);
        }
        repo.git("branch", "agent/side", fork);
        Path side = repo.addWorktreeOnBranch(tmp.resolve("side"), "agent/side");
        TempRepo.write(side, "side.txt", "side\n");
        String sideTip = TempRepo.commitAll(side, "side");
        repo.git("branch", "agent/old", fork);

        InProcessGit.Tips t = InProcessGit.tips(repo.dir(), "refs/heads/main", "refs/heads/agent/side");
        assertThat(t.ours()).contains(repo.head());
        assertThat(t.theirs()).contains(sideTip);
        assertThat(t.theirsInOurs()).isFalse();
        assertThat(InProcessGit.tips(repo.dir(), "refs/heads/main", "refs/heads/agent/old")
                        .theirsInOurs())
                .isTrue();
        assertThat(InProcessGit.tips(repo.dir(), "refs/heads/main", "refs/heads/main")
                        .theirsInOurs())
                .isTrue();
        InProcessGit.Tips missing = InProcessGit.tips(repo.dir(), "refs/heads/main", "refs/heads/agent/none");
        assertThat(missing.theirs()).isEmpty();
        assertThat(missing.theirsInOurs()).isFalse();
        assertThat(git.resolve(repo.dir(), "refs/heads/agent/side")).contains(sideTip);
        assertThat(git.resolve(repo.dir(), "refs/heads/agent/none")).isEmpty();
        for (String[] pair : List.of(
                new String[] {fork, repo.head()},
                new String[] {repo.head(), fork},
                new String[] {sideTip, repo.head()},
                new String[] {fork, sideTip},
                new String[] {sideTip, sideTip})) {
            boolean byGit = TempRepo.run(repo.dir(), "merge-base", "--is-ancestor", pair[0], pair[1])
                    .ok();
            assertThat(InProcessGit.isAncestor(repo.dir(), pair[0], pair[1]))
                    .as(pair[0] + " in " + pair[1])
                    .isEqualTo(byGit);
            assertThat(git.isAncestor(repo.dir(), pair[0], pair[1])).isEqualTo(byGit);
        }
    }

    @Test
    void branchesAreSeenInLooseAndPackedRefFiles() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("repo"));
        repo.git("branch", "agent/loose");
        assertThat(WorktreeHeads.branchFileExists(repo.dir(), "agent/loose")).isTrue();
        repo.git("pack-refs", "--all");
        assertThat(repo.dir().resolve(".git/refs/heads/agent/loose")).doesNotExist();
        assertThat(WorktreeHeads.branchFileExists(repo.dir(), "agent/loose"))
                .as("packed")
                .isTrue();
        assertThat(WorktreeHeads.branchFileExists(repo.dir(), "agent")).isFalse();
        assertThat(WorktreeHeads.branchFileExists(repo.dir(), "../../HEAD"))
                .as("never outside refs")
                .isFalse();
        assertThat(git.branchExists(repo.dir(), "agent/loose")).isTrue();
        assertThat(git.branchExists(repo.dir(), "agent/none")).isFalse();
    }

    @Test
    void theDryRunIsSkippedOnlyWhenNothingIsInTheWayOfTheAddedFiles() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("repo"));
        repo.commitFile("src/kept.txt", "kept\n", "kept");
        String from = repo.head();
        repo.git("checkout", "-q", "-b", "agent/add");
        repo.write("src/new/added.txt", "added\n").write("notes.txt", "notes\n").write("README.md", "changed\n");
        String to = repo.commitAll("add and change");
        repo.git("checkout", "-q", "main");
        Path main = repo.dir();

        List<String> added = InProcessGit.addedPaths(main, from, to).orElseThrow();
        assertThat(added).containsExactlyInAnyOrder("src/new/added.txt", "notes.txt");
        assertThat(git.addedPaths(
                        main, from, repo.git("rev-parse", to + "^{tree}").strip()))
                .as("a tree id as well")
                .containsExactlyInAnyOrderElementsOf(added);
        assertThat(git.followRefRefusal(main, from, to, added)).isNull();
        assertThat(TempRepo.run(main, "read-tree", "-m", "-u", "-n", from, to).ok())
                .as("git agrees")
                .isTrue();

        Files.writeString(main.resolve("notes.txt"), "my own notes\n"); // untracked where the merge adds a file
        assertThat(InProcessGit.freeOnDisk(main, "notes.txt")).isFalse();
        assertThat(git.followRefRefusal(main, from, to, added))
                .as("git's own words")
                .contains("notes.txt");
        Files.delete(main.resolve("notes.txt"));

        Files.writeString(main.resolve("src/new"), "a file where a folder must go\n");
        assertThat(InProcessGit.freeOnDisk(main, "src/new/added.txt")).isFalse();
        assertThat(git.followRefRefusal(main, from, to, added)).isNotNull();
        Files.delete(main.resolve("src/new"));
        assertThat(InProcessGit.freeOnDisk(main, "src/new/added.txt")).isTrue();

        repo.git("checkout", "-q", "-b", "agent/swap", from); // a file becomes a folder: left to git
        repo.git("rm", "-q", "src/kept.txt");
        repo.write("src/kept.txt/inner.txt", "inner\n");
        String swap = repo.commitAll("swap");
        repo.git("checkout", "-q", "main");
        assertThat(InProcessGit.freeOnDisk(main, "src/kept.txt/inner.txt")).isFalse();
        assertThat(InProcessGit.addedPaths(main, from, swap).orElseThrow()).containsExactly("src/kept.txt/inner.txt");
    }
}
