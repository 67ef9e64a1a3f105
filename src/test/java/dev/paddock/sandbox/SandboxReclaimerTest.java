package dev.paddock.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.events.Event;
import dev.paddock.isolation.host.ProcessTree;
import dev.paddock.testing.TempRepo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Removing sandboxes on a real repository, a real H2 store and real agent processes:
 * strict by default, commit or force on request, the branch deleted only once merged or when asked, the
 * record closed and never deleted, and paths outside {@code .worktrees/<id>/} never touched.
 */
class SandboxReclaimerTest {
    @TempDir
    Path tmp;

    private SandboxRig rig;

    @BeforeEach
    void setUp() throws Exception {
        rig = new SandboxRig(tmp);
    }

    @AfterEach
    void tearDown() {
        rig.close();
    }

    @Test
    void planTellsWhatRemovalWouldLoseAndChangesNothing() throws Exception {
        SandboxRecord s = rig.create("plan-001", "agent/plan");
        TempRepo.write(s.workspace().worktree(), "feature.txt", "x");
        String commit = TempRepo.commitAll(s.workspace().worktree(), "Add feature");
        TempRepo.write(s.workspace().worktree(), "notes.md", "scratch");
        List<String> disk = SandboxRig.tree(rig.repo.dir());

        RemovalPlan plan = rig.reclaimer.plan("plan-001");

        assertThat(plan.sandboxId()).isEqualTo("plan-001");
        assertThat(plan.worktreePresent()).isTrue();
        assertThat(plan.running()).isFalse();
        assertThat(plan.uncommitted()).containsExactly("?? notes.md");
        assertThat(plan.unmergedCommits()).containsExactly(commit.substring(0, 7) + " Add feature");
        assertThat(plan.branchMerged()).isFalse();
        assertThat(plan.locked()).isFalse();
        assertThat(plan.losesNothing()).isFalse();
        assertThat(SandboxRig.tree(rig.repo.dir())).isEqualTo(disk);
        assertThat(rig.find("plan-001").version()).isEqualTo(s.version());
    }

    @Test
    void planCountsTheIgnoredFilesThatGoWithTheWorktreeAndItsTopFolders() throws Exception {
        SandboxRecord s = rig.create("ign-001", "agent/ign");
        ignoredContent(s.workspace().worktree(), 3);

        RemovalPlan plan = rig.reclaimer.plan("ign-001");

        assertThat(plan.losesNothing()).as("ignored files are not work").isFalse(); // the .gitignore is untracked
        assertThat(plan.uncommitted()).containsExactly("?? .gitignore");
        assertThat(plan.ignored().files()).isEqualTo(3 + 4 + 1);
        assertThat(plan.ignored().more()).isFalse();
        assertThat(plan.ignored().folders()).containsExactly("node_modules/", "build/");
        assertThat(plan.ignored().summary()).isEqualTo("8 ignored files in node_modules/, build/");
        assertThatThrownBy(() -> rig.reclaimer.remove("ign-001", RemoveMode.STRICT, false, "test"))
                .isInstanceOf(RemovalRefusedException.class)
                .hasMessageContaining("\n- not counted as work, but removing also deletes 8 ignored files in"
                        + " node_modules/, build/ (git ignores them: build output and the like)\n");
    }

    @Test
    void theIgnoredFileWalkStopsAtItsCapAndSaysMoreThan() throws Exception {
        SandboxRecord s = rig.create("cap-001", "agent/cap");
        ignoredContent(s.workspace().worktree(), 50);

        IgnoredFiles capped =
                IgnoredFiles.of(new dev.paddock.worktree.GitCli(), s.workspace().worktree(), 20);

        assertThat(capped.files()).isEqualTo(20);
        assertThat(capped.more()).isTrue();
        assertThat(capped.summary()).startsWith("more than 20 ignored files in ");
        assertThat(IgnoredFiles.of(
                                new dev.paddock.worktree.GitCli(), s.workspace().worktree(), 1_000)
                        .summary())
                .isEqualTo("55 ignored files in node_modules/, build/");
    }

