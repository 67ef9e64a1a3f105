package dev.paddock.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.events.Event;
import dev.paddock.isolation.host.ProcessTree;
import dev.paddock.testing.TempRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Zombies on a real repository, store and processes: orphan worktrees and
 * folders found, adopted and removed; records whose worktree vanished marked and their agents killed;
 * locked and prunable worktrees handled; removals cut short finished.
 */
class ReconcilerTest {
    @TempDir
    Path tmp;

    private SandboxRig rig;
    private TempRepo repo;

    @BeforeEach
    void setUp() throws Exception {
        rig = new SandboxRig(tmp);
        repo = rig.repo;
        repo.excludeWorktreesDir();
        rig.repoService.open(repo.dir());
    }

    @AfterEach
    void tearDown() {
        rig.close();
    }

    @Test
    void aWorktreeUnderWorktreesThatNoRecordOwnsIsAnOrphanReportedOnce() throws Exception {
        rig.create("owned-001", "agent/owned");
        Path stray = repo.addWorktree(rig.worktreesRoot().resolve("stray-001/feature/stray"), "feature/stray");
        repo.addWorktree(tmp.resolve("elsewhere"), "feature/elsewhere");

        Reconciler.Report first = rig.reconciler.reconcile();
        Reconciler.Report second = rig.reconciler.reconcile();

        assertThat(first.orphans()).singleElement().satisfies(o -> {
            assertThat(o.path()).isEqualTo(stray);
            assertThat(o.kind()).isEqualTo(Orphan.Kind.WORKTREE);
            assertThat(o.name()).isEqualTo("stray-001");
            assertThat(o.branch()).isEqualTo("feature/stray");
            assertThat(o.head()).isEqualTo(repo.head());
            assertThat(o.actions()).containsExactly(Orphan.ADOPT, Orphan.REMOVE);
        });
        assertThat(second.orphans()).hasSize(1);
        assertThat(rig.repositoryEvents())
                .filteredOn(e -> e.kind().equals("sandbox.orphan_found"))
                .singleElement()
                .satisfies(e -> assertThat(e.message())
                        .isEqualTo("Orphan .worktrees/stray-001/feature/stray:"
                                + " worktree on feature/stray; no open sandbox owns it; adopt or remove it"));
        assertThat(rig.orphans.list(repo.dir())).extracting(Orphan::path).containsExactly(stray);
    }

    @Test
    void anAdoptedOrphanBecomesASandboxWaitingForAPersonThatCanBeRemovedLikeAnyOther() throws Exception {
        Path stray = repo.addWorktree(rig.worktreesRoot().resolve("stray-001/feature/stray"), "feature/stray");
        String base = repo.head();
        TempRepo.write(stray, "work.txt", "done by hand");
        String work = TempRepo.commitAll(stray, "Work");
        TempRepo.write(stray, "notes.md", "left over");

        SandboxRecord adopted = rig.orphans.adopt(repo.dir(), stray.toString(), "test");

        assertThat(adopted.id()).isEqualTo("stray-001");
        assertThat(adopted.state()).isEqualTo(SandboxState.AWAITING_HUMAN);
        assertThat(adopted.spec().task()).isEqualTo(OrphanService.ADOPTED_TASK);
        assertThat(adopted.workspace().branch()).isEqualTo("feature/stray");
        assertThat(adopted.workspace().baseBranch()).isEqualTo("main");
        assertThat(adopted.workspace().baseCommit()).isEqualTo(base);
        assertThat(adopted.workspace().worktree()).isEqualTo(stray);
        assertThat(rig.kinds("stray-001")).containsExactly("sandbox.adopted");
        assertThat(TempRepo.git(stray, "config", "user.name").strip()).isEqualTo(SandboxCreator.agentName("stray-001"));
        assertThat(new SandboxLayout(repo.dir(), "stray-001", "feature/stray").stateFile())
                .exists();
        assertThat(rig.reconciler.reconcile().orphans()).isEmpty();

        rig.reclaimer.remove("stray-001", RemoveMode.COMMIT, false, "test");

        assertThat(stray).doesNotExist();
        assertThat(repo.git("log", "--format=%s", "feature/stray").lines().toList())
                .startsWith("Paddock: keep what stray-001 left uncommitted", "Work");
        assertThat(TempRepo.revParse(repo.dir(), "feature/stray~1")).isEqualTo(work);
    }

