package dev.paddock.worktree;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.testing.TempRepo;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What goes to a remote engine is the worktree's: nothing reached through a link of it. */
class WorkspaceTarTest {
    @TempDir
    Path tmp;

    @Test
    void aFileListedBelowALinkLeadingOutIsNotSent() throws Exception {
        // The branch tracks ext -> ../outside; the index (after a bring-back, the agent's tree) lists ext/secret.txt.
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), "host secret\n");
        TempRepo repo = TempRepo.init(tmp.resolve("repo"));
        repo.commitFile("README.md", "hello\n", "first");
        Path wt = repo.addWorktree(tmp.resolve("wt"), "sb");
        Files.createSymbolicLink(wt.resolve("ext"), Path.of("../outside"));
        TempRepo.commitAll(wt, "a link leading out");
        String blob = TempRepo.git(wt, "rev-parse", "HEAD:README.md").strip();
        TempRepo.git(wt, "rm", "--quiet", "--cached", "ext");
        TempRepo.git(wt, "update-index", "--add", "--cacheinfo", "100644," + blob + ",ext/secret.txt");

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new WorkspaceTar(new GitCli()).write(wt, "sb", 1000, 1000, "top", out);

        List<String> names = new ArrayList<>();
        StringBuilder contents = new StringBuilder();
        try (TarArchiveInputStream in = new TarArchiveInputStream(new ByteArrayInputStream(out.toByteArray()))) {
            TarArchiveEntry e;
            while ((e = in.getNextEntry()) != null) {
                names.add(e.getName());
                if (e.isFile()) {
                    contents.append(new String(in.readAllBytes(), StandardCharsets.UTF_8));
                }
            }
        }
        assertThat(names).contains("top/README.md", "top/ext").doesNotContain("top/ext/secret.txt");
        assertThat(contents.toString()).doesNotContain("host secret");
    }
}