    /**
     * A {@code .gitignore} (untracked) ignoring {@code build/}, {@code node_modules/} and {@code *.log}, with
     * {@code build/} holding 3 files and {@code node_modules/} {@code modules} packages of one file each plus
     * one more, and one log file at the top.
     */
    private static void ignoredContent(Path worktree, int modules) throws Exception {
        TempRepo.write(worktree, ".gitignore", "build/\nnode_modules/\n*.log\n");
        TempRepo.write(worktree, "build/classes/A.class", "a");
        TempRepo.write(worktree, "build/classes/B.class", "b");
        TempRepo.write(worktree, "build/app.jar", "jar");
        for (int i = 0; i < modules; i++) {
            TempRepo.write(worktree, "node_modules/pkg" + i + "/index.js", "module.exports = " + i + ";");
        }
        TempRepo.write(worktree, "node_modules/.package-lock.json", "{}");
        TempRepo.write(worktree, "debug.log", "log");
    }

    @Test
    void strictRemovalOfADirtyWorktreeIsRefusedListingThePathsAndChangesNothing() throws Exception {
        SandboxRecord s = rig.create("dirty-001", "agent/dirty");
        TempRepo.write(s.workspace().worktree(), "notes.md", "scratch");
        TempRepo.write(s.workspace().worktree(), "README.md", "changed\n");
        Snapshot before = snapshot("dirty-001");

        assertThatThrownBy(() -> rig.reclaimer.remove("dirty-001", RemoveMode.STRICT, false, "test"))
                .isInstanceOf(RemovalRefusedException.class)
                .hasMessageStartingWith("Removing dirty-001 would lose work, so nothing was removed:")
                .hasMessageContaining("2 uncommitted paths in " + s.workspace().worktreePath() + ":")
                .hasMessageContaining(" M README.md")
                .hasMessageContaining("?? notes.md")
                .hasMessageContaining("Choose: keep it (do nothing); commit")
                .hasMessageContaining("or force (removes the worktree with everything in it; the branch agent/dirty"
                        + " is kept unless you also ask to delete it)")
                .satisfies(e -> assertThat(((RemovalRefusedException) e).plan().uncommitted())
                        .hasSize(2));

        assertThat(snapshot("dirty-001")).isEqualTo(before);
    }

    @Test
    void strictRemovalWithUnmergedCommitsIsRefusedListingTheCommitsAndChangesNothing() throws Exception {
        SandboxRecord s = rig.create("ahead-001", "agent/ahead");
        TempRepo.write(s.workspace().worktree(), "a.txt", "a");
        String first = TempRepo.commitAll(s.workspace().worktree(), "Add a");
        TempRepo.write(s.workspace().worktree(), "b.txt", "b");
        String second = TempRepo.commitAll(s.workspace().worktree(), "Add b");
        Snapshot before = snapshot("ahead-001");

        assertThatThrownBy(() -> rig.reclaimer.remove("ahead-001", null, false, "test"))
                .isInstanceOf(RemovalRefusedException.class)
                .hasMessageContaining("2 commits that main does not have: " + second.substring(0, 7) + " Add b; "
                        + first.substring(0, 7) + " Add a")
                .hasMessageNotContaining("uncommitted");

        assertThat(snapshot("ahead-001")).isEqualTo(before);
    }

