package dev.paddock.layer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reclaiming never follows a link out of {@code .worktrees/.shared} nor trusts a pin's odd content. */
class LayerDirsTest {
    @TempDir
    Path tmp;

    @Test
    void reclaimDeletesALinkedGenerationAsALinkAndIgnoresAnOddPin() throws Exception {
        Path main = Files.createDirectories(tmp.resolve("repo"));
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("keep.txt"), "keep\n");
        Path shared = Files.createDirectories(LayerDirs.shared(main));
        Files.createSymbolicLink(shared.resolve("gen-7"), outside);
        Files.createSymbolicLink(shared.resolve("build-8"), outside);
        Path pins = Files.createDirectories(main.resolve(".worktrees/s-1/.layers"));
        Files.writeString(pins.resolve("generation"), "../../outside\n");
        Files.createDirectories(main.resolve(".worktrees/s-2"));
        Files.createSymbolicLink(main.resolve(".worktrees/s-2/.layers"), outside);

        assertThat(LayerDirs.pinned(main.resolve(".worktrees/s-1"))).isEmpty();
        assertThat(LayerDirs.reclaim(main, true)).hasSize(2);

        assertThat(shared.resolve("gen-7")).doesNotExist();
        assertThat(outside.resolve("keep.txt")).hasContent("keep");
    }
}
