package dev.paddock.worktree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A workspace's tar from elsewhere is unpacked inside its directory or refused. */
class WorkspaceUnpackTest {
    @TempDir
    Path tmp;

    /** A tar built entry by entry: name, then a file's text, or "->target" for a link, "/" for a directory. */
    private static byte[] tar(String... nameAndContent) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (TarArchiveOutputStream t = new TarArchiveOutputStream(buf, StandardCharsets.UTF_8.name())) {
            t.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            for (int i = 0; i < nameAndContent.length; i += 2) {
                String name = nameAndContent[i];
                String c = nameAndContent[i + 1];
                TarArchiveEntry e;
                if (c.equals("/")) {
                    e = new TarArchiveEntry(name, TarConstants.LF_DIR);
                } else if (c.startsWith("->")) {
                    e = new TarArchiveEntry(name, TarConstants.LF_SYMLINK);
                    e.setLinkName(c.substring(2));
                } else if (c.startsWith("=>")) {
                    e = new TarArchiveEntry(name, TarConstants.LF_LINK);
                    e.setLinkName(c.substring(2));
                } else {
                    e = new TarArchiveEntry(name);
                    e.setSize(c.getBytes(StandardCharsets.UTF_8).length);
                }
                t.putArchiveEntry(e);
                if (!c.equals("/") && !c.startsWith("->") && !c.startsWith("=>")) {
                    t.write(c.getBytes(StandardCharsets.UTF_8));
                }
                t.closeArchiveEntry();
            }
        }
        return buf.toByteArray();
    }

    private Path unpack(byte[] tar, long maxBytes) throws Exception {
        Path into = Files.createDirectories(tmp.resolve("into"));
        WorkspaceUnpack.unpack(new ByteArrayInputStream(tar), "top", into, maxBytes, 1000);
        return into;
    }

    private void refused(byte[] tar, String why) {
        assertThatThrownBy(() -> unpack(tar, 1 << 20))
                .isInstanceOf(WorkspaceRefused.class)
                .hasMessageContaining(why);
        assertThat(tmp.resolve("outside")).doesNotExist();
        assertThat(Path.of("/tmp/paddock-unpack-escape")).doesNotExist();
    }

    @Test
    void filesDirectoriesAndInsideLinksAreUnpacked() throws Exception {
        Path into =
                unpack(tar("top/", "/", "top/a/b.txt", "b", "top/link", "->a/b.txt", "top/a/up", "->../link"), 1 << 20);
        assertThat(Files.readString(into.resolve("a/b.txt"))).isEqualTo("b");
        assertThat(Files.readSymbolicLink(into.resolve("link"))).isEqualTo(Path.of("a/b.txt"));
        try (Stream<Path> s = Files.list(into)) {
            assertThat(s.count()).isEqualTo(2);
        }
    }

    @Test
    void escapesAreRefused() throws Exception {
        refused(tar("top/../outside", "x"), "outside it");
        refused(tar("/tmp/paddock-unpack-escape", "x"), "outside it");
        refused(tar("other/file", "x"), "outside it");
        refused(tar("top/a/../../outside", "x"), "outside it");
        refused(tar("top/out", "->../outside"), "link leading out");
        refused(tar("top/out", "->/etc"), "link leading out");
        refused(tar("top/dir", "->.", "top/dir/x", "x"), "behind a link");
        refused(tar("top/hard", "=>/etc/passwd"), "neither a file");
    }

    @Test
    void namesAreJudgedAsTheyStandInTheHeader() throws Exception {
        // The writer above drops a leading slash; a header from elsewhere need not.
        for (String name : new String[] {"/etc/passwd", "top//etc/passwd", "top/../x", "top/a/../../x", "../top/x"}) {
            assertThatThrownBy(() -> WorkspaceUnpack.relative(name, "top"))
                    .as(name)
                    .isInstanceOf(WorkspaceRefused.class);
        }
        assertThat(WorkspaceUnpack.relative("./top/a/b", "top")).isEqualTo("a/b");
        assertThat(WorkspaceUnpack.relative("top/", "top")).isNull();
    }

    @Test
    void aLinkLeadingOutIsTakenOnlyWhenTheWorktreeHasThatVeryLink() throws Exception {
        Path into = Files.createDirectories(tmp.resolve("into"));
        WorkspaceUnpack.unpack(
                new ByteArrayInputStream(tar("top/hosts", "->/etc/hosts")),
                "top",
                into,
                1 << 20,
                10,
                java.util.Map.of("hosts", "/etc/hosts"));
        assertThat(Files.readSymbolicLink(into.resolve("hosts"))).isEqualTo(Path.of("/etc/hosts"));

        Path other = Files.createDirectories(tmp.resolve("other"));
        assertThatThrownBy(() -> WorkspaceUnpack.unpack(
                        new ByteArrayInputStream(tar("top/hosts", "->/etc/shadow")),
                        "top",
                        other,
                        1 << 20,
                        10,
                        java.util.Map.of("hosts", "/etc/hosts")))
                .isInstanceOf(WorkspaceRefused.class);
        assertThatThrownBy(() -> WorkspaceUnpack.unpack(
                        new ByteArrayInputStream(tar("top/elsewhere", "->/etc/hosts")),
                        "top",
                        other,
                        1 << 20,
                        10,
                        java.util.Map.of("hosts", "/etc/hosts")))
                .isInstanceOf(WorkspaceRefused.class);
    }

    @Test
    void aWorkspaceLargerThanTheCapIsRefused() throws Exception {
        assertThatThrownBy(() -> unpack(tar("top/a", "12345", "top/b", "67890"), 8))
                .isInstanceOf(WorkspaceRefused.class)
                .hasMessageContaining("larger than");
    }
}
