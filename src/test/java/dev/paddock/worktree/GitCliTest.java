package dev.paddock.worktree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.testing.TempRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GitCliTest {
    @TempDir
    Path tmp;

    private final GitCli git = new GitCli();

    @Test
    void runsInTheGivenDirectoryWithArgumentsPassedVerbatim() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("repo"));
        String message = "it's \"quoted\" $HOME; `no shell` && ünï";

        GitCli.Result r = git.run(repo.dir(), "log", "-1", "--format=%H%n" + message);

        assertThat(r.ok()).isTrue();
        assertThat(r.stdout().lines().toList()).containsExactly(repo.head(), message);
    }

    @Test
    void failureKeepsExitCodeAndGitsOwnErrorLineWithoutPrefix() throws Exception {
        GitCli.Result r = git.run(Files.createDirectories(tmp.resolve("plain")), "rev-parse", "HEAD");

        assertThat(r.ok()).isFalse();
        assertThat(r.exitCode()).isEqualTo(128);
        assertThat(r.errorLine()).startsWith("not a git repository");
    }

    @Test
    void runOkThrowsWithTheCommandDirectoryAndGitsReason() throws Exception {
        Path plain = Files.createDirectories(tmp.resolve("plain"));

        assertThatThrownBy(() -> git.runOk(plain, "status"))
                .isInstanceOf(GitException.class)
                .hasMessageContaining("git status failed in " + plain)
                .hasMessageContaining("not a git repository");
    }

    @Test
    void runOkNamesTheGitCommandAfterGlobalOptions() throws Exception {
        Path plain = Files.createDirectories(tmp.resolve("plain2"));

        assertThatThrownBy(() -> git.runOk(plain, "-c", "core.preloadIndex=false", "--no-optional-locks", "status"))
                .isInstanceOf(GitException.class)
                .hasMessageContaining("git status failed in " + plain);
    }

    @Test
    void errorLineFallsBackToTheExitCodeWhenStderrIsEmpty() {
        assertThat(new GitCli.Result(3, "", "\n  \n").errorLine()).isEqualTo("git exited with 3");
        assertThat(new GitCli.Result(1, "", "\nerror: pathspec 'x' did not match\n").errorLine())
                .isEqualTo("pathspec 'x' did not match");
    }

    @Test
    void commandRunningPastTheTimeoutIsStoppedWithAClearMessage() throws Exception {
        Path slow = tmp.resolve("slow-git");
        Files.writeString(slow, "#!/bin/sh\nexec sleep 30\n");
        Files.setPosixFilePermissions(slow, PosixFilePermissions.fromString("rwx------"));
        long start = System.nanoTime();

        assertThatThrownBy(() -> new GitCli(slow.toString()).run(tmp, List.of("status"), Duration.ofMillis(300)))
                .isInstanceOf(GitException.class)
                .hasMessageContaining("git status took longer than");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void missingExecutableIsReportedAsGitNotInstalled() {
        GitCli missing = new GitCli(tmp.resolve("no-such-git").toString());

        assertThatThrownBy(() -> missing.run(tmp, "status"))
                .isInstanceOf(GitException.class)
                .hasMessageContaining("Is git installed and on PATH?");
    }

    @Test
    void outputLargerThanAPipeBufferIsReadCompletely() throws Exception {
        TempRepo repo = TempRepo.initEmpty(tmp.resolve("repo"));
        for (int i = 0; i < 3000; i++) {
            repo.write("files/file-with-a-long-name-" + i + ".txt", "x");
        }

        GitCli.Result r = git.run(repo.dir(), List.of("status", "--porcelain", "-uall"), Duration.ofSeconds(30));

        assertThat(r.stdout().lines()).hasSize(3000);
    }
}
