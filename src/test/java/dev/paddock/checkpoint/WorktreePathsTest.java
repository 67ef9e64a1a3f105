package dev.paddock.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The guards of what a rollback writes and deletes, on a real folder with a link out of it. */
class WorktreePathsTest {
    @TempDir
    Path tmp;

    @Test
    void pathsThatLeaveTheWorktreeOrEnterGitAreRefused() {
        for (String bad : new String[] {
            "../outside",
            "a/../../b",
            "/etc/passwd",
            "a//b",
            "./a",
            "a/./b",
            ".git/config",
            "sub/.GIT/hooks/pre-commit",
            "",
            "a\\b"
        }) {
            assertThatThrownBy(() -> WorktreePaths.check(bad))
                    .as(bad)
                    .isInstanceOf(CheckpointException.class)
                    .hasMessageStartingWith("Refusing the path \"" + bad + "\"");
        }
    }

    @Test
    void ordinaryPathsAreAccepted() throws Exception {
        WorktreePaths.check("a.txt");
        WorktreePaths.check("src/main/.gitignore");
        WorktreePaths.check("dir/.github/workflows/ci.yml");
        WorktreePaths.check("..hidden/x");
    }

    @Test
    void deletionNeverGoesThroughALinkAndPrunesOnlyEmptyFolders() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("wt")).toRealPath();
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("precious.txt"), "keep me\n");
        Files.createSymbolicLink(root.resolve("link"), outside);
        Files.createDirectories(root.resolve("a/b"));
        Files.writeString(root.resolve("a/b/added.txt"), "added\n");
        Files.createDirectories(root.resolve("c"));
        Files.writeString(root.resolve("c/added.txt"), "added\n");
        Files.writeString(root.resolve("c/ignored.log"), "ignored\n");

        assertThat(WorktreePaths.delete(root, "link/precious.txt")).isFalse();
        assertThat(WorktreePaths.delete(root, "a/b/added.txt")).isTrue();
        assertThat(WorktreePaths.delete(root, "c/added.txt")).isTrue();
        assertThat(WorktreePaths.delete(root, "never/there.txt")).isTrue();

        assertThat(outside.resolve("precious.txt")).hasContent("keep me");
        assertThat(root.resolve("a")).doesNotExist();
        assertThat(root.resolve("c/ignored.log")).exists();
        assertThat(root).isDirectory();
    }
}