    @Test
    void strictRemovalOfAMergedSandboxRemovesWorktreeFolderAndBranchClosesTheRecordAndKeepsTheLog() throws Exception {
        rig.create(
                "merged-001",
                "agent/merged",
                "echo working; echo a > a.txt && git add a.txt" + " && git commit -q -m 'Add a'");
        rig.tickUntil("merged-001", SandboxState.DONE, Duration.ofSeconds(20));
        rig.repo.git("merge", "--no-ff", "--quiet", "-m", "Merge agent/merged", "agent/merged");
        Path log = rig.supervisor.logFile("merged-001");
        assertThat(Files.readString(log, StandardCharsets.UTF_8)).contains("working");
        SandboxRecord s = rig.find("merged-001");

        SandboxRecord closed = rig.reclaimer.remove("merged-001", RemoveMode.STRICT, false, "test");

        assertThat(closed.state()).isEqualTo(SandboxState.CLOSED);
        assertThat(rig.find("merged-001").state()).as("the record is kept").isEqualTo(SandboxState.CLOSED);
        assertThat(s.workspace().worktree()).doesNotExist();
        assertThat(rig.worktreesRoot().resolve("merged-001")).doesNotExist();
        assertThat(branchExists("agent/merged")).isFalse();
        assertThat(rig.repo.git("worktree", "list", "--porcelain")).doesNotContain("merged-001");
        assertThat(rig.repo.git("show", "main:a.txt")).isEqualTo("a\n");
        assertThat(log).as("the agent's log stays").exists();
        assertThat(rig.kinds("merged-001"))
                .containsSubsequence(
                        "sandbox.cleaning",
                        "sandbox.worktree_removed",
                        "sandbox.directory_removed",
                        "sandbox.branch_deleted",
                        "sandbox.closed");
    }

    @Test
    void aSandboxThatDidNothingIsRemovedStrictlyTogetherWithItsBranch() throws Exception {
        rig.create("idle-001", "agent/idle");

        rig.reclaimer.remove("idle-001", RemoveMode.STRICT, false, "test");

        assertThat(branchExists("agent/idle"))
                .as("a branch with no commits of its own is merged")
                .isFalse();
        assertThat(rig.find("idle-001").state()).isEqualTo(SandboxState.CLOSED);
    }

    @Test
    void aSandboxWhoseBaseBranchWasDeletedIsComparedWithTheCommitItStartedFrom() throws Exception {
        rig.repo.branch("feature");
        SandboxRecord idle = rig.creator.create(NewSandbox.custom(rig.repo.dir(), "idle", "true")
                .id("gone-001")
                .branch("agent/gone")
                .baseBranch("feature")
                .build());
        rig.awaitFingerprint("gone-001");
        SandboxRecord busy = rig.creator.create(NewSandbox.custom(rig.repo.dir(), "busy", "true")
                .id("gone-002")
                .branch("agent/gone2")
                .baseBranch("feature")
                .build());
        rig.awaitFingerprint("gone-002");
        TempRepo.write(busy.workspace().worktree(), "a.txt", "a");
        String commit = TempRepo.commitAll(busy.workspace().worktree(), "Add a");
        rig.repo.git("branch", "-D", "feature");

        assertThat(rig.reclaimer.plan("gone-002").comparedWith())
                .isEqualTo("the commit " + idle.workspace().baseCommit().substring(0, 8) + " it started from");
        assertThatThrownBy(() -> rig.reclaimer.remove("gone-002", RemoveMode.STRICT, false, "test"))
                .isInstanceOf(RemovalRefusedException.class)
                .hasMessageContaining("1 commit that the commit "
                        + idle.workspace().baseCommit().substring(0, 8) + " it started from does not have: "
                        + commit.substring(0, 7) + " Add a");
        rig.reclaimer.remove("gone-002", RemoveMode.FORCE, false, "test");
        assertThat(TempRepo.revParse(rig.repo.dir(), "agent/gone2"))
                .as("kept: not merged")
                .isEqualTo(commit);

        rig.reclaimer.remove("gone-001", RemoveMode.STRICT, false, "test");
        assertThat(rig.find("gone-001").state()).isEqualTo(SandboxState.CLOSED);
        assertThat(branchExists("agent/gone"))
                .as("no commit of its own since it started")
                .isFalse();
    }

