package dev.paddock.worktree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.testing.TempRepo;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A workspace copy whose index (written by the agent, who needs no git to write one) names paths git itself would
 * never add: the copy is refused before anything local changes, and nothing lands outside the worktree.
 */
class WorkspaceReturnTest {
    @TempDir
    Path tmp;

    private TempRepo repo;
    private Path wt;
    private Path copy;

    @BeforeEach
    void setUp() {
        repo = TempRepo.init(tmp.resolve("repo"));
        repo.commitFile("README.md", "hello\n", "first");
        repo.commitFile("y/keep", "a directory the worktree has\n", "second");
        wt = repo.addWorktree(tmp.resolve("wt"), "sb");
        copy = tmp.resolve("copy");
        TempRepo.git(tmp, "clone", "--quiet", "--branch", "sb", wt.toString(), copy.toString());
    }

    /** An index (version 2) listing {@code names}, each a regular file with the blob of README.md. */
    private void index(String... names) throws Exception {
        byte[] blob = HexFormat.of()
                .parseHex(TempRepo.git(copy, "rev-parse", "HEAD:README.md").strip());
        String[] sorted = names.clone();
        Arrays.sort(
                sorted,
                (a, b) -> Arrays.compare(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8)));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(ByteBuffer.allocate(12)
                .put("DIRC".getBytes(StandardCharsets.US_ASCII))
                .putInt(2)
                .putInt(sorted.length)
                .array());
        for (String n : sorted) {
            byte[] name = n.getBytes(StandardCharsets.UTF_8);
            ByteBuffer e = ByteBuffer.allocate(62);
            e.position(24);
            e.putInt(0100644).putInt(0).putInt(0).putInt(6).put(blob).putShort((short) Math.min(name.length, 0xFFF));
            out.write(e.array());
            out.write(name);
            int pad = 8 - ((62 + name.length) % 8);
            out.write(new byte[pad]);
        }
        byte[] body = out.toByteArray();
        out.write(MessageDigest.getInstance("SHA-1").digest(body));
        Files.write(copy.resolve(".git/index"), out.toByteArray());
    }

    private void refusedAndNothingMoved(String why) throws IOException {
        String before = TempRepo.revParse(wt, "HEAD");
        assertThatThrownBy(() -> new WorkspaceReturn(new GitCli()).bringBack(copy, wt, "sb", "sb-1"))
                .isInstanceOf(WorkspaceRefused.class)
                .hasMessageContaining(why);
        assertThat(TempRepo.revParse(wt, "HEAD")).isEqualTo(before);
    }

    @Test
    void anIndexPathClimbingOutThroughALinkIsRefusedAndWritesNothingOutside() throws Exception {
        // copy/y leads two levels down, so copy/y/../../pwned is copy/pwned (the agent's file), while the
        // worktree's y is a directory and wt/y/../../pwned is next to the worktree.
        TempRepo.deleteTree(copy.resolve("y"));
        Files.createDirectories(copy.resolve("s/s"));
        Files.createSymbolicLink(copy.resolve("y"), Path.of("s/s"));
        Files.writeString(copy.resolve("pwned"), "written by the agent\n");
        index("README.md", "y/../../pwned");

        refusedAndNothingMoved("y/../../pwned");
        assertThat(tmp.resolve("pwned")).doesNotExist();
    }

    @Test
    void anIndexPathThroughALinkOfTheCopyIsLeftOut() throws Exception {
        // copy/d/up is copy/deep/er/up -> ../../README.md, inside; written as wt/d/up it would lead out.
        Files.createDirectories(copy.resolve("deep/er"));
        Files.createSymbolicLink(copy.resolve("deep/er/up"), Path.of("../../README.md"));
        Files.createSymbolicLink(copy.resolve("d"), Path.of("deep/er"));
        index("README.md", "d/up");

        new WorkspaceReturn(new GitCli()).bringBack(copy, wt, "sb", "sb-1");
        assertThat(wt.resolve("d")).isSymbolicLink();
        assertThat(Files.readSymbolicLink(wt.resolve("d"))).isEqualTo(Path.of("deep/er"));
    }

    @Test
    void anIndexPathIntoAGitDirectoryIsRefused() throws Exception {
        Files.createDirectories(copy.resolve("sub/.git"));
        Files.writeString(copy.resolve("sub/.git/config"), "[core]\n\tfsmonitor = touch /tmp/paddock-fsmonitor\n");
        index("README.md", "sub/.git/config");

        refusedAndNothingMoved("sub/.git/config");
        assertThat(wt.resolve("sub/.git")).doesNotExist();
    }

    @Test
    void anAbsoluteIndexPathIsRefused() throws Exception {
        index("/etc/hostname", "README.md");

        refusedAndNothingMoved("/etc/hostname");
    }

    @Test
    void aFileOfTheBranchBehindATrackedLinkLeadingOutIsNotDeletedThroughIt() throws Exception {
        // The repository tracks ext -> ../outside (a link leading out; the copy may bring it back as it is).
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("victim.txt"), "not the sandbox's\n");
        Files.createSymbolicLink(wt.resolve("ext"), Path.of("../outside"));
        TempRepo.commitAll(wt, "a link leading out");
        TempRepo.git(copy, "pull", "--quiet", "--ff-only");
        // The agent commits ext/victim.txt as a file of a directory ext, then puts the link back in its files and
        // its index: the branch lists ext/victim.txt, the copy has no such file, so it counts as deleted.
        TempRepo.git(copy, "rm", "--quiet", "--cached", "ext");
        Files.delete(copy.resolve("ext"));
        TempRepo.write(copy, "ext/victim.txt", "x\n");
        TempRepo.git(copy, "add", "ext/victim.txt");
        TempRepo.git(copy, "-c", "user.name=A", "-c", "user.email=a@x.invalid", "commit", "--quiet", "-m", "dir");
        TempRepo.git(copy, "rm", "--quiet", "-r", "--cached", "ext");
        TempRepo.deleteTree(copy.resolve("ext"));
        Files.createSymbolicLink(copy.resolve("ext"), Path.of("../outside"));
        TempRepo.git(copy, "add", "ext");

        new WorkspaceReturn(new GitCli()).bringBack(copy, wt, "sb", "sb-1");

        assertThat(outside.resolve("victim.txt")).hasContent("not the sandbox's");
    }
}