    @Test
    void aRemovedOrphanLeavesDiskAndGitButItsBranchStays() throws Exception {
        Path stray = repo.addWorktree(rig.worktreesRoot().resolve("stray-001/feature/stray"), "feature/stray");
        TempRepo.write(stray, "work.txt", "x");
        String work = TempRepo.commitAll(stray, "Work");
        TempRepo.write(stray, "scratch.txt", "dirty");

        rig.orphans.remove(repo.dir(), stray.toString(), "test");

        assertThat(rig.worktreesRoot().resolve("stray-001")).doesNotExist();
        assertThat(repo.git("worktree", "list", "--porcelain")).doesNotContain("stray-001");
        assertThat(TempRepo.revParse(repo.dir(), "feature/stray")).isEqualTo(work);
        assertThat(rig.repositoryEvents()).extracting(Event::kind).contains("sandbox.orphan_removed");
        assertThat(rig.reconciler.reconcile().orphans()).isEmpty();
    }

    @Test
    void aFolderWithNoWorktreeInItIsAnOrphanThatCanOnlyBeRemoved() throws Exception {
        Path leftover = rig.worktreesRoot().resolve("leftover-001");
        TempRepo.write(leftover, ".paddock/sandbox.json", "{}");

        Orphan o = rig.reconciler.reconcile().orphans().get(0);

        assertThat(o.kind()).isEqualTo(Orphan.Kind.DIRECTORY);
        assertThat(o.path()).isEqualTo(leftover);
        assertThat(o.actions()).containsExactly(Orphan.REMOVE);
        assertThatThrownBy(() -> rig.orphans.adopt(repo.dir(), leftover.toString(), "test"))
                .hasMessageContaining("is not a git worktree");

        rig.orphans.remove(repo.dir(), leftover.toString(), "test");

        assertThat(leftover).doesNotExist();
    }

    @Test
    void lockedAndPrunableOrphansAreReportedWithoutCrashingAndCanBeRemoved() throws Exception {
        Path locked = repo.addWorktree(rig.worktreesRoot().resolve("locked-001/b1"), "b1");
        repo.lockWorktree(locked, "busy");
        Path gone = repo.addWorktree(rig.worktreesRoot().resolve("gone-001/b2"), "b2");
        TempRepo.deleteTree(gone);
        Path lockedGone = repo.addWorktree(rig.worktreesRoot().resolve("lockgone-001/b3"), "b3");
        repo.lockWorktree(lockedGone, null);
        TempRepo.deleteTree(lockedGone);

        List<Orphan> orphans = rig.reconciler.reconcile().orphans();

        assertThat(orphans).extracting(Orphan::name).containsExactly("gone-001", "locked-001", "lockgone-001");
        assertThat(orphans.get(0).prunable()).isTrue();
        assertThat(orphans.get(0).actions()).containsExactly(Orphan.REMOVE);
        assertThat(orphans.get(1).lockedReason()).isEqualTo("busy");
        assertThat(orphans.get(1).actions()).containsExactly(Orphan.ADOPT, Orphan.REMOVE);
        assertThat(orphans.get(2).locked()).isTrue();
        assertThat(orphans.get(2).actions()).containsExactly(Orphan.REMOVE);
        assertThatThrownBy(() -> rig.orphans.adopt(repo.dir(), gone.toString(), "test"))
                .hasMessageContaining("is gone");

        for (Path p : List.of(locked, gone, lockedGone)) {
            rig.orphans.remove(repo.dir(), p.toString(), "test");
        }

        assertThat(repo.git("worktree", "list", "--porcelain").lines().filter(l -> l.startsWith("worktree ")))
                .containsExactly("worktree " + repo.dir());
        assertThat(SandboxRig.tree(rig.worktreesRoot())).containsExactly("");
        assertThat(repo.git("branch", "--format=%(refname:short)").lines()).contains("b1", "b2", "b3");
    }

    @Test
    void onlyOrphansCanBeRemovedOrAdopted() throws Exception {
        SandboxRecord owned = rig.create("owned-001", "agent/owned");
        Path elsewhere = repo.addWorktree(tmp.resolve("elsewhere"), "feature/elsewhere");

        for (String path : List.of(
                owned.workspace().worktreePath(),
                repo.dir().toString(),
                elsewhere.toString(),
                rig.worktreesRoot().toString())) {
            assertThatThrownBy(() -> rig.orphans.remove(repo.dir(), path, "test"))
                    .as(path)
                    .hasMessageContaining("is not an orphan of " + repo.dir());
            assertThatThrownBy(() -> rig.orphans.adopt(repo.dir(), path, "test"))
                    .as(path)
                    .hasMessageContaining("is not an orphan of " + repo.dir());
        }
        assertThatThrownBy(() -> rig.orphans.remove(repo.dir(), "relative/path", "test"))
                .hasMessageContaining("must be absolute");

        assertThat(owned.workspace().worktree()).exists();
        assertThat(elsewhere).exists();
    }