    @Test
    void aSandboxRecordedWithABaseThatIsNoBranchIsRemovedAgainstItsStartCommit() throws Exception {
        SandboxRecord s = rig.create("legacy-001", "agent/legacy");
        for (String legacy : List.of("HEAD", "origin/main", s.workspace().baseCommit())) {
            rig.db.jdbc().update("UPDATE sandboxes SET base_branch = ? WHERE id = ?", legacy, s.id());
            assertThat(rig.reclaimer.plan("legacy-001").losesNothing())
                    .as(legacy)
                    .isTrue();
        }

        rig.reclaimer.remove("legacy-001", RemoveMode.STRICT, false, "test");

        assertThat(rig.find("legacy-001").state()).isEqualTo(SandboxState.CLOSED);
        assertThat(s.workspace().worktree()).doesNotExist();
    }

    @Test
    void commitModeKeepsTheLeftoversOnTheBranchWithTheAgentsIdentity() throws Exception {
        SandboxRecord s = rig.create("keep-001", "agent/keep");
        TempRepo.write(s.workspace().worktree(), "notes.md", "scratch");
        TempRepo.write(s.workspace().worktree(), "README.md", "changed\n");

        rig.reclaimer.remove("keep-001", RemoveMode.COMMIT, false, "test");

        assertThat(s.workspace().worktree()).doesNotExist();
        assertThat(rig.worktreesRoot().resolve("keep-001")).doesNotExist();
        assertThat(branchExists("agent/keep")).isTrue();
        assertThat(rig.repo
                        .git("log", "-1", "--format=%an|%ae|%s", "agent/keep")
                        .strip())
                .isEqualTo(SandboxCreator.agentName("keep-001") + "|" + SandboxCreator.agentEmail("keep-001")
                        + "|Paddock: keep what keep-001 left uncommitted");
        assertThat(rig.repo.git("show", "agent/keep:notes.md")).isEqualTo("scratch");
        assertThat(rig.repo.git("show", "agent/keep:README.md")).isEqualTo("changed\n");
        assertThat(rig.kinds("keep-001"))
                .containsSubsequence(
                        "sandbox.leftovers_committed",
                        "sandbox.cleaning",
                        "sandbox.worktree_removed",
                        "sandbox.branch_kept",
                        "sandbox.closed");
        assertThat(rig.find("keep-001").state()).isEqualTo(SandboxState.CLOSED);
    }

    @Test
    void commitModeWithDeleteBranchIsRefusedBecauseItWouldThrowTheWorkAway() throws Exception {
        SandboxRecord s = rig.create("both-001", "agent/both");
        TempRepo.write(s.workspace().worktree(), "notes.md", "scratch");
        Snapshot before = snapshot("both-001");

        assertThatThrownBy(() -> rig.reclaimer.remove("both-001", RemoveMode.COMMIT, true, "test"))
                .isInstanceOf(SandboxException.class)
                .hasMessageContaining("deleting the branch as well would throw that work away. Nothing was removed");

        assertThat(snapshot("both-001")).isEqualTo(before);
    }

    @Test
    void forceRemovesADirtyWorktreeButKeepsTheUnmergedBranch() throws Exception {
        SandboxRecord s = rig.create("force-001", "agent/force");
        TempRepo.write(s.workspace().worktree(), "a.txt", "a");
        String commit = TempRepo.commitAll(s.workspace().worktree(), "Add a");
        TempRepo.write(s.workspace().worktree(), "scratch.txt", "lost on purpose");

        rig.reclaimer.remove("force-001", RemoveMode.FORCE, false, "test");

        assertThat(s.workspace().worktree()).doesNotExist();
        assertThat(rig.worktreesRoot().resolve("force-001")).doesNotExist();
        assertThat(TempRepo.revParse(rig.repo.dir(), "agent/force")).isEqualTo(commit);
        assertThat(rig.kinds("force-001")).contains("sandbox.branch_kept").doesNotContain("sandbox.branch_deleted");
        assertThat(rig.find("force-001").state()).isEqualTo(SandboxState.CLOSED);
    }

