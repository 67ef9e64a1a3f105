package dev.paddock.isolation.bubblewrap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.isolation.LayerMount;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LayerMountsTest {
    @TempDir
    Path tmp;

    @Test
    void aCallerThatIsNotRootKeepsNoCapabilityInsideAsWithoutLayers() {
        assertThat(LayerMounts.identity(new LayerMounts.Ids(1000, 1000)))
                .containsExactly("--uid", "1000", "--gid", "1000", "--cap-drop", "ALL");
        assertThat(LayerMounts.identity(new LayerMounts.Ids(0, 0))).containsExactly("--uid", "0", "--gid", "0");
    }

    /** A folder's name only reaches the script single-quoted; the paths are checked by {@link LayerMount}. */
    @Test
    void aFolderNameCannotRunAnythingInTheScript() throws Exception {
        Path marker = tmp.resolve("ran");
        String folder = "$(touch " + marker + ")`touch " + marker + "`\"; touch " + marker + "; \"";
        LayerMount l = new LayerMount(folder, tmp.resolve("lower"), tmp.resolve("own"), "/x", 0);
        String script = LayerMounts.script(List.of(l)).replace("mount -t overlay", "false");

        Process p = new ProcessBuilder("/bin/sh", "-c", script, "sh", "true")
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes());

        assertThat(p.waitFor()).isEqualTo(LayerMounts.MOUNT_FAILED);
        assertThat(out).contains("the shared layer " + folder + " could not be mounted");
        assertThat(Files.exists(marker)).isFalse();
    }
}
