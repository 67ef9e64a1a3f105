package dev.paddock.worktree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.common.PaddockException;
import dev.paddock.events.EventKinds;
import dev.paddock.events.EventLog;
import dev.paddock.repo.RepoService;
import dev.paddock.repo.RepoStore;
import dev.paddock.store.Database;
import dev.paddock.testing.TempRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RepositoryLocatorTest {
    @TempDir
    Path tmp;

    private final GitCli git = new GitCli();
    private final RepositoryLocator locator = new RepositoryLocator(git);

    @Test
    void everyPlaceInsideTheRepositoryLocatesTheSameMainWorktreeAndCommonDir() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("repo"));
        repo.write("src/main/App.java", "class App {}\n");
        repo.commitAll("Add app");
        Path linked = repo.addWorktree(tmp.resolve("linked"), "feature/login");
        GitRepository expected = new GitRepository(repo.dir(), repo.dir().resolve(".git"), "main");

        assertThat(locator.locate(repo.dir())).isEqualTo(expected);
        assertThat(locator.locate(repo.dir().resolve("src/main"))).isEqualTo(expected);
        assertThat(locator.locate(repo.dir().resolve("src/main/App.java"))).isEqualTo(expected);
        assertThat(locator.locate(repo.dir().resolve(".git"))).isEqualTo(expected);
        assertThat(locator.locate(linked)).isEqualTo(expected);
        assertThat(locator.locate(linked.resolve("src/main"))).isEqualTo(expected);
    }

    @Test
    void aSandboxWorktreeWhoseGitFileAnAgentRepointedStillLocatesItsMainWorktree() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("repo")).excludeWorktreesDir();
        Path sandbox = repo.addWorktree(repo.dir().resolve(".worktrees/s1/agent/fix"), "agent/fix");
        // The agent makes a repository of its own inside its worktree and points the worktree's .git file at it.
        TempRepo own = TempRepo.init(sandbox.resolve("own"));
        Files.writeString(sandbox.resolve(".git"), "gitdir: " + own.dir().resolve(".git") + "\n");
        assertThat(TempRepo.git(sandbox, "rev-parse", "--show-toplevel").strip())
                .as("git itself is fooled")
                .isEqualTo(sandbox.toString());

        assertThat(locator.locate(sandbox).mainWorktree()).isEqualTo(repo.dir());
        assertThat(locator.locate(sandbox.resolve("own")).mainWorktree()).isEqualTo(repo.dir());
        assertThat(MainWorktree.of(sandbox.resolve("own/src"))).contains(repo.dir());
    }

    @Test
    void relativeAndUnnormalisedPathsAreResolved() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("repo"));
        Files.createDirectories(repo.dir().resolve("docs"));

        GitRepository found = locator.locate(repo.dir().resolve("docs/../docs/."));

        assertThat(found.mainWorktree()).isEqualTo(repo.dir());
    }

    @Test
    void currentBranchIsTheMainWorktreesBranchEvenFromALinkedWorktree() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("repo"));
        repo.git("switch", "-q", "-c", "develop");
        Path linked = repo.addWorktree(tmp.resolve("linked"), "agent/one");

        assertThat(locator.locate(linked).currentBranch()).isEqualTo("develop");
    }

    @Test
    void detachedMainWorktreeHasNoCurrentBranch() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("repo"));
        repo.git("switch", "-q", "--detach");

        assertThat(locator.locate(repo.dir()).currentBranch()).isNull();
    }

    @Test
    void unbornRepositoryIsLocated() throws Exception {
        TempRepo repo = TempRepo.initEmpty(tmp.resolve("fresh"));

        GitRepository found = locator.locate(repo.dir());

        assertThat(found.mainWorktree()).isEqualTo(repo.dir());
        assertThat(found.currentBranch()).isEqualTo("main");
    }

    @Test
    void folderOutsideAnyRepositoryIsRefusedWithAClearMessage() throws Exception {
        Path plain = Files.createDirectories(tmp.resolve("just a folder"));

        assertThatThrownBy(() -> locator.locate(plain))
                .isInstanceOf(GitException.class)
                .hasMessageContaining("not inside a git repository")
                .hasMessageContaining("git init");
    }

    @Test
    void missingPathIsRefusedWithAClearMessage() {
        assertThatThrownBy(() -> locator.locate(tmp.resolve("nowhere")))
                .isInstanceOf(GitException.class)
                .hasMessageContaining("does not exist");
    }

    @Test
    void bareRepositoryIsRefusedWithAMessageAboutBare() {
        Path bare = tmp.resolve("project.git");
        TempRepo.initBare(bare, false);

        assertThatThrownBy(() -> locator.locate(bare))
                .isInstanceOf(GitException.class)
                .hasMessageContaining("bare")
                .hasMessageContaining("clone");
        assertThatThrownBy(() -> locator.locate(bare.resolve("refs")))
                .isInstanceOf(GitException.class)
                .hasMessageContaining("bare");
    }

    @Test
    void linkedWorktreeOfABareRepositoryIsRefusedWithAMessageAboutBare() {
        TempRepo source = TempRepo.init(tmp.resolve("source"));
        Path bare = tmp.resolve("project.git");
        TempRepo.git(tmp, "clone", "-q", "--bare", source.dir().toString(), bare.toString());
        Path wt = tmp.resolve("checkout");
        TempRepo.git(bare, "worktree", "add", "-q", wt.toString(), "main");

        assertThatThrownBy(() -> locator.locate(wt))
                .isInstanceOf(GitException.class)
                .hasMessageContaining("bare repository");
    }

    @Test
    void repositoryUnderNonAsciiPathWithSpacesIsLocatedAndListed() throws Exception {
        assertThat(System.getProperty("sun.jnu.encoding"))
                .as("file names must be UTF-8 in the test JVM (run with LC_ALL=C.UTF-8)")
                .isEqualTo("UTF-8");
        TempRepo repo = TempRepo.init(tmp.resolve("Проекты").resolve("My Répo"));
        Path linked = repo.addWorktree(repo.dir().resolve(".worktrees/fix-ünï 001/agent"), "agent/ünï");
        TempRepo.write(linked, "Заметки.txt", "x\n");

        GitRepository found = locator.locate(linked);
        try (WorktreeLister lister = new WorktreeLister(git)) {
            var list = lister.list(found);

            assertThat(found.mainWorktree()).isEqualTo(repo.dir());
            assertThat(found.mainWorktree().toString()).endsWith("/Проекты/My Répo");
            assertThat(found.commonDir()).isEqualTo(repo.dir().resolve(".git"));
            assertThat(list).extracting(WorktreeInfo::path).containsExactly(repo.dir(), linked);
            assertThat(list.get(1).branch()).isEqualTo("agent/ünï");
            assertThat(list.get(1).dirty()).isTrue();
            assertThat(WorktreeChanges.display(found.mainWorktree(), linked)).isEqualTo("fix-ünï 001");
        }
    }

    // --- RepoService: the base branch recorded for a newly opened repository ---

    private String registeredBaseBranch(Path repoPath) throws PaddockException {
        try (Database db = Database.open(tmp.resolve("store").resolve("paddock"))) {
            RepoService service = new RepoService(
                    locator, git, new RepoStore(db, Clock.systemUTC()), new EventLog(db, Clock.systemUTC()));
            return service.open(repoPath).record().baseBranch();
        }
    }

    @Test
    void baseBranchIsTheBranchCheckedOutInTheMainWorktree() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("repo"));
        repo.git("switch", "-q", "-c", "develop");

        assertThat(registeredBaseBranch(repo.dir())).isEqualTo("develop");
    }

    @Test
    void detachedMainWorktreeTakesMainAsBaseBranch() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("repo"));
        repo.git("branch", "-q", "topic");
        repo.git("switch", "-q", "--detach", "topic");

        assertThat(registeredBaseBranch(repo.dir())).isEqualTo("main");
    }

    @Test
    void detachedMainWorktreeTakesMasterWhenThereIsNoMain() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("repo"));
        repo.git("branch", "-q", "-m", "main", "master");
        repo.git("branch", "-q", "alpha");
        repo.git("switch", "-q", "--detach", "alpha");

        assertThat(registeredBaseBranch(repo.dir())).isEqualTo("master");
    }

    @Test
    void openingFromALinkedWorktreeRegistersTheMainWorktreeOnce() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("repo"));
        Path linked = repo.addWorktree(tmp.resolve("linked"), "agent/one");
        try (Database db = Database.open(tmp.resolve("store").resolve("paddock"))) {
            EventLog events = new EventLog(db, Clock.systemUTC());
            RepoService service = new RepoService(locator, git, new RepoStore(db, Clock.systemUTC()), events);

            RepoService.OpenedRepo first = service.open(repo.dir());
            RepoService.OpenedRepo second = service.open(linked);

            assertThat(second.record().id()).isEqualTo(first.record().id());
            assertThat(second.record().path()).isEqualTo(repo.dir());
            assertThat(second.record().baseBranch()).isEqualTo("main");
            assertThat(events.recent(first.record().id(), 10))
                    .extracting(e -> e.kind())
                    .containsExactly(EventKinds.REPOSITORY_REGISTERED);
        }
    }
}
