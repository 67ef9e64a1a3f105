package dev.paddock.status;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.Wiring;
import dev.paddock.repo.RepoRecord;
import dev.paddock.settings.PaddockHome;
import dev.paddock.testing.TempRepo;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The repositories a running Paddock watches, and the status it answers for them (API and CLI). */
class WorkspaceTest {
    @TempDir
    Path tmp;

    private Wiring wiring;
    private TempRepo repo;
    private Path login;
    private Path detached;

    @BeforeEach
    void setUp() throws Exception {
        wiring = Wiring.open(PaddockHome.resolve(tmp.resolve("home"), Map.of()));
        repo = TempRepo.init(tmp.resolve("repo"));
        login = repo.addWorktree(tmp.resolve("wt-login"), "feature/login");
        detached = repo.addDetachedWorktree(tmp.resolve("wt-detached"));
    }

    @AfterEach
    void tearDown() {
        wiring.close();
    }

    @Test
    void statusRightAfterOpeningListsEveryWorktree() throws Exception {
        Workspace ws = wiring.workspace();

        RepoRecord opened = ws.open(repo.dir());
        RepositoryStatus s = ws.statusOf(repo.dir());

        assertThat(s.repository().id()).isEqualTo(opened.id());
        assertThat(s.repository().registered()).isTrue();
        assertThat(s.worktrees())
                .extracting(RepositoryStatus.Worktree::path)
                .containsExactlyInAnyOrder(repo.dir().toString(), login.toString(), detached.toString());
        assertThat(s.worktrees().get(0).main()).isTrue();
        assertThat(s.worktrees()).extracting(RepositoryStatus.Worktree::dirty).containsOnly(false);
    }

    @Test
    void theMergeQueuesKeptWorktreeIsNotListedButAnEntrysConflictedOneIs() throws Exception {
        Path kept =
                repo.addDetachedWorktree(repo.dir().resolve(dev.paddock.worktree.WorktreeChanges.KEPT_MERGE_WORKTREE));
        Path entry = repo.addDetachedWorktree(
                repo.dir().resolve(dev.paddock.worktree.WorktreeChanges.MERGE_WORKTREES.resolve("7")));
        Workspace ws = wiring.workspace();
        ws.open(repo.dir());

        RepositoryStatus s = ws.statusOf(repo.dir());

        assertThat(s.worktrees())
                .extracting(RepositoryStatus.Worktree::path)
                .containsExactlyInAnyOrder(
                        repo.dir().toString(), login.toString(), detached.toString(), entry.toString())
                .doesNotContain(kept.toString());
    }

    @Test
    void statusOfARepositoryNobodyOpenedDoesNotRegisterIt() throws Exception {
        Workspace ws = wiring.workspace();

        RepositoryStatus s = ws.statusOf(login);

        assertThat(s.repository().registered()).isFalse();
        assertThat(s.repository().id()).isNull();
        assertThat(s.repository().path()).isEqualTo(repo.dir().toString());
        assertThat(s.worktrees()).hasSize(3);
        assertThat(ws.recent()).isEmpty();
    }

    @Test
    void openingTheSameRepositoryFromTwoOfItsWorktreesGivesOneRecord() throws Exception {
        Workspace ws = wiring.workspace();

        RepoRecord a = ws.open(repo.dir());
        RepoRecord b = ws.open(login);

        assertThat(b.id()).isEqualTo(a.id());
        assertThat(ws.recent()).hasSize(1);
        assertThat(ws.mostRecentWatched()).get().extracting(RepoRecord::id).isEqualTo(a.id());
    }
}