    @Test
    void forceWithDeleteBranchDeletesAnUnmergedBranchAndRecordsItsTip() throws Exception {
        SandboxRecord s = rig.create("drop-001", "agent/drop");
        TempRepo.write(s.workspace().worktree(), "a.txt", "a");
        String commit = TempRepo.commitAll(s.workspace().worktree(), "Add a");

        rig.reclaimer.remove("drop-001", RemoveMode.FORCE, true, "test");

        assertThat(branchExists("agent/drop")).isFalse();
        Event deleted = rig.events.ofSandbox("drop-001").stream()
                .filter(e -> e.kind().equals("sandbox.branch_deleted"))
                .findFirst()
                .orElseThrow();
        assertThat(deleted.details()).contains("\"tip\":\"" + commit + "\"").contains("\"merged\":false");
        assertThat(deleted.message()).contains("on request of test, though not merged");
    }

    @Test
    void removingARunningSandboxStopsItsAgentFirst() throws Exception {
        rig.create("live-001", "agent/live", "echo up > \"$PADDOCK_HEARTBEAT_FILE\"; exec sleep 60");
        SandboxRecord running = rig.tickUntil("live-001", SandboxState.RUNNING, Duration.ofSeconds(10));
        Path heartbeat = new SandboxLayout(rig.repo.dir(), "live-001", "agent/live").heartbeatFile();
        SandboxRig.await("the agent to start", () -> Files.exists(heartbeat), Duration.ofSeconds(10));
        long pid = running.runRef().pid();

        SandboxRecord closed = rig.reclaimer.remove("live-001", RemoveMode.STRICT, false, "test");

        assertThat(closed.state()).isEqualTo(SandboxState.CLOSED);
        assertThat(ProcessTree.isAlive(pid, running.runRef().startedAt()))
                .as("agent process")
                .isFalse();
        assertThat(rig.kinds("live-001"))
                .containsSubsequence("sandbox.running", "sandbox.awaiting_human", "sandbox.cleaning", "sandbox.closed");
    }

    @Test
    void aLockedWorktreeIsKeptByStrictRemovalAndRemovedByForce() throws Exception {
        SandboxRecord s = rig.create("lock-001", "agent/lock");
        rig.repo.lockWorktree(s.workspace().worktree(), "hands off");
        Snapshot before = snapshot("lock-001");

        assertThatThrownBy(() -> rig.reclaimer.remove("lock-001", RemoveMode.STRICT, false, "test"))
                .isInstanceOf(RemovalRefusedException.class)
                .hasMessageContaining("is locked (\"hands off\"), so nothing was removed");
        assertThat(snapshot("lock-001")).isEqualTo(before);

        rig.reclaimer.remove("lock-001", RemoveMode.FORCE, false, "test");

        assertThat(s.workspace().worktree()).doesNotExist();
        assertThat(rig.repo.git("worktree", "list", "--porcelain")).doesNotContain("lock-001");
    }

    @Test
    void commitsOnADetachedHeadCountAsLostAndCommitModeRefusesToDropThem() throws Exception {
        SandboxRecord s = rig.create("loose-001", "agent/loose");
        TempRepo.git(s.workspace().worktree(), "checkout", "--quiet", "--detach");
        TempRepo.write(s.workspace().worktree(), "loose.txt", "x");
        String loose = TempRepo.commitAll(s.workspace().worktree(), "Loose commit");
        TempRepo.write(s.workspace().worktree(), "more.txt", "y");

        assertThat(rig.reclaimer.plan("loose-001").unmergedCommits())
                .containsExactly(loose.substring(0, 7) + " Loose commit (detached HEAD)");
        assertThatThrownBy(() -> rig.reclaimer.remove("loose-001", RemoveMode.COMMIT, false, "test"))
                .isInstanceOf(RemovalRefusedException.class)
                .hasMessageContaining("its worktree has a detached HEAD checked out, with 1 commit on no branch");
        assertThat(s.workspace().worktree().resolve("more.txt")).exists();
    }