    @Test
    void aRecordWhoseWorktreeVanishedIsMarkedAndItsProcessKilled() throws Exception {
        rig.create("gone-001", "agent/gone", "echo up > \"$PADDOCK_HEARTBEAT_FILE\"; exec sleep 60");
        SandboxRecord running = rig.tickUntil("gone-001", SandboxState.RUNNING, Duration.ofSeconds(10));
        Path heartbeat = new SandboxLayout(repo.dir(), "gone-001", "agent/gone").heartbeatFile();
        SandboxRig.await("the agent to start", () -> Files.exists(heartbeat), Duration.ofSeconds(10));
        SandboxRecord pending = rig.create("gone-002", "agent/gone-2");
        TempRepo.deleteTree(running.workspace().worktree());
        TempRepo.deleteTree(pending.workspace().worktree());

        Reconciler.Report report = rig.reconciler.reconcile();

        assertThat(report.vanished()).containsExactlyInAnyOrder("gone-001", "gone-002");
        SandboxRecord marked = rig.find("gone-001");
        assertThat(marked.state()).isEqualTo(SandboxState.AWAITING_HUMAN);
        assertThat(marked.run().lastError()).isEqualTo(Reconciler.VANISHED);
        assertThat(marked.runRef().pid()).isNull();
        assertThat(ProcessTree.isAlive(running.runRef().pid(), running.runRef().startedAt()))
                .as("agent process")
                .isFalse();
        assertThat(rig.events.ofSandbox("gone-001")).last().satisfies(e -> {
            assertThat(e.kind()).isEqualTo("sandbox.awaiting_human");
            assertThat(e.message())
                    .contains("its worktree " + running.workspace().worktreePath() + " vanished")
                    .contains("its processes are being killed");
        });
        assertThat(rig.find("gone-002").run().lastError()).isEqualTo(Reconciler.VANISHED);
        assertThat(rig.reconciler.reconcile().vanished()).as("marked once").isEmpty();
    }

    @Test
    void aDoneSandboxWhoseWorktreeVanishedGoesToAPerson() throws Exception {
        rig.create("gone-003", "agent/gone-3", "true");
        SandboxRecord done = rig.tickUntil("gone-003", SandboxState.DONE, Duration.ofSeconds(10));
        TempRepo.deleteTree(done.workspace().worktree());

        assertThat(rig.reconciler.reconcile().vanished()).containsExactly("gone-003");
        assertThat(rig.find("gone-003").state()).isEqualTo(SandboxState.AWAITING_HUMAN);
    }

    @Test
    void aRemovalAnEarlierPaddockLeftInCleaningIsFinished() throws Exception {
        SandboxRecord s = rig.create("cut-001", "agent/cut");
        TempRepo.write(s.workspace().worktree(), "scratch.txt", "x");
        rig.store.transition(
                "cut-001",
                Transition.of(SandboxState.PENDING, SandboxState.CLEANING)
                        .detail("mode", "FORCE")
                        .detail("deleteBranch", false));

        assertThat(rig.reconciler.reconcile().resumed())
                .as("a removal of this Paddock, just begun")
                .isEmpty();
        assertThat(rig.newReconciler().reconcile().resumed()).containsExactly("cut-001");

        assertThat(rig.find("cut-001").state()).isEqualTo(SandboxState.CLOSED);
        assertThat(s.workspace().worktree()).doesNotExist();
    }

    @Test
    void aRepositoryThatCannotBeReadIsSkippedAndNothingIsMarked() throws Exception {
        rig.create("moved-001", "agent/moved");
        SandboxRecord before = rig.find("moved-001");
        Path moved = tmp.resolve("repo-moved");
        Files.move(repo.dir(), moved);

        Reconciler.Report report = rig.reconciler.reconcile();

        assertThat(report.skippedRepositories()).containsExactly(repo.dir().toString());
        assertThat(report.vanished()).isEmpty();
        assertThat(rig.find("moved-001")).isEqualTo(before);
        Files.move(moved, repo.dir());
    }
}
