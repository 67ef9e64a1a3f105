package dev.paddock.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** instance.json: how CLI commands find the running panel or server. */
class InstanceFileTest {
    @TempDir
    Path tmp;

    private Path file() {
        return tmp.resolve("instance.json");
    }

    @Test
    void whatIsWrittenReadsBackAndIsLiveWhileItsProcessRuns() throws Exception {
        // Live means: that pid runs and started before the file was written (not a reused pid).
        InstanceFile ours = new InstanceFile(ProcessHandle.current().pid(), 4242, "panel", Instant.now());

        ours.write(file());

        assertThat(InstanceFile.read(file())).contains(ours);
        assertThat(InstanceFile.live(file())).contains(ours);
        assertThat(tmp.resolve("instance.json.tmp")).doesNotExist();
    }

    @Test
    void aMissingFileReadsAsNoInstance() {
        assertThat(InstanceFile.read(file())).isEmpty();
        assertThat(InstanceFile.live(file())).isEmpty();
    }

    @Test
    void anInstanceFileOfAnotherProcessIsNotDeletedByUs() throws Exception {
        InstanceFile theirs = new InstanceFile(ProcessHandle.current().pid() + 1_000_000, 1, "panel", Instant.now());
        theirs.write(file());

        new InstanceFile(ProcessHandle.current().pid(), 2, "serve", Instant.now()).deleteIfOurs(file());

        assertThat(InstanceFile.read(file())).contains(theirs);
    }

    @Test
    void aDamagedInstanceFileReadsAsNoInstance() throws Exception {
        Files.writeString(file(), "{ not json");

        assertThat(InstanceFile.read(file())).isEmpty();
    }

    @Test
    void ourOwnInstanceFileIsDeletedOnShutdown() throws Exception {
        InstanceFile ours = new InstanceFile(ProcessHandle.current().pid(), 4242, "serve", Instant.now());
        ours.write(file());

        ours.deleteIfOurs(file());

        assertThat(file()).doesNotExist();
    }

    @Test
    void aFileWhosePidNowBelongsToALaterProcessIsNotLive() throws Exception {
        // The file says it was written long before this process (alive, same pid) started: a crashed
        // Paddock's pid reused by another program.
        InstanceFile stale =
                new InstanceFile(ProcessHandle.current().pid(), 4242, "panel", Instant.parse("2001-01-01T00:00:00Z"));
        stale.write(file());

        assertThat(InstanceFile.read(file())).isPresent();
        assertThat(InstanceFile.live(file())).isEmpty();
    }

    @Test
    void aFileLeftByADeadProcessIsNotLive() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        new InstanceFile(gone.pid(), 1, "serve", Instant.now()).write(file());

        assertThat(InstanceFile.read(file())).isPresent();
        assertThat(InstanceFile.live(file())).isEmpty();
    }
}