    static Stream<Arguments> badPaths() {
        return Stream.of(
                Arguments.of("empty", (PathChoice) (repo, tmp) -> ""),
                Arguments.of("outside .worktrees", (PathChoice) (repo, tmp) -> {
                    Path elsewhere = tmp.resolve("elsewhere").resolve("wt");
                    TempRepo.write(elsewhere, "precious.txt", "keep me");
                    return elsewhere.toString();
                }),
                Arguments.of("the repository root", (PathChoice)
                        (repo, tmp) -> repo.dir().toString()),
                Arguments.of(".worktrees itself", (PathChoice) (repo, tmp) -> {
                    TempRepo.write(repo.dir(), ".worktrees/precious.txt", "keep me");
                    return repo.dir().resolve(".worktrees").toString();
                }));
    }

    /** How a test case picks the worktree path of a broken record. */
    interface PathChoice {
        String path(TempRepo repo, Path tmp);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badPaths")
    void aRecordWhoseWorktreePathIsNotInsideItsSandboxFolderIsNeverDeletedFromDisk(String label, PathChoice choice)
            throws Exception {
        long repoId = rig.repoService.open(rig.repo.dir()).record().id();
        String path = choice.path(rig.repo, tmp);
        Instant now = Instant.now();
        rig.store.insert(
                SandboxRecord.builder()
                        .id("broken-001")
                        .repositoryId(repoId)
                        .task("broken")
                        .agentCommand("true")
                        .tier(Tier.WORKTREE)
                        .branch("main")
                        .baseBranch("main")
                        .worktreePath(path)
                        .state(SandboxState.AWAITING_HUMAN)
                        .createdAt(now)
                        .stateChangedAt(now)
                        .leaseMs(60_000)
                        .build(),
                null,
                List.of());
        List<String> disk = SandboxRig.tree(tmp);
        SandboxRecord before = rig.find("broken-001");

        for (RemoveMode mode : RemoveMode.values()) {
            assertThatThrownBy(() -> rig.reclaimer.remove("broken-001", mode, mode == RemoveMode.FORCE, "test"))
                    .as(mode.name())
                    .isInstanceOf(SandboxException.class)
                    .hasMessageStartingWith("Paddock will not remove broken-001: ")
                    .hasMessageContaining("so nothing was changed");
        }
        assertThatThrownBy(() -> rig.reclaimer.plan("broken-001")).hasMessageStartingWith("Paddock will not remove");

        assertThat(SandboxRig.tree(tmp)).isEqualTo(disk);
        assertThat(rig.find("broken-001")).isEqualTo(before);
        assertThat(branchExists("main")).isTrue();
    }

    @Test
    void aRecordPointingIntoAnotherSandboxsFolderIsRefusedAndTheOtherIsUntouched() throws Exception {
        SandboxRecord other = rig.create("other-001", "agent/other");
        TempRepo.write(other.workspace().worktree(), "work.txt", "theirs");
        Instant now = Instant.now();
        rig.store.insert(
                SandboxRecord.builder()
                        .id("intruder-001")
                        .repositoryId(other.repositoryId())
                        .task("broken")
                        .agentCommand("true")
                        .tier(Tier.WORKTREE)
                        .branch("agent/other")
                        .baseBranch("main")
                        .worktreePath(other.workspace().worktreePath())
                        .state(SandboxState.AWAITING_HUMAN)
                        .createdAt(now)
                        .stateChangedAt(now)
                        .leaseMs(60_000)
                        .build(),
                null,
                List.of());

        assertThatThrownBy(() -> rig.reclaimer.remove("intruder-001", RemoveMode.FORCE, true, "test"))
                .hasMessageContaining("is not inside " + rig.worktreesRoot().resolve("intruder-001"));

        assertThat(other.workspace().worktree().resolve("work.txt")).exists();
        assertThat(branchExists("agent/other")).isTrue();
    }

