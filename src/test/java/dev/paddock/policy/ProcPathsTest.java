package dev.paddock.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The other names Linux gives a process's files, rewritten to the names rules use. */
class ProcPathsTest {
    private static final Path CWD = Path.of("/home/u/repo");

    private static Path plain(String p) {
        return ProcPaths.plain(Path.of(p), CWD);
    }

    @Test
    void aProcessWorkingDirectoryIsTheWorkingDirectory() {
        assertThat(plain("/proc/self/cwd/.env")).isEqualTo(Path.of("/home/u/repo/.env"));
        assertThat(plain("/proc/thread-self/cwd/.env")).isEqualTo(Path.of("/home/u/repo/.env"));
        assertThat(plain("/proc/self/task/12/cwd/.git/config")).isEqualTo(Path.of("/home/u/repo/.git/config"));
        assertThat(plain("/proc/self/cwd")).isEqualTo(CWD);
        assertThat(plain("/proc/./self/../self/cwd/x")).isEqualTo(Path.of("/home/u/repo/x"));
        assertThat(plain("/proc/self/cwd/../repo2/x"))
                .as(".. after cwd leaves the working directory")
                .isEqualTo(Path.of("/home/u/repo2/x"));
        assertThat(ProcPaths.of(Path.of("/proc/1234/cwd/x")).otherProcess()).isTrue();
    }

    @Test
    void aProcessRootIsTheRoot() {
        assertThat(plain("/proc/self/root/home/u/repo/.env")).isEqualTo(Path.of("/home/u/repo/.env"));
        assertThat(plain("/proc/self/root/proc/self/root/etc/passwd")).isEqualTo(Path.of("/etc/passwd"));
        assertThat(plain("/proc/self/root/proc/self/cwd/.env")).isEqualTo(Path.of("/home/u/repo/.env"));
        assertThat(plain("/tmp/../proc/self/root/etc/hosts")).isEqualTo(Path.of("/etc/hosts"));
    }

    @Test
    void aFileReachedThroughADescriptorHasNoName() {
        assertThat(plain("/dev/fd/3")).isNull();
        assertThat(plain("/dev/fd/3/hooks/pre-commit")).isNull();
        assertThat(plain("/proc/self/fd/4")).isNull();
        assertThat(plain("/proc/1/fd/0")).isNull();
        assertThat(plain("/dev/fd/1")).as("the standard streams").isEqualTo(Path.of("/dev/fd/1"));
        assertThat(plain("/proc/self/fd/2")).isEqualTo(Path.of("/proc/self/fd/2"));
    }

    @Test
    void otherPathsStayAsTheyAre() {
        assertThat(plain("/proc/cpuinfo")).isEqualTo(Path.of("/proc/cpuinfo"));
        assertThat(plain("/home/u/repo/./src/../x")).isEqualTo(Path.of("/home/u/repo/x"));
        assertThat(plain("/devices/fd/3")).isEqualTo(Path.of("/devices/fd/3"));
    }
}
