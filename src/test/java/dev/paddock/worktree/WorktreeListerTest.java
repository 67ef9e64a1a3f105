package dev.paddock.worktree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.paddock.testing.TempRepo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorktreeListerTest {
    private static final String LOGIN_SUBJECT = "Add login form — ünïcode “quotes”";

    @TempDir
    Path tmp;

    private TempRepo repo;
    private GitRepository gitRepo;
    private Path detached;
    private Path login;
    private String firstCommit;
    private final WorktreeLister lister = new WorktreeLister(new GitCli());

    @BeforeEach
    void createRepositoryWithTwoLinkedWorktrees() throws GitException {
        repo = TempRepo.init(tmp.resolve("repo"));
        firstCommit = repo.head();
        repo.write("src/App.java", "class App {}\n");
        repo.commitAll("Add the app\n\nA body paragraph that is not part of the subject.");

        detached = repo.addDetachedWorktree(tmp.resolve("wt-detached"), firstCommit);
        login = repo.addWorktree(tmp.resolve("wt-login"), "feature/login");
        TempRepo.write(login, "src/Login.java", "class Login {}\n");
        TempRepo.commitAll(login, LOGIN_SUBJECT);
        repo.git("worktree", "lock", "--reason", "agent fix-auth-001 is running", login.toString());

        gitRepo = new RepositoryLocator(new GitCli()).locate(repo.dir());
    }

    @AfterEach
    void closeLister() {
        lister.close();
    }

    private static WorktreeInfo at(List<WorktreeInfo> list, Path path) {
        return list.stream()
                .filter(w -> w.path().equals(path))
                .findFirst()
                .orElseThrow(() -> new AssertionError(path + " not listed in " + list));
    }

    @Test
    void listQuickReportsPathBranchHeadAndFlagsLikeGit() throws GitException {
        List<WorktreeInfo> list = lister.listQuick(gitRepo);

        assertThat(list).extracting(WorktreeInfo::path).containsExactly(repo.dir(), detached, login);
        assertThat(list).extracting(WorktreeInfo::main).containsExactly(true, false, false);

        WorktreeInfo main = list.get(0);
        assertThat(main.branch()).isEqualTo("main");
        assertThat(main.detached()).isFalse();
        assertThat(main.head()).isEqualTo(TempRepo.revParse(repo.dir(), "HEAD"));
        assertThat(main.locked()).isFalse();
        assertThat(main.prunable()).isFalse();

        WorktreeInfo det = at(list, detached);
        assertThat(det.detached()).isTrue();
        assertThat(det.branch()).isNull();
        assertThat(det.branchLabel()).isEqualTo("(detached HEAD)");
        assertThat(det.head()).isEqualTo(TempRepo.revParse(detached, "HEAD")).isEqualTo(firstCommit);

        WorktreeInfo feature = at(list, login);
        assertThat(feature.branch()).isEqualTo("feature/login");
        assertThat(feature.detached()).isFalse();
        assertThat(feature.head()).isEqualTo(TempRepo.revParse(login, "HEAD"));
        assertThat(feature.locked()).isTrue();
        assertThat(feature.lockedReason()).isEqualTo("agent fix-auth-001 is running");
    }

    @Test
    void listQuickLeavesDirtyStateUnknown() throws GitException {
        assertThat(lister.listQuick(gitRepo)).allSatisfy(w -> {
            assertThat(w.dirty()).isNull();
            assertThat(w.changedFiles()).isZero();
        });
    }

    @Test
    void subjectIsTheFirstLineOfTheHeadCommitMessage() throws GitException {
        List<WorktreeInfo> list = lister.listQuick(gitRepo);

        assertThat(at(list, repo.dir()).subject()).isEqualTo("Add the app");
        assertThat(at(list, detached).subject()).isEqualTo("Initial commit");
        assertThat(at(list, login).subject()).isEqualTo(LOGIN_SUBJECT);
    }

    @Test
    void subjectIsReadThroughJGitWithoutRunningGitLog() throws IOException, GitException {
        // A real git behind a wrapper that refuses `git log`: the subjects can only come from JGit.
        Path wrapper = tmp.resolve("git-without-log");
        Files.writeString(
                wrapper,
                "#!/bin/sh\nfor a in \"$@\"; do\n  if [ \"$a\" = log ]; then echo 'fatal: no log here' >&2;"
                        + " exit 128; fi\ndone\nexec git \"$@\"\n");
        Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwx------"));
        try (WorktreeLister jgitOnly = new WorktreeLister(new GitCli(wrapper.toString()))) {
            List<WorktreeInfo> list = jgitOnly.listQuick(gitRepo);

            assertThat(list)
                    .extracting(WorktreeInfo::subject)
                    .containsExactly("Add the app", "Initial commit", LOGIN_SUBJECT);
        }
    }

    @Test
    void subjectFollowsANewCommitMadeAfterTheFirstListing() throws GitException {
        lister.listQuick(gitRepo);
        TempRepo.write(detached, "notes.txt", "n\n");
        String head = TempRepo.commitAll(detached, "Write notes");

        WorktreeInfo det = at(lister.listQuick(gitRepo), detached);

        assertThat(det.head()).isEqualTo(head);
        assertThat(det.subject()).isEqualTo("Write notes");
    }

    @Test
    void cleanWorktreesAreNotDirty() throws GitException {
        assertThat(lister.list(gitRepo)).allSatisfy(w -> {
            assertThat(w.dirty()).isFalse();
            assertThat(w.changedFiles()).isZero();
        });
    }

    @Test
    void modifiedTrackedFileMakesOnlyThatWorktreeDirty() throws GitException {
        TempRepo.write(login, "src/Login.java", "class Login { int changed; }\n");

        List<WorktreeInfo> list = lister.list(gitRepo);

        assertThat(at(list, login).dirty()).isTrue();
        assertThat(at(list, login).changedFiles()).isEqualTo(1);
        assertThat(at(list, repo.dir()).dirty()).isFalse();
        assertThat(at(list, detached).dirty()).isFalse();
    }

    @Test
    void untrackedFileMakesTheWorktreeDirtyAndCounts() throws GitException {
        TempRepo.write(detached, "README.md", "# changed\n");
        TempRepo.write(detached, "scratch.txt", "new\n");

        WorktreeInfo det = lister.withStatus(at(lister.listQuick(gitRepo), detached));

        assertThat(det.dirty()).isTrue();
        assertThat(det.changedFiles()).isEqualTo(2);
    }

    @Test
    void withStatusKeepsEverythingElse() throws GitException {
        TempRepo.write(login, "scratch.txt", "new\n");
        WorktreeInfo quick = at(lister.listQuick(gitRepo), login);

        WorktreeInfo full = lister.withStatus(quick);

        assertThat(full).isEqualTo(quick.withDetails(quick.subject(), true, 1));
    }

    @Test
    void stagedRenameCountsOnce() throws GitException {
        repo.git("mv", "README.md", "READ-ME-FIRST.md");

        WorktreeInfo main = lister.withStatus(at(lister.listQuick(gitRepo), repo.dir()));

        assertThat(main.dirty()).isTrue();
        assertThat(main.changedFiles()).isEqualTo(1);
    }

    @Test
    void renameDetectedInTheWorkingTreeCountsOnce() throws IOException, GitException {
        // `git add -N` makes git status report a rename in the worktree column (" R new -> old").
        Files.move(repo.dir().resolve("src/App.java"), repo.dir().resolve("src/Application.java"));
        repo.git("add", "-N", "src/Application.java");
        assertThat(repo.git("status", "--porcelain=v1")).startsWith(" R ");

        WorktreeInfo main = lister.withStatus(at(lister.listQuick(gitRepo), repo.dir()));

        assertThat(main.dirty()).isTrue();
        assertThat(main.changedFiles()).isEqualTo(1);
    }

    @Test
    void worktreeWhoseDirectoryWasDeletedIsPrunableWithUnknownDirtyState() throws GitException {
        TempRepo.deleteTree(detached);

        List<WorktreeInfo> list = lister.list(gitRepo);

        WorktreeInfo gone = at(list, detached);
        assertThat(gone.prunable()).isTrue();
        assertThat(gone.prunableReason()).contains("non-existent location");
        assertThat(gone.dirty()).isNull();
        assertThat(gone.changedFiles()).isZero();
        assertThat(gone.head()).isEqualTo(firstCommit);
        assertThat(at(list, repo.dir()).dirty()).isFalse();
    }

    @Test
    void withStatusOfAMissingDirectoryDoesNotThrow() throws GitException {
        WorktreeInfo quick = at(lister.listQuick(gitRepo), login);
        TempRepo.deleteTree(login);

        assertThatCode(() -> lister.withStatus(quick)).doesNotThrowAnyException();
        assertThat(lister.withStatus(quick).dirty()).isNull();
    }

    @Test
    void lockedWorktreeWhoseDirectoryWasDeletedIsNotPrunable() throws GitException {
        TempRepo.deleteTree(login);

        WorktreeInfo gone = at(lister.list(gitRepo), login);

        assertThat(gone.locked()).isTrue();
        assertThat(gone.prunable()).isFalse();
        assertThat(gone.dirty()).isNull();
    }

    @Test
    void worktreePathWithSpacesAndNewlineIsListedExactly() throws GitException {
        Path odd = repo.addWorktree(tmp.resolve("agent sandboxes/odd\nname"), "odd");
        TempRepo.write(odd, "x.txt", "x\n");

        WorktreeInfo w = at(lister.list(gitRepo), odd);

        assertThat(w.branch()).isEqualTo("odd");
        assertThat(w.dirty()).isTrue();
        assertThat(w.changedFiles()).isEqualTo(1);
    }

    @Test
    void unbornBranchHasNoHeadNoSubjectAndAKnownDirtyState(@TempDir Path other) throws GitException {
        TempRepo fresh = TempRepo.initEmpty(other.resolve("fresh"));
        GitRepository freshRepo = new RepositoryLocator(new GitCli()).locate(fresh.dir());

        WorktreeInfo clean = lister.list(freshRepo).get(0);
        fresh.write("first.txt", "1\n");
        WorktreeInfo dirty = lister.list(freshRepo).get(0);

        assertThat(clean.head()).isNull();
        assertThat(clean.subject()).isNull();
        assertThat(clean.branch()).isEqualTo("main");
        assertThat(clean.main()).isTrue();
        assertThat(clean.dirty()).isFalse();
        assertThat(dirty.dirty()).isTrue();
    }

    @Test
    void listingAVanishedRepositoryThrowsGitException() {
        TempRepo.deleteTree(repo.dir());

        assertThatCode(() -> lister.listQuick(gitRepo))
                .isInstanceOf(GitException.class)
                .hasMessageContaining("Cannot list the worktrees");
    }

    @Test
    void countStatusEntriesCountsEachChangedPathOnce() {
        assertThat(WorktreeLister.countStatusEntries("")).isZero();
        assertThat(WorktreeLister.countStatusEntries(" M src/a.txt\0?? b\0")).isEqualTo(2);
        assertThat(WorktreeLister.countStatusEntries("A  new.txt\0 D gone.txt\0MM both.txt\0"))
                .isEqualTo(3);
    }

    /**
     * The empty mount points Claude Code's own sandbox leaves in a worktree while it runs are no change of the
     * agent's; the same paths with content, or anything else beside them, are.
     */
    @Test
    void theMountPointsOfClaudeCodesSandboxAreNotChanges() throws Exception {
        Path wt = repo.dir();
        java.nio.file.Files.createFile(wt.resolve(".bashrc"));
        java.nio.file.Files.createFile(wt.resolve(".vscode"));
        java.nio.file.Files.createDirectories(wt.resolve(".claude"));
        java.nio.file.Files.writeString(wt.resolve(".claude/settings.local.json"), "{}");
        java.nio.file.Files.createFile(wt.resolve(".claude/agents"));
        String z = "?? .bashrc\0?? .vscode\0?? .claude/\0";
        assertThat(WorktreeLister.countStatusEntries(wt, z)).isZero();

        java.nio.file.Files.writeString(wt.resolve(".bashrc"), "export EVIL=1\n");
        java.nio.file.Files.writeString(wt.resolve(".claude/commands"), "mine");
        assertThat(WorktreeLister.countStatusEntries(wt, z))
                .as("written by someone: changes")
                .isEqualTo(2);
        assertThat(WorktreeLister.countStatusEntries(wt, " M .gitmodules\0?? .mcp.json\0"))
                .as("a tracked file's change, and a path not there")
                .isEqualTo(2);
    }

    @Test
    void countStatusEntriesSkipsTheSourcePathOfRenamesAndCopies() {
        assertThat(WorktreeLister.countStatusEntries("R  new-name.txt\0old-name.txt\0"))
                .isEqualTo(1);
        assertThat(WorktreeLister.countStatusEntries("RM new-name.txt\0old-name.txt\0?? x.txt\0"))
                .isEqualTo(2);
        assertThat(WorktreeLister.countStatusEntries("C  copy.txt\0original.txt\0 M other.txt\0"))
                .isEqualTo(2);
        assertThat(WorktreeLister.countStatusEntries("R  b\0a\0")).isEqualTo(1);
    }

    @Test
    void countStatusEntriesSkipsTheSourcePathOfWorktreeRenames() {
        assertThat(WorktreeLister.countStatusEntries(" R renamed-long.txt\0long-name.txt\0"))
                .isEqualTo(1);
        assertThat(WorktreeLister.countStatusEntries(" R new.txt\0old.txt\0?? untracked.txt\0"))
                .isEqualTo(2);
    }
}