    @Test
    void bulkRemovalReportsEachSandboxAndOneRefusalDoesNotStopTheOthers() throws Exception {
        rig.create("bulk-001", "agent/bulk-1");
        SandboxRecord dirty = rig.create("bulk-002", "agent/bulk-2");
        TempRepo.write(dirty.workspace().worktree(), "notes.md", "scratch");
        rig.create("bulk-003", "agent/bulk-3");

        List<RemovalResult> results = rig.reclaimer.removeAll(
                List.of("bulk-001", "bulk-002", "nope-001", "bulk-003"), RemoveMode.STRICT, false, "test");

        assertThat(results)
                .extracting(RemovalResult::sandboxId)
                .containsExactly("bulk-001", "bulk-002", "nope-001", "bulk-003");
        assertThat(results).extracting(RemovalResult::removed).containsExactly(true, false, false, true);
        assertThat(results.get(1).error()).contains("would lose work").contains("?? notes.md");
        assertThat(results.get(2).error()).isEqualTo("No sandbox nope-001.");
        assertThat(results.get(3).record().state()).isEqualTo(SandboxState.CLOSED);
        assertThat(rig.find("bulk-002").state()).isEqualTo(SandboxState.PENDING);
        assertThat(dirty.workspace().worktree().resolve("notes.md")).exists();
    }

    @Test
    void aRemovalCutShortInCleaningIsFinishedWithTheModeItStartedWith() throws Exception {
        SandboxRecord forced = rig.create("cut-001", "agent/cut-1");
        TempRepo.write(forced.workspace().worktree(), "scratch.txt", "x");
        SandboxRecord strict = rig.create("cut-002", "agent/cut-2");
        TempRepo.write(strict.workspace().worktree(), "notes.md", "appeared after the check");
        // What a kill -9 right after "→ cleaning" leaves behind.
        rig.store.transition(
                "cut-001",
                Transition.of(SandboxState.PENDING, SandboxState.CLEANING)
                        .detail("mode", "FORCE")
                        .detail("deleteBranch", false));
        rig.store.transition(
                "cut-002",
                Transition.of(SandboxState.PENDING, SandboxState.CLEANING)
                        .detail("mode", "STRICT")
                        .detail("deleteBranch", false));

        rig.reclaimer.resume("cut-001", "test");

        assertThat(rig.find("cut-001").state()).isEqualTo(SandboxState.CLOSED);
        assertThat(forced.workspace().worktree()).doesNotExist();
        assertThatThrownBy(() -> rig.reclaimer.resume("cut-002", "test"))
                .hasMessageContaining("Could not remove the worktree")
                .hasMessageContaining("stays in cleaning");
        assertThat(rig.find("cut-002").state()).isEqualTo(SandboxState.CLEANING);
        assertThat(strict.workspace().worktree().resolve("notes.md")).exists();
    }

    private boolean branchExists(String branch) {
        return TempRepo.run(rig.repo.dir(), "show-ref", "--verify", "--quiet", "refs/heads/" + branch)
                .ok();
    }

    /** Everything a refused removal must leave as it was. */
    record Snapshot(List<String> disk, SandboxRecord record, int events, String branches, String worktrees) {}

    private Snapshot snapshot(String id) throws Exception {
        return new Snapshot(
                SandboxRig.tree(rig.repo.dir()),
                rig.find(id),
                rig.events.ofSandbox(id).size(),
                rig.repo.git("for-each-ref", "--format=%(refname) %(objectname)", "refs/heads"),
                rig.repo.git("worktree", "list", "--porcelain"));
    }
}
