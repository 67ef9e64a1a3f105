package dev.paddock.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.isolation.LinkedWorktree;
import dev.paddock.testing.TempRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Removing sandboxes of a repository with a real submodule ({@code lib}, added through a {@code file://} URL):
 * what is inside the submodule counts as work, whether it is initialised or not, and removal never deletes work
 * it did not list.
 */
class SubmoduleRemovalTest {
    @TempDir
    Path tmp;

    private SandboxRig rig;
    private TempRepo library;

    @BeforeEach
    void setUp() throws Exception {
        library = TempRepo.init(tmp.resolve("lib-origin"));
        library.commitFile("lib.txt", "library\n", "Add the library");
        TempRepo repo = TempRepo.init(tmp.resolve("repo"));
        repo.addSubmodule(library, "lib");
        rig = new SandboxRig(tmp, repo);
    }

    @AfterEach
    void tearDown() {
        rig.close();
    }

    /** The sandbox's admin directory under {@code .git/worktrees/}, where git keeps its submodules' repositories. */
    private Path adminDir(SandboxRecord s) throws Exception {
        return LinkedWorktree.of(s.workspace().worktree()).adminDir();
    }

    @Test
    void aFileInAnUninitialisedSubmoduleFolderIsListedAndStrictRemovalKeepsIt() throws Exception {
        SandboxRecord s = rig.create("uninit-001", "agent/uninit");
        Path notes = TempRepo.write(s.workspace().worktree(), "lib/notes.md", "written by the agent");
        assertThat(TempRepo.git(s.workspace().worktree(), "status", "--porcelain"))
                .as("git itself does not see it")
                .isEmpty();

        RemovalPlan plan = rig.reclaimer.plan("uninit-001");

        assertThat(plan.uncommitted()).containsExactly("?? lib/notes.md");
        assertThat(plan.losesNothing()).isFalse();
        assertThatThrownBy(() -> rig.reclaimer.remove("uninit-001", RemoveMode.STRICT, false, "test"))
                .isInstanceOf(RemovalRefusedException.class)
                .hasMessageContaining("1 uncommitted path in " + s.workspace().worktreePath() + ": ?? lib/notes.md");
        assertThat(notes).hasContent("written by the agent");
        assertThat(rig.find("uninit-001").state()).isEqualTo(SandboxState.PENDING);
    }

    @Test
    void commitModeSaysAFileInAnUninitialisedSubmoduleFolderNeedsARepositoryAndKeepsIt() throws Exception {
        SandboxRecord s = rig.create("uninit-002", "agent/uninit2");
        Path notes = TempRepo.write(s.workspace().worktree(), "lib/notes.md", "written by the agent");

        assertThatThrownBy(() -> rig.reclaimer.remove("uninit-002", RemoveMode.COMMIT, false, "test"))
                .isInstanceOf(RemovalRefusedException.class)
                .hasMessageStartingWith("What is inside its submodules cannot be kept by a commit on agent/uninit2,"
                        + " so nothing was removed:")
                .hasMessageContaining("1 path inside submodules: ?? lib/notes.md")
                .hasMessageContaining("initialise it (git submodule update --init) and commit them there");
        assertThat(notes).hasContent("written by the agent");
        assertThat(rig.find("uninit-002").state()).isNotEqualTo(SandboxState.CLEANING);
    }

    @Test
    void planListsEditsAndUntrackedFilesInsideAnInitialisedSubmodule() throws Exception {
        SandboxRecord s = rig.create("init-001", "agent/init");
        TempRepo.initSubmodules(s.workspace().worktree());
        TempRepo.write(s.workspace().worktree(), "lib/lib.txt", "changed by the agent\n");
        TempRepo.write(s.workspace().worktree(), "lib/new/deep.txt", "new");

        RemovalPlan plan = rig.reclaimer.plan("init-001");

        assertThat(plan.uncommitted()).containsExactly(" M lib", " M lib/lib.txt", "?? lib/new/deep.txt");
        assertThat(plan.submoduleCommits()).isEmpty();
        assertThatThrownBy(() -> rig.reclaimer.remove("init-001", RemoveMode.STRICT, false, "test"))
                .isInstanceOf(RemovalRefusedException.class)
                .hasMessageContaining(" M lib/lib.txt")
                .hasMessageContaining("?? lib/new/deep.txt");
        assertThat(s.workspace().worktree().resolve("lib/new/deep.txt")).exists();
    }

    @Test
    void strictRemovalOfACleanWorktreeWithAnInitialisedSubmoduleRemovesItWithTheSubmodulesRepository()
            throws Exception {
        SandboxRecord s = rig.create("clean-001", "agent/clean");
        TempRepo.initSubmodules(s.workspace().worktree());
        Path admin = adminDir(s);
        assertThat(admin.resolve("modules/lib"))
                .as("git 2.39 keeps it in the worktree's admin dir")
                .isDirectory();
        Path mainsOwn = rig.repo.dir().resolve(".git/modules/lib"); // made by git submodule add in the main worktree
        List<String> mainsOwnBefore = SandboxRig.tree(mainsOwn);

        SandboxRecord closed = rig.reclaimer.remove("clean-001", RemoveMode.STRICT, false, "test");

        assertThat(closed.state()).isEqualTo(SandboxState.CLOSED);
        assertThat(s.workspace().worktree()).doesNotExist();
        assertThat(admin).doesNotExist();
        assertThat(SandboxRig.tree(mainsOwn))
                .as("the main worktree's submodule repository")
                .isEqualTo(mainsOwnBefore);
        assertThat(rig.repo.git("worktree", "list", "--porcelain")).doesNotContain("clean-001");
        assertThat(rig.kinds("clean-001"))
                .containsSubsequence("sandbox.cleaning", "sandbox.worktree_removed", "sandbox.closed");
    }

    @Test
    void aSubmoduleCommitThatNoRemoteHasIsListedAndStrictRemovalKeepsIt() throws Exception {
        SandboxRecord s = rig.create("subcommit-001", "agent/subcommit");
        TempRepo.initSubmodules(s.workspace().worktree());
        Path lib = s.workspace().worktree().resolve("lib");
        TempRepo.write(lib, "fix.txt", "fixed");
        String subCommit = TempRepo.commitAll(lib, "Fix the library");
        TempRepo.commitAll(s.workspace().worktree(), "Use the fixed library");
        // The superproject's commit is merged, so only the submodule's commit is at stake.
        rig.repo.git("merge", "--quiet", "--ff-only", "agent/subcommit");

        RemovalPlan plan = rig.reclaimer.plan("subcommit-001");

        assertThat(plan.uncommitted()).isEmpty();
        assertThat(plan.unmergedCommits()).isEmpty();
        assertThat(plan.submoduleCommits()).containsExactly("lib: " + subCommit.substring(0, 7) + " Fix the library");
        assertThatThrownBy(() -> rig.reclaimer.remove("subcommit-001", RemoveMode.STRICT, false, "test"))
                .isInstanceOf(RemovalRefusedException.class)
                .hasMessageContaining("1 commit in submodules that no remote of theirs has (the submodules'"
                        + " repositories go with the worktree): lib: " + subCommit.substring(0, 7)
                        + " Fix the library");
        assertThatThrownBy(() -> rig.reclaimer.remove("subcommit-001", RemoveMode.COMMIT, false, "test"))
                .isInstanceOf(RemovalRefusedException.class)
                .hasMessageContaining("1 commit in submodules that no remote of theirs has: lib: ")
                .hasMessageContaining("pushed to the submodule's remote");
        assertThat(TempRepo.git(lib, "cat-file", "-t", subCommit).strip()).isEqualTo("commit");

        // Once the library has it, nothing is at stake: strict removal goes through.
        TempRepo.git(lib, "push", "--quiet", "origin", "HEAD:refs/heads/fix");
        rig.reclaimer.remove("subcommit-001", RemoveMode.STRICT, false, "test");
        assertThat(rig.find("subcommit-001").state()).isEqualTo(SandboxState.CLOSED);
        assertThat(TempRepo.git(library.dir(), "cat-file", "-t", subCommit).strip())
                .isEqualTo("commit");
    }

    @Test
    void commitModeNeverCommitsThePointerToASubmoduleCommitOnlyTheWorktreeHas() throws Exception {
        SandboxRecord s = rig.create("dangling-001", "agent/dangling");
        TempRepo.initSubmodules(s.workspace().worktree());
        String before = rig.repo.git("ls-tree", "agent/dangling", "lib");
        Path lib = s.workspace().worktree().resolve("lib");
        TempRepo.write(lib, "fix.txt", "fixed");
        String subCommit = TempRepo.commitAll(lib, "Fix the library");
        TempRepo.write(s.workspace().worktree(), "notes.md", "kept by the commit");

        assertThatThrownBy(() -> rig.reclaimer.remove("dangling-001", RemoveMode.COMMIT, false, "test"))
                .isInstanceOf(RemovalRefusedException.class)
                .hasMessageContaining("1 commit in submodules that no remote of theirs has: lib: ");

        // The superproject's own leftover is kept; the pointer to a commit only this worktree has is not: merged,
        // it would leave base naming a commit nobody has once the worktree goes.
        assertThat(rig.repo.git("show", "agent/dangling:notes.md")).isEqualTo("kept by the commit");
        assertThat(rig.repo.git("ls-tree", "agent/dangling", "lib"))
                .isEqualTo(before)
                .doesNotContain(subCommit);
        assertThat(rig.reclaimer.plan("dangling-001").uncommitted()).contains(" M lib");
    }

    @Test
    void commitModeWithOnlySubmoduleEditsSaysWhatItCannotKeepAndKeepsTheWorktree() throws Exception {
        SandboxRecord s = rig.create("subedit-001", "agent/subedit");
        TempRepo.initSubmodules(s.workspace().worktree());
        TempRepo.write(s.workspace().worktree(), "lib/lib.txt", "changed by the agent\n");

        assertThatThrownBy(() -> rig.reclaimer.remove("subedit-001", RemoveMode.COMMIT, false, "test"))
                .isInstanceOf(RemovalRefusedException.class)
                .hasMessageStartingWith("What is inside its submodules cannot be kept by a commit on agent/subedit,"
                        + " so nothing was removed:")
                .hasMessageContaining("1 path inside submodules:  M lib/lib.txt")
                .hasMessageContaining("Changes in a submodule need a commit in the submodule itself (git -C "
                        + s.workspace().worktreePath() + "/<submodule> commit -a)");

        assertThat(s.workspace().worktree().resolve("lib/lib.txt")).hasContent("changed by the agent");
        assertThat(rig.find("subedit-001").state()).isNotEqualTo(SandboxState.CLEANING);
    }

    @Test
    void commitModeRefusesWorkInSubmodulesBeforeItStopsARunningAgent() throws Exception {
        SandboxRecord s = rig.create("uninit-run", "agent/uninit-run", "sleep 300");
        SandboxRecord running = rig.tickUntil("uninit-run", SandboxState.RUNNING, java.time.Duration.ofSeconds(30));
        Path notes = TempRepo.write(s.workspace().worktree(), "lib/notes.md", "written by the agent");

        assertThatThrownBy(() -> rig.reclaimer.remove("uninit-run", RemoveMode.COMMIT, false, "test"))
                .isInstanceOf(RemovalRefusedException.class)
                .hasMessageStartingWith("What is inside its submodules cannot be kept by a commit on"
                        + " agent/uninit-run, so nothing was removed:");

        assertThat(rig.find("uninit-run").state()).as("its agent runs on").isEqualTo(SandboxState.RUNNING);
        assertThat(ProcessHandle.of(running.runRef().pid())
                        .map(ProcessHandle::isAlive)
                        .orElse(false))
                .isTrue();
        assertThat(notes).hasContent("written by the agent");
    }

    @Test
    void commitModeCommitsTheSuperprojectsLeftoversAndRefusesToDropTheSubmodulesEdits() throws Exception {
        SandboxRecord s = rig.create("mixed-001", "agent/mixed");
        TempRepo.initSubmodules(s.workspace().worktree());
        TempRepo.write(s.workspace().worktree(), "notes.md", "kept by the commit");
        TempRepo.write(s.workspace().worktree(), "lib/lib.txt", "changed by the agent\n");

        assertThatThrownBy(() -> rig.reclaimer.remove("mixed-001", RemoveMode.COMMIT, false, "test"))
                .isInstanceOf(RemovalRefusedException.class)
                .hasMessageStartingWith("Committed what mixed-001 left uncommitted on agent/mixed (")
                .hasMessageContaining("What is inside its submodules cannot be kept")
                .satisfies(e -> assertThat(((RemovalRefusedException) e).plan().uncommitted())
                        .containsExactly(" M lib", " M lib/lib.txt"));

        assertThat(rig.repo.git("show", "agent/mixed:notes.md")).isEqualTo("kept by the commit");
        assertThat(s.workspace().worktree().resolve("lib/lib.txt")).hasContent("changed by the agent");
        assertThat(rig.kinds("mixed-001"))
                .contains("sandbox.leftovers_committed")
                .doesNotContain("sandbox.cleaning");
    }

    @Test
    void commitModeKeepsAMovedSubmoduleHeadThatTheLibraryHasAndRemoves() throws Exception {
        String newer = library.commitFile("lib.txt", "library 2\n", "Library 2");
        SandboxRecord s = rig.create("bump-001", "agent/bump");
        TempRepo.initSubmodules(s.workspace().worktree());
        Path lib = s.workspace().worktree().resolve("lib");
        TempRepo.git(lib, "fetch", "--quiet", "origin");
        TempRepo.git(lib, "checkout", "--quiet", newer);

        rig.reclaimer.remove("bump-001", RemoveMode.COMMIT, false, "test");

        assertThat(rig.find("bump-001").state()).isEqualTo(SandboxState.CLOSED);
        assertThat(rig.repo.git("ls-tree", "agent/bump", "lib")).contains("160000 commit " + newer);
    }

    @Test
    void forceRemovalRemovesEverythingItListed() throws Exception {
        SandboxRecord s = rig.create("force-001", "agent/force");
        TempRepo.initSubmodules(s.workspace().worktree());
        TempRepo.write(s.workspace().worktree(), "lib/scratch.txt", "lost on purpose");
        Path admin = adminDir(s);

        assertThat(rig.reclaimer.plan("force-001").uncommitted()).contains("?? lib/scratch.txt");
        rig.reclaimer.remove("force-001", RemoveMode.FORCE, false, "test");

        assertThat(s.workspace().worktree()).doesNotExist();
        assertThat(admin).doesNotExist();
        assertThat(rig.find("force-001").state()).isEqualTo(SandboxState.CLOSED);
    }

    @Test
    void changeListOfTheDetailsPaneNamesPathsInsideSubmodules() throws Exception {
        SandboxRecord s = rig.create("changes-001", "agent/changes");
        TempRepo.initSubmodules(s.workspace().worktree());
        TempRepo.write(s.workspace().worktree(), "lib/lib.txt", "changed\n");
        TempRepo.write(s.workspace().worktree(), "lib/added.txt", "new");
        Files.delete(s.workspace().worktree().resolve("README.md"));

        var changes =
                rig.worktrees.changes(s.workspace().worktree(), s.workspace().baseCommit());

        assertThat(changes.modified()).contains("lib", "lib/lib.txt");
        assertThat(changes.added()).containsExactly("lib/added.txt");
        assertThat(changes.deleted()).isEqualTo(List.of("README.md"));
    }
}
