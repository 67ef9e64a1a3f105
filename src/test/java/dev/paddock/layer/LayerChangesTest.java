package dev.paddock.layer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The change list of an upper layer an agent wrote whatever it liked into. */
class LayerChangesTest {
    @TempDir
    Path tmp;

    @Test
    void aFifoIsAWriteNotADeletionAndALinkIsListedNotFollowed() throws Exception {
        Path upper = Files.createDirectories(tmp.resolve("upper"));
        Path lower = Files.createDirectories(tmp.resolve("lower"));
        Files.writeString(lower.resolve("a.txt"), "shared\n");
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), "secret\n");
        assertThat(new ProcessBuilder("mkfifo", upper.resolve("a.txt").toString())
                        .start()
                        .waitFor())
                .isZero();
        Files.createSymbolicLink(upper.resolve("out"), outside);

        assertThat(LayerChanges.read("node_modules", upper, lower))
                .containsExactly(
                        new LayerChange("node_modules/a.txt", LayerChange.Kind.MODIFIED),
                        new LayerChange("node_modules/out", LayerChange.Kind.ADDED));
    }

    @Test
    void aCharacterDeviceZeroZeroIsADeletion() throws Exception {
        Path upper = Files.createDirectories(tmp.resolve("upper"));
        Path lower = Files.createDirectories(tmp.resolve("lower"));
        Files.writeString(lower.resolve("a.txt"), "shared\n");
        int made = new ProcessBuilder("mknod", upper.resolve("a.txt").toString(), "c", "0", "0")
                .start()
                .waitFor();
        assumeThat(made).as("mknod needs root").isZero();

        assertThat(LayerChanges.read("node_modules", upper, lower))
                .containsExactly(new LayerChange("node_modules/a.txt", LayerChange.Kind.DELETED));
    }
}
