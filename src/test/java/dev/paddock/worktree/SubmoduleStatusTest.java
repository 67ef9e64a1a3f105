package dev.paddock.worktree;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.testing.TempRepo;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dirty state and the submodule work of linked worktrees of a repository with a real submodule {@code lib}
 * ({@code file://} URL), which has a submodule {@code nested} of its own.
 */
class SubmoduleStatusTest {
    @TempDir
    Path tmp;

    private TempRepo repo;
    private Path wt;
    private GitRepository git;
    private final GitCli cli = new GitCli();
    private final WorktreeLister lister = new WorktreeLister(cli);
    private final Submodules submodules = new Submodules(cli);

    @BeforeEach
    void repositoryWithASubmoduleAndALinkedWorktree() throws Exception {
        TempRepo nested = TempRepo.init(tmp.resolve("nested-origin"));
        TempRepo library = TempRepo.init(tmp.resolve("lib-origin"));
        library.addSubmodule(nested, "nested");
        repo = TempRepo.init(tmp.resolve("repo"));
        repo.addSubmodule(library, "lib");
        wt = repo.addWorktree(tmp.resolve("wt"), "feature");
        git = new RepositoryLocator(cli).locate(repo.dir());
    }

    @AfterEach
    void close() {
        lister.close();
    }

    private WorktreeInfo status() throws GitException {
        return lister.list(git).stream()
                .filter(w -> w.path().equals(wt))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void anUninitialisedSubmoduleWithNothingInItLeavesTheWorktreeClean() throws Exception {
        assertThat(status().dirty()).isFalse();
        assertThat(submodules.work(wt).isEmpty()).isTrue();
    }

    @Test
    void filesInAnUninitialisedSubmoduleFolderMakeTheWorktreeDirty() throws Exception {
        TempRepo.write(wt, "lib/notes.md", "agent notes");
        TempRepo.write(wt, "lib/more/two.md", "more");

        WorktreeInfo w = status();

        assertThat(w.dirty()).isTrue();
        assertThat(w.changedFiles()).isEqualTo(2);
        assertThat(submodules.work(wt).paths()).containsExactly("?? lib/more/two.md", "?? lib/notes.md");
    }

    @Test
    void editsInsideAnInitialisedSubmoduleMakeTheWorktreeDirty() throws Exception {
        TempRepo.initSubmodules(wt);
        assertThat(status().dirty()).as("freshly initialised").isFalse();

        TempRepo.write(wt, "lib/README.md", "edited inside the submodule\n");

        WorktreeInfo w = status();
        assertThat(w.dirty()).isTrue();
        assertThat(w.changedFiles()).isEqualTo(1);
    }

    @Test
    void anUntrackedFileInsideAnInitialisedSubmoduleMakesTheWorktreeDirty() throws Exception {
        TempRepo.initSubmodules(wt);
        TempRepo.write(wt, "lib/scratch.txt", "x");

        assertThat(status().dirty()).isTrue();
        assertThat(submodules.work(wt).paths()).containsExactly("?? lib/scratch.txt");
    }

    @Test
    void workIsFollowedIntoNestedSubmodules() throws Exception {
        TempRepo.initSubmodules(wt);
        Path nested = wt.resolve("lib/nested");
        TempRepo.write(nested, "README.md", "edited two levels down\n");
        TempRepo.write(nested, "deep.txt", "new");
        TempRepo.write(nested, "fix.txt", "fix");
        TempRepo.git(nested, "add", "fix.txt");
        TempRepo.git(nested, "commit", "--quiet", "-m", "Fix nested");
        String fix = TempRepo.revParse(nested, "HEAD");

        Submodules.Work work = submodules.work(wt);

        assertThat(work.paths()).containsExactly(" M lib/nested", " M lib/nested/README.md", "?? lib/nested/deep.txt");
        assertThat(work.commits()).containsExactly("lib/nested: " + fix.substring(0, 7) + " Fix nested");
        assertThat(status().dirty()).isTrue();
    }

    @Test
    void aSubmoduleWhoseRepositoryIsGoneCountsEveryFileInIt() throws Exception {
        TempRepo.initSubmodules(wt);
        Path modules = WorktreeHeads.gitDirOf(wt).resolve("modules"); // <common>/worktrees/wt/modules
        TempRepo.deleteTree(modules);

        Submodules.Work work = submodules.work(wt);

        assertThat(work.problems()).singleElement().asString().startsWith("lib: ");
        assertThat(work.paths())
                .contains("?? lib/README.md", "?? lib/.gitmodules")
                .doesNotContain("?? lib/.git");
    }

    @Test
    void aCommandTheAgentSetInASubmodulesConfigNeverRunsInPaddocksGit() throws Exception {
        TempRepo.initSubmodules(wt);
        Path marker = tmp.resolve("fsmonitor-ran");
        Path hook = tmp.resolve("fsmonitor.sh");
        java.nio.file.Files.writeString(hook, "#!/bin/sh\necho ran >> '" + marker + "'\nexit 1\n");
        java.nio.file.Files.setPosixFilePermissions(
                hook, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        // The submodule's config is in the worktree's admin directory: writable by an agent in a namespace or
        // container sandbox.
        TempRepo.git(wt.resolve("lib"), "config", "core.fsmonitor", hook.toString());
        TempRepo.git(wt.resolve("lib"), "config", "log.showSignature", "true");
        TempRepo.git(wt.resolve("lib"), "config", "gpg.program", hook.toString());
        TempRepo.write(wt, "lib/README.md", "edited\n");

        assertThat(status().dirty()).isTrue();
        assertThat(new WorktreeManager(cli).uncommitted(wt)).containsExactly(" M lib");
        assertThat(submodules.work(wt).paths()).containsExactly(" M lib/README.md");
        assertThat(marker).doesNotExist();
    }
}
