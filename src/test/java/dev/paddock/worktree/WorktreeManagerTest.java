package dev.paddock.worktree;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.testing.TempRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The parts of {@link WorktreeManager} that read or write git's files in-process (which worktree has a branch
 * checked out, a worktree's own identity) and the fingerprint, checked against what git itself answers on a real
 * repository with linked worktrees.
 */
class WorktreeManagerTest {
    @TempDir
    Path tmp;

    private final GitCli git = new GitCli();
    private final WorktreeManager worktrees = new WorktreeManager(git);

    @Test
    void checkedOutInReadsTheSameAnswerAsGitWorktreeList() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("Проекты/My Répo"));
        repo.commitFile("a.txt", "a\n", "first");
        Path linked = repo.addWorktree(tmp.resolve("wt/feature"), "feature/login");
        Path detached = repo.addDetachedWorktree(tmp.resolve("wt/detached"));
        repo.git("branch", "idle");
        GitRepository located = new RepositoryLocator(git).locate(repo.dir());

        for (String branch : new String[] {"main", "feature/login", "idle", "nope"}) {
            assertThat(worktrees.checkedOutIn(located, branch))
                    .as(branch)
                    .isEqualTo(worktrees.checkedOutIn(repo.dir(), branch));
        }
        assertThat(worktrees.checkedOutIn(located, "main")).contains(repo.dir());
        assertThat(worktrees.checkedOutIn(located, "feature/login")).contains(linked);
        assertThat(worktrees.checkedOutIn(located, "idle")).isEmpty();
        assertThat(detached).exists();
    }

    @Test
    void checkedOutInSeesALinkedWorktreeOfALinkedWorktreeAndAfterItsRemoval() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("repo"));
        repo.commitFile("a.txt", "a\n", "first");
        Path linked = repo.addWorktree(tmp.resolve("one"), "one");
        TempRepo.git(
                linked, "worktree", "add", "-q", "-b", "two", tmp.resolve("two").toString());
        GitRepository located = new RepositoryLocator(git).locate(linked);
        assertThat(worktrees.checkedOutIn(located, "two")).isEqualTo(worktrees.checkedOutIn(repo.dir(), "two"));
        repo.git("worktree", "remove", tmp.resolve("two").toString());
        assertThat(worktrees.checkedOutIn(located, "two")).isEmpty();
    }

    @Test
    void setIdentityWritesWhatGitReadsInThatWorktreeOnly() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("repo"));
        repo.commitFile("a.txt", "a\n", "first");
        Path wt = repo.addWorktree(tmp.resolve("agent"), "agent/x");
        worktrees.setIdentity(wt, "Paddock agent x", "x@agents.paddock.invalid");

        assertThat(TempRepo.git(wt, "config", "user.name").strip()).isEqualTo("Paddock agent x");
        assertThat(TempRepo.git(wt, "config", "user.email").strip()).isEqualTo("x@agents.paddock.invalid");
        assertThat(repo.git("config", "extensions.worktreeConfig").strip()).isEqualTo("true");
        // The main worktree keeps the repository's identity.
        assertThat(repo.git("config", "user.name").strip()).isEqualTo(TempRepo.USER_NAME);
        // A commit in the worktree carries the agent's identity.
        TempRepo.write(wt, "b.txt", "b\n");
        TempRepo.commitAll(wt, "agent work");
        assertThat(TempRepo.git(wt, "log", "-1", "--format=%an <%ae>").strip())
                .isEqualTo("Paddock agent x <x@agents.paddock.invalid>");

        worktrees.setIdentity(wt, "Paddock agent y", "y@agents.paddock.invalid"); // again: replaced, not doubled
        assertThat(TempRepo.git(wt, "config", "--worktree", "--get-all", "user.name")
                        .strip())
                .isEqualTo("Paddock agent y");
    }

    @Test
    void fingerprintMatchesGitsOwnAnswers() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("repo"));
        repo.commitFile("a.txt", "a\n", "first");
        repo.commitFile("b.txt", "b\n", "second");
        Path wt = repo.addWorktree(tmp.resolve("agent"), "agent/fp");
        worktrees.setIdentity(wt, "Agent", "agent@x.invalid");

        WorktreeManager.Fingerprint clean = worktrees.fingerprint(wt);
        assertThat(clean.toplevel())
                .isEqualTo(TempRepo.git(wt, "rev-parse", "--show-toplevel").strip());
        assertThat(clean.branch()).isEqualTo("agent/fp");
        assertThat(clean.head()).isEqualTo(TempRepo.revParse(wt, "HEAD"));
        assertThat(clean.changedFiles()).isZero();
        assertThat(clean.userName()).isEqualTo("Agent");
        assertThat(clean.userEmail()).isEqualTo("agent@x.invalid");

        // A modified file, an untracked one, a staged rename: three changed paths.
        Files.writeString(wt.resolve("a.txt"), "changed\n");
        Files.writeString(wt.resolve("new file.txt"), "n\n");
        TempRepo.git(wt, "mv", "b.txt", "renamed.txt");
        TempRepo.git(wt, "checkout", "-q", "--detach");
        WorktreeManager.Fingerprint dirty = worktrees.fingerprint(wt);
        assertThat(dirty.changedFiles()).isEqualTo(3);
        assertThat(dirty.branch()).isNull();
        assertThat(dirty.head()).isEqualTo(TempRepo.revParse(wt, "HEAD"));
    }

    @Test
    void statusV2ParsesHeadersRenamesAndAnUnbornBranch() {
        String z = "# branch.oid (initial)\0# branch.head main\0"
                + "1 .M N... 100644 100644 100644 a a a.txt\0"
                + "2 R. N... 100644 100644 100644 b b R100 new.txt\0old.txt\0"
                + "u UU N... 100644 100644 100644 100644 a b c c.txt\0"
                + "? untracked.txt\0";
        assertThat(StatusV2.parse(z)).isEqualTo(new StatusV2(null, "main", 4));
        assertThat(StatusV2.parse("# branch.oid abc\0# branch.head (detached)\0"))
                .isEqualTo(new StatusV2("abc", null, 0));
        assertThat(Optional.of(StatusV2.parse("")).map(StatusV2::changedFiles)).contains(0);
    }

    @Test
    void checkBranchNameTakesABranchsFullRefNameAsTheBranchAndRefusesOtherRefs() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("names"));

        assertThat(worktrees.checkBranchName(repo.dir(), "refs/heads/zz")).isEqualTo("zz");
        assertThat(worktrees.checkBranchName(repo.dir(), "refs/heads/team/zz")).isEqualTo("team/zz");
        assertThat(worktrees.checkBranchName(repo.dir(), "zz")).isEqualTo("zz");
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> worktrees.checkBranchName(repo.dir(), "refs/remotes/o/x"))
                .isInstanceOf(GitException.class)
                .hasMessageContaining("is not a branch name");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> worktrees.checkBranchName(repo.dir(), "refs/heads/"))
                .isInstanceOf(GitException.class)
                .hasMessageContaining("not a valid branch name");
    }
}
