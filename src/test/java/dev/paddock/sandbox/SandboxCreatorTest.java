package dev.paddock.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.Wiring;
import dev.paddock.settings.PaddockHome;
import dev.paddock.testing.TempRepo;
import dev.paddock.worktree.GitException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Creating sandboxes on a real repository: what is made, and bad input that changes nothing. */
class SandboxCreatorTest {
    @TempDir
    Path tmp;

    TempRepo repo;
    Wiring wiring;

    @BeforeEach
    void open() throws Exception {
        repo = TempRepo.init(tmp.resolve("My Répo"));
        repo.commitFile("README.md", "hello\n", "Add readme");
        wiring = Wiring.open(PaddockHome.resolve(tmp.resolve("home"), Map.of()));
    }

    @AfterEach
    void close() {
        wiring.close();
    }

    /** Creates a sandbox and waits for its health fingerprint (taken just after the create returns). */
    SandboxRecord create(NewSandbox request) throws Exception {
        SandboxRecord s = wiring.sandboxService().create(request);
        assertThat(wiring.fingerprints().await(s.id(), java.time.Duration.ofSeconds(30)))
                .isTrue();
        return s;
    }

    NewSandbox.Builder request() {
        return NewSandbox.custom(repo.dir(), "Fix the auth timeout", "true");
    }

    /** Everything that bad input must leave untouched. */
    record Snapshot(String branches, String worktrees, List<String> dirs, long records) {}

    Snapshot snapshot() throws Exception {
        Path root = repo.dir().resolve(".worktrees");
        List<String> dirs = Files.isDirectory(root)
                ? Files.list(root).map(p -> p.getFileName().toString()).sorted().toList()
                : List.of();
        long records = wiring.database()
                .jdbc()
                .queryOne("SELECT COUNT(*) FROM sandboxes", rs -> rs.getLong(1))
                .orElseThrow();
        return new Snapshot(repo.git("branch", "--list"), repo.git("worktree", "list", "--porcelain"), dirs, records);
    }

    @Test
    void aSandboxGetsAnIdABranchAWorktreeAnIdentityAStateFileAndAFingerprint() throws Exception {
        SandboxRecord s = create(request().build());

        assertThat(s.id()).matches("fix-auth-timeout-\\d{8}-001");
        assertThat(s.workspace().branch()).isEqualTo("agent/fix-auth-timeout");
        assertThat(s.workspace().baseBranch()).isEqualTo("main");
        assertThat(s.workspace().baseCommit()).isEqualTo(repo.head());
        assertThat(s.workspace().worktree())
                .isEqualTo(repo.dir().resolve(".worktrees/" + s.id() + "/agent/fix-auth-timeout"));
        assertThat(repo.git("worktree", "list", "--porcelain"))
                .contains("worktree " + s.workspace().worktree());
        assertThat(TempRepo.git(s.workspace().worktree(), "config", "user.name").strip())
                .isEqualTo("Paddock agent " + s.id());
        assertThat(repo.git("config", "--get", "user.name").strip())
                .as("the repository's own identity stays")
                .isEqualTo(TempRepo.USER_NAME);
        Path stateFile = repo.dir().resolve(".worktrees/" + s.id() + "/.paddock/sandbox.json");
        assertThat(wiring.sandboxes().fingerprintOf(s.id()).orElseThrow())
                .contains("\"branch\":\"agent/fix-auth-timeout\"")
                .contains("\"changedFiles\":0")
                .contains("\"toplevel\":\"" + s.workspace().worktree() + "\"");
        assertThat(Files.readString(stateFile))
                .contains("\"id\" : \"" + s.id() + "\"")
                .contains("\"baseCommit\"")
                .contains("\"fingerprint\" : {")
                .contains("\"userName\" : \"Paddock agent " + s.id() + "\"");
        assertThat(Files.readString(repo.dir().resolve(".git/info/exclude"))).contains("/.worktrees/");

        SandboxRecord second = create(request().build());
        assertThat(second.id()).endsWith("-002");
        assertThat(second.workspace().branch()).isEqualTo("agent/fix-auth-timeout-2");
    }

    @Test
    void aBranchNameWithSlashesNestsTheWorktree() throws Exception {
        SandboxRecord s = create(request().branch("team/alice/fix-42").build());
        assertThat(s.workspace().worktree())
                .isEqualTo(repo.dir().resolve(".worktrees/" + s.id() + "/team/alice/fix-42"));
        assertThat(Files.isDirectory(s.workspace().worktree().resolve(".git"))
                        || Files.isRegularFile(s.workspace().worktree().resolve(".git")))
                .isTrue();
    }

    @Test
    void anInvalidBranchNameIsRefusedAndChangesNothing() throws Exception {
        Snapshot before = snapshot();
        for (String bad : List.of("fix..auth", "has space", "-leading-dash", "ends.lock", "a~b", "refs/../x")) {
            assertThatThrownBy(() -> create(request().branch(bad).build()))
                    .as(bad)
                    .isInstanceOf(GitException.class)
                    .hasMessageContaining("not a valid branch name");
        }
        assertThat(snapshot()).isEqualTo(before);
    }

    @Test
    void anIdThatWouldLeaveDotWorktreesIsRefusedAndChangesNothing() throws Exception {
        Snapshot before = snapshot();
        for (String bad : List.of("..", "../escape", "a/b", "UPPER", "x..y/../..", "")) {
            if (bad.isEmpty()) {
                continue; // empty means "make one up"
            }
            assertThatThrownBy(() -> create(request().id(bad).build()))
                    .as(bad)
                    .isInstanceOf(SandboxException.class)
                    .hasMessageContaining("not a valid sandbox id");
        }
        assertThat(snapshot()).isEqualTo(before);
    }

    @Test
    void anExistingTargetDirectoryIsRefusedAndChangesNothing() throws Exception {
        Files.createDirectories(repo.dir().resolve(".worktrees/taken-001/something"));
        Snapshot before = snapshot();

        assertThatThrownBy(() -> create(request().id("taken-001").build()))
                .isInstanceOf(SandboxException.class)
                .hasMessageContaining("exists already");
        assertThat(snapshot()).isEqualTo(before);
    }

    @Test
    void anEmptyAgentCommandOrTaskIsRefusedAndChangesNothing() throws Exception {
        Snapshot before = snapshot();
        assertThatThrownBy(() -> create(NewSandbox.of(repo.dir(), "A task", "   ")))
                .isInstanceOf(SandboxException.class)
                .hasMessageContaining("agent command is empty");
        assertThatThrownBy(() -> create(NewSandbox.of(repo.dir(), "", "true")))
                .isInstanceOf(SandboxException.class)
                .hasMessageContaining("task is empty");
        assertThat(snapshot()).isEqualTo(before);
    }

    @Test
    void aBranchCheckedOutElsewhereIsRefusedAndChangesNothing() throws Exception {
        repo.addWorktree(tmp.resolve("elsewhere"), "agent/busy");
        Snapshot before = snapshot();

        assertThatThrownBy(() -> create(request().branch("agent/busy").build()))
                .isInstanceOf(SandboxException.class)
                .hasMessageContaining("already checked out in");
        assertThatThrownBy(() -> create(request().branch("main").build()))
                .isInstanceOf(SandboxException.class)
                .hasMessageContaining("already checked out in");
        assertThat(snapshot()).isEqualTo(before);
    }

    @Test
    void anExistingBranchNotCheckedOutIsReused() throws Exception {
        repo.branch("agent/resume");
        SandboxRecord s = create(request().branch("agent/resume").build());
        assertThat(wiring.sandboxService().history(s.id()))
                .extracting(e -> e.kind())
                .contains("sandbox.branch_reused");
    }

    @Test
    void aBranchGivenAsItsFullRefNameIsThatBranchNotOneNestedUnderRefsHeads() throws Exception {
        SandboxRecord s = create(request().branch("refs/heads/zz").build());

        assertThat(s.workspace().branch()).isEqualTo("zz");
        assertThat(s.workspace().worktree()).isEqualTo(repo.dir().resolve(".worktrees/" + s.id() + "/zz"));
        assertThat(repo.git("for-each-ref", "--format=%(refname)", "refs/heads/"))
                .contains("refs/heads/zz\n")
                .doesNotContain("refs/heads/refs/");
    }

    @Test
    void aBranchNamedLikeAnotherKindOfRefIsRefusedAndChangesNothing() throws Exception {
        Snapshot before = snapshot();
        assertThatThrownBy(() -> create(request().branch("refs/tags/v1").build()))
                .isInstanceOf(GitException.class)
                .hasMessageContaining("is not a branch name: it would make the branch" + " refs/heads/refs/tags/v1");
        assertThat(snapshot()).isEqualTo(before);
    }

    @Test
    void baseHeadWhileTheMainWorktreeIsOnABranchMeansThatBranch() throws Exception {
        repo.git("switch", "--quiet", "-c", "develop");
        String develop = repo.commitFile("dev.txt", "d\n", "Develop");

        SandboxRecord s = create(request().baseBranch("HEAD").build());

        assertThat(s.workspace().baseBranch()).isEqualTo("develop");
        assertThat(s.workspace().baseCommit()).isEqualTo(develop);
        assertThat(create(request().baseBranch("refs/heads/main").build())
                        .workspace()
                        .baseBranch())
                .isEqualTo("main");
    }

    @Test
    void aBaseThatIsNoLocalBranchIsRefusedSayingWhatItIsAndChangesNothing() throws Exception {
        String head = repo.head();
        repo.git("tag", "v1");
        repo.git("update-ref", "refs/remotes/origin/main", head);
        repo.git("switch", "--quiet", "--detach");
        Snapshot before = snapshot();

        assertThatThrownBy(() -> create(request().baseBranch("HEAD").build()))
                .isInstanceOf(SandboxException.class)
                .hasMessageContaining(
                        "The base \"HEAD\" is a detached HEAD in " + repo.dir()
                                + ": there is no branch to merge the sandbox's work back into. Give a local branch as the base");
        assertThatThrownBy(() -> create(request().baseBranch(head).build()))
                .isInstanceOf(SandboxException.class)
                .hasMessageContaining("names the commit " + head.substring(0, 8) + ", not a branch")
                .hasMessageContaining("git branch NAME " + head);
        assertThatThrownBy(() -> create(request().baseBranch("main~0").build()))
                .isInstanceOf(SandboxException.class)
                .hasMessageContaining("names the commit");
        assertThatThrownBy(() -> create(request().baseBranch("origin/main").build()))
                .isInstanceOf(SandboxException.class)
                .hasMessageContaining("is the remote-tracking branch origin/main: only git fetch moves it")
                .hasMessageContaining("git branch --track NAME origin/main");
        assertThatThrownBy(() -> create(request().baseBranch("v1").build()))
                .isInstanceOf(SandboxException.class)
                .hasMessageContaining("is the tag v1, not a branch");
        assertThat(snapshot()).isEqualTo(before);
    }

    @Test
    void aBaseThatNamesNoCommitIsRefusedAndChangesNothing() throws Exception {
        Snapshot before = snapshot();
        assertThatThrownBy(() -> create(request().baseBranch("no-such-branch").build()))
                .isInstanceOf(GitException.class)
                .hasMessageContaining("names no commit");
        assertThat(snapshot()).isEqualTo(before);
    }
}
